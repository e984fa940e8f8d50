/* libFuzzer target for the perf.data decode pipeline: sideband to image
 * and task context, AUXTRACE queues, loss records, and the Intel PT
 * decoder, on any file whose AUXTRACE_INFO names intel_pt (the other
 * backends' decoders have fuzz targets of their own). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static int fd = -1;
static FILE *devnull;

/* Whether the first AUXTRACE_INFO is intel_pt's (type 1). */
static int is_intel_pt(const char *file)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	int pt = 0;
	if (hwt_pd_reader_open(file, &r) < 0)
		return 1; /* let the decoder report it */
	while (hwt_pd_reader_next(r, &rec) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE_INFO && rec.size >= 12) {
			uint32_t type;
			memcpy(&type, (const uint8_t *)rec.data + 8, 4);
			pt = type == 1;
			break;
		}
	}
	hwt_pd_reader_free(r);
	return pt;
}

static int count(void *arg, const struct hwt_elem *e)
{
	(*(size_t *)arg)++;
	if (e->type == HWT_ELEM_ERROR && !e->u.error.message)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("fuzz-decode-file", 0);
		devnull = fopen("/dev/null", "w");
		if (fd < 0 || !devnull)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (!is_intel_pt(path))
		return 0;
	size_t n = 0;
	struct hwt_elem_sink sink = {count, &n};
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	if (hwt_decode_file(path, &opts, &sink) < 0 && !hwt_errmsg()[0])
		abort(); /* every failure says why */
	opts.packets = devnull;
	if (hwt_decode_file(path, &opts, NULL) < 0 && !hwt_errmsg()[0])
		abort();
	return 0;
}
