/* Two threads hand a capture's elements to the calling thread in batches
 * (core/decode/par_batch.c), which adds runs of ranges and branches that
 * join the attribution's newest group in bulk (hwt_ctx_sink_batch). A run
 * is measured by reading it to its end (par_cursor_run, whose reads
 * par_run_reads counts): measured once per run, a batch is read about
 * once. It was once measured after every element that did not join, and
 * in a per-thread capture none does: each 16,384-element batch was read
 * some 8,000 times over, and `hwtrace decode` of a 2 MiB capture took
 * 180 s instead of 1.7. A per-thread and a per-CPU capture of one dense
 * Intel PT loop (a PSB+ with a TSC every 4 KiB, so that the piece is cut
 * and the workers decode it), two threads: the same elements as one
 * thread, and at most as many slot reads as elements. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <intel-pt.h>

#include "core/decode/par_batch.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "pt_enc_psb.h"
#include "test_pt_capture.h"

#define ORG 0x400000ull
#define TRACE_SIZE (256u << 10)

/* 400000 inc rax; 400003 jne 400000; 400005 ret */
static const uint8_t code[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};
static uint8_t trace[TRACE_SIZE];
static char tmp[] = "/tmp/hwt-par-reads-XXXXXX";

static uint64_t counted;

static int count(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	counted++;
	return 0;
}

static uint64_t decode(const char *data, unsigned jobs)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = jobs};
	struct hwt_elem_sink sink = {count, NULL};
	counted = 0;
	int err = hwt_decode_file(data, &opts, &sink);
	if (err < 0)
		HWT_FAIL("decode %s -j%u: %s", data, jobs, hwt_errmsg());
	return counted;
}

static void read_once(const char *what, const char *data)
{
	uint64_t one = decode(data, 1);
	uint64_t before = par_run_reads;
	uint64_t two = decode(data, 2);
	uint64_t reads = par_run_reads - before;
	printf("%s: %llu elements, %llu slot reads\n", what,
	       (unsigned long long)two, (unsigned long long)reads);
	CHECK(one > 1000000); /* many batches */
	CHECK_U64(two, one);
	CHECK(reads <= two);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	char bin[300], data[300];
	snprintf(bin, sizeof(bin), "%s/code.bin", tmp);
	snprintf(data, sizeof(data), "%s/perf.data", tmp);
	FILE *f = fopen(bin, "wb");
	CHECK(f && fwrite(code, 1, sizeof(code), f) == sizeof(code));
	if (f)
		fclose(f);
	/* The loop taken on every TNT bit, a PSB+ every 4 KiB. */
	size_t size = pt_enc_passes(trace, sizeof(trace), 1000, ORG,
				    pt_enc_loop_taken, NULL);
	CHECK(size > 0);

	struct pt_capture per_thread = {.code_path = bin, .code_addr = ORG,
					.code_size = sizeof(code),
					.trace = trace, .trace_size = size};
	CHECK_INT(pt_capture_write(data, &per_thread), 0);
	read_once("per-thread", data);

	struct pt_capture_buffer bufs[2] = {{0, 0, trace, size},
					    {1, 0, trace, size}};
	struct pt_capture per_cpu = {.code_path = bin, .code_addr = ORG,
				     .code_size = sizeof(code),
				     .buffers = bufs, .nbuffers = 2};
	CHECK_INT(pt_capture_write(data, &per_cpu), 0);
	read_once("per-CPU", data);

	unlink(data);
	unlink(bin);
	rmdir(tmp);
	return hwt_test_summary();
}
