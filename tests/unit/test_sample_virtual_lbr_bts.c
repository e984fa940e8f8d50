/* --virtual-lbr with another backend's window decoder: AUX samples whose
 * windows are Intel BTS records. No kernel serves PERF_SAMPLE_AUX for
 * intel_bts (nor does the emulator: struct hwt_backend.aux_sampling), so
 * the capture is written by hand, each window whole records (the newest
 * 12 before its sample, fewer at the start). The oracle is the records
 * written: a sample's records must be the newest N of its window, depth
 * 0 the newest, each with the kind its source's opcode says (jne: a
 * conditional branch, ret: a return), the sample's period as weight,
 * and between two records the range the code bytes give (from the
 * older's target to after the newer's branch, its instruction count).
 * With N above a window's records the summary counts the short stacks. */
#include <sys/stat.h>
#include <unistd.h>

#include "bts_capture.h"
#include "harness.h"
#include "hwtrace/decode.h"

#define NRECORDS 40
#define WINDOW 12 /* records a sample carries at most */
#define JNE (BTS_ORG + 3) /* 0x400003 jne 0x400000 */
#define RET (BTS_ORG + 5) /* 0x400005 ret */

static uint64_t rec_from[NRECORDS];

struct got {
	uint64_t time, weight;
	uint64_t from[64];
	int kind[64];
	unsigned depth[64];
	size_t n;
	uint64_t range_end[64], range_insns[64];
	size_t nranges;
	bool depth_ok;
};
static struct got got[NRECORDS];
static size_t ngot;
static char summary[512];

static int collect(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	if (e->type == HWT_ELEM_ERROR && strstr(e->u.error.message, "virtual LBR"))
		snprintf(summary, sizeof(summary), "%s", e->u.error.message);
	if (e->type == HWT_ELEM_RANGE && ngot) {
		struct got *g = &got[ngot - 1];
		if (g->nranges < 64 && e->u.range.start == BTS_ORG) {
			g->range_end[g->nranges] = e->u.range.end;
			g->range_insns[g->nranges++] = e->u.range.insns;
		}
	}
	if (e->type != HWT_ELEM_BRANCH || !(e->fields & HWT_FIELD_SAMPLED))
		return 0;
	struct got *g = ngot ? &got[ngot - 1] : NULL;
	if (!g || g->time != e->time) {
		if (ngot == NRECORDS)
			return 0;
		g = &got[ngot++];
		memset(g, 0, sizeof(*g));
		g->time = e->time;
		g->weight = e->u.branch.weight;
		g->depth_ok = true;
	}
	if (g->n == 64)
		return 0;
	g->depth_ok = g->depth_ok && e->u.branch.to == BTS_ORG &&
		      e->u.branch.weight == g->weight &&
		      e->cpu == 0 && e->tid == PT_CAPTURE_PID;
	g->depth[g->n] = e->u.branch.depth;
	g->from[g->n] = e->u.branch.from;
	g->kind[g->n] = (int)e->u.branch.kind;
	g->n++;
	return 0;
}

/* Records k = 0 .. NRECORDS-1, each a jne or a ret back to BTS_ORG, in
 * an order no rule makes; sample k (after record k) carries the newest
 * min(k + 1, WINDOW) records, time 5000 + k, period 300 + k. */
static int write_capture(const char *path, const char *code)
{
	struct perf_event_attr cyc = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(cyc),
		.config = PERF_COUNT_HW_CPU_CYCLES, .sample_period = 300,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER |
			       PERF_SAMPLE_AUX,
		.sample_id_all = 1, .exclude_kernel = 1,
		.aux_sample_size = WINDOW * HWT_BTS_RECORD_SIZE,
	};
	struct hwt_pd_writer *w = NULL;
	uint64_t id_cyc = 3;
	int err = bts_capture_begin_with(path, false, code, &cyc, id_cyc,
					 "cycles:u", &w);
	if (err)
		return err;
	static uint8_t stream[NRECORDS * HWT_BTS_RECORD_SIZE];
	static uint8_t rec[64 + WINDOW * HWT_BTS_RECORD_SIZE];
	unsigned seed = 7;
	for (size_t k = 0; k < NRECORDS && !err; k++) {
		seed = seed * 1103515245u + 12345u;
		rec_from[k] = (seed >> 16) % 3 ? JNE : RET;
		uint8_t *r = stream + k * HWT_BTS_RECORD_SIZE;
		hwt_bts_put_le64(r, rec_from[k]);
		hwt_bts_put_le64(r + 8, BTS_ORG);
		hwt_bts_put_le64(r + 16, 0);
		size_t nw = k + 1 < WINDOW ? k + 1 : WINDOW;
		size_t bytes = nw * HWT_BTS_RECORD_SIZE;
		uint8_t *q = rec + 8;
		hwt_bts_put_le64(q, id_cyc), q += 8;
		hwt_bts_put_le64(q, rec_from[k]), q += 8;
		hwt_bts_put_le64(q, (uint64_t)PT_CAPTURE_PID << 32 | PT_CAPTURE_PID),
			q += 8;
		hwt_bts_put_le64(q, 5000 + k), q += 8;
		hwt_bts_put_le64(q, 0), q += 8;
		hwt_bts_put_le64(q, 300 + k), q += 8;
		hwt_bts_put_le64(q, bytes), q += 8;
		memcpy(q, r + HWT_BTS_RECORD_SIZE - bytes, bytes);
		q += bytes;
		pt_capture_header(rec, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				  (size_t)(q - rec));
		err = hwt_pd_writer_record(w, rec);
	}
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

static void check(const char *path, unsigned n)
{
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.virtual_lbr = n;
	ngot = 0;
	summary[0] = 0;
	struct hwt_elem_sink sink = {collect, NULL};
	CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
	CHECK_INT(ngot, NRECORDS);
	size_t shorter = 0;
	for (size_t k = 0; k < ngot; k++) {
		const struct got *g = &got[k];
		size_t inwin = k + 1 < WINDOW ? k + 1 : WINDOW;
		size_t want = inwin < n ? inwin : n;
		shorter += inwin < n;
		CHECK_U64(g->time, 5000 + k);
		CHECK_U64(g->weight, 300 + k);
		CHECK(g->depth_ok);
		CHECK_INT(g->n, want);
		/* g->from[] is oldest first: record k - (want - 1) .. k. */
		for (size_t j = 0; j < g->n && j < want; j++) {
			uint64_t from = rec_from[k - (want - 1) + j];
			CHECK_U64(g->from[j], from);
			/* Oldest first: depth counts down to 0. */
			CHECK_INT(g->depth[j], want - 1 - j);
			CHECK_INT(g->kind[j], from == JNE ? HWT_BRANCH_COND
							  : HWT_BRANCH_RETURN);
		}
		/* inc rax; jne: 2 instructions to 0x400005; with the ret, 3. */
		CHECK_INT(g->nranges, want - 1);
		for (size_t j = 0; j < g->nranges && j + 1 < want; j++) {
			uint64_t from = rec_from[k - (want - 1) + j + 1];
			CHECK_U64(g->range_end[j], from + (from == JNE ? 2 : 1));
			CHECK_U64(g->range_insns[j], from == JNE ? 2 : 3);
		}
	}
	char want_summary[128];
	snprintf(want_summary, sizeof(want_summary), "virtual LBR: %zu of the "
		 "%d AUX samples have fewer than %u taken branches", shorter,
		 NRECORDS, n);
	if (shorter)
		CHECK(strstr(summary, want_summary) != NULL);
	else
		CHECK_STR(summary, "");
}

static void bts_windows(void)
{
	char dir[] = "/tmp/hwt-vlbr-bts-XXXXXX", path[128], code[128];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/s.data", dir);
	snprintf(code, sizeof(code), "%s/code.bin", dir);
	CHECK_INT(bts_capture_write_code(code), 0);
	CHECK_INT(write_capture(path, code), 0);
	check(path, 1);
	check(path, 8);
	check(path, 12);
	check(path, 64);
	unlink(path);
	unlink(code);
	rmdir(dir);
}

int main(void)
{
	RUN(bts_windows);
	return hwt_test_summary();
}
