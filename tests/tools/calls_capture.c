/* calls_capture DIR ITERATIONS: writes DIR/calls-code.bin and
 * DIR/calls.data, a sw_branch capture (one thread named "calls", the
 * tracer's time on every record) of a loop that makes 24 calls an
 * iteration: 16 call sites each calling a function of its own, every
 * other one of which calls one more (two levels under the loop). The
 * trace is in two pieces; the AUX record of the first says the buffer
 * was full (TRUNCATED: what follows it is lost), and tracing goes off and
 * on again once in it. The view test's large capture (ITERATIONS 41667:
 * 1,000,008 calls). Prints the calls written. */
#include <stdio.h>
#include <stdlib.h>

#include "unit/bts_capture.h"

#define SITES 16
#define LOOP_JMP (BTS_ORG + 5 * SITES)          /* jmp BTS_ORG */
#define FUNC(i) (BTS_ORG + 0x400 + 0x40 * (i))  /* call G(i); ret, or ret */
#define INNER(i) (BTS_ORG + 0x800 + 0x40 * (i)) /* ret */

static void put_rel32(uint8_t *code, uint64_t at, uint8_t op, uint64_t to)
{
	int32_t rel = (int32_t)(to - (at + 5));
	uint8_t *p = code + (at - BTS_ORG);
	p[0] = op;
	memcpy(p + 1, &rel, 4);
}

static int write_code(const char *path)
{
	static uint8_t page[BTS_CODE_SIZE];
	for (unsigned i = 0; i < SITES; i++) {
		put_rel32(page, BTS_ORG + 5 * i, 0xe8, FUNC(i));
		if (i % 2 == 0) {
			put_rel32(page, FUNC(i), 0xe8, INNER(i));
			page[FUNC(i) + 5 - BTS_ORG] = 0xc3;
			page[INNER(i) - BTS_ORG] = 0xc3;
		} else {
			page[FUNC(i) - BTS_ORG] = 0xc3;
		}
	}
	put_rel32(page, LOOP_JMP, 0xe9, BTS_ORG);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = fwrite(page, 1, sizeof(page), f);
	return fclose(f) == 0 && n == sizeof(page) ? 0 : -1;
}

/* The thread's name, "calls", and the end of the first piece's data
 * reported with the TRUNCATED flag (the AUX buffer was full: what
 * follows is lost), at @time. */
static int write_comm(struct hwt_pd_writer *pw)
{
	uint8_t rec[128] = {0};
	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	memcpy(rec + 8, pidtid, 8);
	memcpy(rec + 16, "calls", 6);
	size_t n = 24 + pt_capture_sample_id(rec + 24, 1, 2);
	pt_capture_header(rec, PERF_RECORD_COMM, 0, n);
	return hwt_pd_writer_record(pw, rec);
}

static int write_truncated(struct hwt_pd_writer *pw, uint64_t offset,
			   uint64_t size, uint64_t time)
{
	uint8_t rec[128] = {0};
	uint64_t aux[3] = {offset, size, PERF_AUX_FLAG_TRUNCATED};
	memcpy(rec + 8, aux, sizeof(aux));
	size_t n = 32 + pt_capture_sample_id(rec + 32, time, 1);
	pt_capture_header(rec, PERF_RECORD_AUX, 0, n);
	return hwt_pd_writer_record(pw, rec);
}

/* One iteration's branches; returns the calls. */
static unsigned iteration(struct bts_gen *g)
{
	unsigned calls = 0;
	for (unsigned i = 0; i < SITES; i++) {
		uint64_t site = BTS_ORG + 5 * i;
		bts_rec(g, site, FUNC(i), true);
		calls++;
		if (i % 2 == 0) {
			bts_rec(g, FUNC(i), INNER(i), true);
			bts_rec(g, INNER(i), FUNC(i) + 5, true);
			bts_rec(g, FUNC(i) + 5, site + 5, true);
			calls++;
		} else {
			bts_rec(g, FUNC(i), site + 5, true);
		}
	}
	return calls;
}

int main(int argc, char **argv)
{
	unsigned long n = argc == 3 ? strtoul(argv[2], NULL, 0) : 0;
	if (!n || n > 10000000) {
		fprintf(stderr, "usage: calls_capture DIR ITERATIONS (1 to 10000000)\n");
		return 2;
	}
	char bin[4096], data[4096];
	snprintf(bin, sizeof(bin), "%s/calls-code.bin", argv[1]);
	snprintf(data, sizeof(data), "%s/calls.data", argv[1]);
	struct hwt_pd_writer *pw = NULL;
	if (write_code(bin) < 0 || bts_capture_begin(data, true, bin, &pw)) {
		fprintf(stderr, "calls_capture: %s: %s\n", data, hwt_errmsg());
		return 1;
	}
	struct bts_written w = {0};
	struct bts_gen g = {.swb = true, .seed = 1, .time = 1000, .w = &w};
	unsigned long calls = 0;
	int err = write_comm(pw);
	for (unsigned piece = 0; piece < 2 && !err; piece++) {
		g.len = 0;
		bts_rec(&g, 0, BTS_ORG, true); /* tracing begins */
		unsigned long todo = piece ? n - n / 2 : n / 2;
		for (unsigned long i = 0; i < todo; i++) {
			calls += iteration(&g);
			if (piece == 0 && i == todo / 2) {
				/* Off after the jump, on again at its target. */
				bts_rec(&g, LOOP_JMP, 0, true);
				g.time += 5000;
				bts_rec(&g, 0, BTS_ORG, true);
			} else {
				bts_rec(&g, LOOP_JMP, BTS_ORG, true);
			}
		}
		struct hwt_pd_auxtrace aux = {
			.size = g.len, .offset = g.off, .reference = piece,
			.idx = 0, .tid = PT_CAPTURE_PID, .cpu = UINT32_MAX,
		};
		err = hwt_pd_writer_auxtrace(pw, &aux, g.buf);
		if (!err && piece == 0)
			err = write_truncated(pw, g.off, g.len, g.time + 1);
		/* Trace lost before the next piece. */
		g.off += ((g.len + 7) & ~(size_t)7) + 4096;
		g.time += 20000;
	}
	free(g.buf);
	int cerr = hwt_pd_writer_close(pw);
	if (err || cerr) {
		fprintf(stderr, "calls_capture: %s: %s\n", data, hwt_errmsg());
		return 1;
	}
	printf("%lu\n", calls);
	return 0;
}
