/* libFuzzer target for Intel PT decoding of raw trace streams: the packet
 * listing and the flow decoder (libipt's block decoder, the hwtrace
 * element mapping, branch resolution, instruction lengths) and the
 * --edges packet walk on any bytes.
 * The input's size and last byte pick the traced CPU (errata) and whether
 * instructions are split; the code image is fixed: a loop, a call and a return, and
 * an indirect jump, mapped at the addresses the ptt suite uses. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hwtrace/decode.h"
#include "hwtrace/edges.h"
#include "hwtrace/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t code[] = {
	0x48, 0xff, 0xc0,             /* inc rax */
	0xa8, 0x01,                   /* test al, 1 */
	0x74, 0x05,                   /* jz +5 */
	0xe8, 0x08, 0x00, 0x00, 0x00, /* call +8 */
	0x48, 0x39, 0xd8,             /* cmp rax, rbx */
	0x75, 0xef,                   /* jne back to the start */
	0xff, 0xe0,                   /* jmp rax */
	0x48, 0x83, 0xc1, 0x01,       /* add rcx, 1 */
	0xc3,                         /* ret */
	0x0f, 0x05,                   /* syscall */
	0xf3, 0x0f, 0xae, 0xe0,       /* ptwrite eax */
	0xcf,                         /* iret */
};

static const char *const cpus[] = {NULL, "6/61", "6/78/3", "6/142", "6/92",
				   "6/122", "6/85"};

static char code_path[64], trace_path[64];
static int trace_fd = -1;
static FILE *devnull;

static int count(void *arg, const struct hwt_elem *e)
{
	(*(size_t *)arg)++;
	if (e->type == HWT_ELEM_ERROR)
		return e->u.error.message[0] ? 0 : HWT_ERR_INVAL;
	if (e->type == HWT_ELEM_GAP && e->u.gap.detail)
		return e->u.gap.detail[0] ? 0 : HWT_ERR_INVAL;
	return 0;
}

static void setup(void)
{
	int fd = memfd_create("fuzz-pt-code", 0);
	if (fd < 0 || write(fd, code, sizeof(code)) != (ssize_t)sizeof(code))
		abort();
	snprintf(code_path, sizeof(code_path), "/proc/self/fd/%d", fd);
	trace_fd = memfd_create("fuzz-pt-trace", 0);
	if (trace_fd < 0)
		abort();
	snprintf(trace_path, sizeof(trace_path), "/proc/self/fd/%d", trace_fd);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull)
		setup();
	if (size < 1)
		return 0;
	/* The whole input is trace (seeds stay valid streams); the options
	 * come from its size and last byte. */
	uint8_t sel = (uint8_t)(size * 31u + data[size - 1]);
	if (ftruncate(trace_fd, 0) || pwrite(trace_fd, data, size, 0) != (ssize_t)size)
		abort();

	struct hwt_map_spec maps[] = {{code_path, 0x100000}, {code_path, 0x1000}};
	struct hwt_decode_opts opts = {
		.size = sizeof(opts),
		.maps = maps,
		.nmaps = 2,
		.cpu_model = cpus[sel % (sizeof(cpus) / sizeof(cpus[0]))],
		.disasm = (sel & 0x80) != 0,
	};
	size_t n = 0;
	struct hwt_elem_sink sink = {count, &n};
	if (hwt_decode_raw("intel_pt", NULL, trace_path, &opts, &sink) < 0 &&
	    !hwt_errmsg()[0])
		abort(); /* every failure says why */
	/* --edges: the packet walk, its hand-over to the block decoder,
	 * and the writers. */
	struct hwt_edges *edges = hwt_edges_new();
	if (!edges)
		abort();
	struct hwt_decode_opts eopts = opts;
	eopts.disasm = false;
	eopts.edges = edges;
	struct hwt_elem_sink esink = hwt_edges_sink(edges);
	static uint8_t bitmap[4096];
	if ((hwt_decode_raw("intel_pt", NULL, trace_path, &eopts, &esink) < 0 &&
	     !hwt_errmsg()[0]) || hwt_edges_write(edges, devnull, HWT_OUTPUT_JSONL) < 0 ||
	    hwt_edges_bitmap(edges, bitmap, sizeof(bitmap)) < 0)
		abort();
	hwt_edges_free(edges);
	opts.packets = devnull;
	if (hwt_decode_raw("intel_pt", NULL, trace_path, &opts, NULL) < 0 &&
	    !hwt_errmsg()[0])
		abort();
	return 0;
}
