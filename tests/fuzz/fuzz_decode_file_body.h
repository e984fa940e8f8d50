/* The body of the perf.data decode fuzz targets: the input as a file,
 * listed as packets, then decoded to elements, when its first AUXTRACE_INFO is of
 * the type FUZZ_AUXTRACE_TYPE, so each target spends its time on one
 * backend's decoder behind the shared pipeline (sideband to image and
 * task context, build-id and ISA checks, AUXTRACE queues, losses). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "fuzz_elem_check.h"
#include "tests/unit/decode_in_process.h"
#if FUZZ_AUXTRACE_TYPE == 3
#include "fuzz_opencsd_guard.h"
#endif
#include "hwtrace/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static int fd = -1;

/* Whether the first AUXTRACE_INFO is of the wanted type; a file the
 * reader refuses goes to the decoder, which must report it. */
static int wanted(const char *file)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	int yes = 0;
	if (hwt_pd_reader_open(file, &r) < 0)
		return 1;
	while (hwt_pd_reader_next(r, &rec) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE_INFO && rec.size >= 12) {
			uint32_t type;
			memcpy(&type, (const uint8_t *)rec.data + 8, 4);
			yes = type == FUZZ_AUXTRACE_TYPE;
			break;
		}
	}
	hwt_pd_reader_free(r);
	return yes;
}

static void warned(void *arg, const char *message)
{
	(void)arg;
	if (!message || !message[0])
		abort(); /* a warning names what it is about */
}

/* The packet listing, which must explain any failure too. */
static void list_packets(void *arg, FILE *f)
{
	struct hwt_decode_opts *opts = arg;
	opts->packets = f;
	if (hwt_decode_file(path, opts, NULL) < 0 && !hwt_errmsg()[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("fuzz-decode-file", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (!wanted(path))
		return 0;
	/* The target fuzzes the decoders themselves (decode_in_process.h;
	 * the guard above keeps OpenCSD's known faults out). */
	struct hwt_decode_opts opts = {.size = sizeof(opts), .warn = warned,
				       DECODE_IN_PROCESS};
#if FUZZ_AUXTRACE_TYPE == 3 /* CoreSight: see fuzz_opencsd_guard.h */
	if (fuzz_opencsd_unsafe(list_packets, &opts))
		return 0;
#else
	static FILE *devnull;
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	list_packets(&opts, devnull);
#endif
	size_t n = 0;
	struct hwt_elem_sink sink = {fuzz_check_elem, &n};
	opts.packets = NULL;
	if (hwt_decode_file(path, &opts, &sink) < 0 && !hwt_errmsg()[0])
		abort(); /* every failure says why */
	return 0;
}
