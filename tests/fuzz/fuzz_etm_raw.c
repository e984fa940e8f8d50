/* libFuzzer target for raw CoreSight trace streams (decode --raw
 * cs_etm,...): the first byte picks the protocol (ETMv4, ETE, ETMv3,
 * PTM), formatted or raw, and the trace ID; the rest is the stream,
 * listed as packets and decoded to elements, over a page of A64 code.
 * With bit 6 of the first byte set, the stream is also decoded whole on
 * one thread and, cut at every sync point the split accepts
 * (cs_sync_points.c), on two: the two element streams must be the same. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "backends/arm-cs/cs_sync_points.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "fuzz_elem_check.h"
#include "tests/unit/elem_text.h"
#include "tests/unit/decode_in_process.h"
#include "fuzz_opencsd_guard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char trace_path[64], code_path[64];
static int trace_fd = -1;
static struct hwt_map_spec map;

/* A loop of A64 branches of each kind, so decoded ranges follow code. */
static const uint32_t code[] = {
	0xd503201f, /* nop */
	0x71000400, /* subs w0, w0, #1 */
	0x54ffffc1, /* b.ne -8 */
	0x94000002, /* bl +8 */
	0x17fffffc, /* b -16 */
	0xd65f03c0, /* ret */
	0xd61f0020, /* br x1 */
	0xd63f0040, /* blr x2 */
	0xd4000001, /* svc #0 */
	0xb4ffff00, /* cbz x0, -32 */
};

static void setup(void)
{
	int cfd = memfd_create("fuzz-etm-code", 0);
	trace_fd = memfd_create("fuzz-etm-trace", 0);
	if (cfd < 0 || trace_fd < 0)
		abort();
	for (int i = 0; i < 4096 / (int)sizeof(code); i++)
		if (write(cfd, code, sizeof(code)) != (ssize_t)sizeof(code))
			abort();
	snprintf(code_path, sizeof(code_path), "/proc/self/fd/%d", cfd);
	snprintf(trace_path, sizeof(trace_path), "/proc/self/fd/%d", trace_fd);
	map.path = code_path;
	map.vaddr = 0;
}

struct run {
	const char *options;
	struct hwt_decode_opts opts;
};

/* The packet listing, which must explain any failure. */
static void list_packets(void *arg, FILE *f)
{
	struct run *r = arg;
	r->opts.packets = f;
	if (hwt_decode_raw("cs_etm", r->options, trace_path, &r->opts, NULL) < 0 &&
	    !hwt_errmsg()[0])
		abort();
}

static int add_text(void *arg, const struct hwt_elem *e)
{
	return elem_text_add(arg, e);
}

/* A raw stream cut at every sync point the split accepts and decoded on
 * two threads gives the stream one decoder gives, not cut. */
static void cut_same_as_whole(const char *options, struct hwt_decode_opts *o)
{
	struct elem_text one = {0}, two = {0};
	struct hwt_elem_sink s1 = {add_text, &one}, s2 = {add_text, &two};
	size_t saved = cs_split_bytes;
	cs_split_bytes = SIZE_MAX;
	o->jobs = 1;
	int e1 = hwt_decode_raw("cs_etm", options, trace_path, o, &s1);
	cs_split_bytes = 1;
	o->jobs = 2;
	int e2 = hwt_decode_raw("cs_etm", options, trace_path, o, &s2);
	cs_split_bytes = saved;
	if (e1 != e2 || (one.s == NULL) != (two.s == NULL) ||
	    (one.s && strcmp(one.s, two.s)))
		abort();
	free(one.s);
	free(two.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const proto[] = {"etmv4", "ete", "etmv3", "ptm"};
	static const uint8_t ids[] = {0x10, 0x1e, 0x01, 0x40};
	char options[64];

	if (trace_fd < 0)
		setup();
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	snprintf(options, sizeof(options), "%s,%s,traceid=0x%x", proto[sel & 3],
		 sel & 4 ? "raw" : "formatted", ids[(sel >> 3) & 3]);
	if (ftruncate(trace_fd, 0) ||
	    pwrite(trace_fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	/* In this process, as the guard expects: decode_in_process.h. */
	struct run r = {options, {.size = sizeof(r.opts), .maps = &map,
				  .nmaps = 1, DECODE_IN_PROCESS}};
	if (fuzz_opencsd_unsafe(list_packets, &r))
		return 0;
	size_t n = 0;
	struct hwt_elem_sink sink = {fuzz_check_elem, &n};
	r.opts.packets = NULL;
	r.opts.disasm = (sel & 0x20) != 0;
	if (hwt_decode_raw("cs_etm", options, trace_path, &r.opts, &sink) < 0 &&
	    !hwt_errmsg()[0])
		abort();
	if (sel & 0x40)
		cut_same_as_whole(options, &r.opts);
	return 0;
}
