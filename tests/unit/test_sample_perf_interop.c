/* An AUX sampling capture as hwtrace writes it (an intel_pt leader and a
 * cycles event with PERF_SAMPLE_AUX whose samples carry windows of the
 * quipper capture's cpu 3 stream) reads back in hwtrace with every sample,
 * its window and its sync point, and `perf script` reads it without error
 * and shows the same samples. The quipper capture has no binaries, so the
 * decoder can only sync: each window's sync point must be its first PSB
 * (found by scanning for the SDM's 16-byte pattern), and a window without
 * one must be reported as a no_sync gap with an empty stack. */
#include <sys/stat.h>
#include <unistd.h>

#include "core/perfdata/perfdata_format.h"
#include "harness.h"
#include "pt_psb_find.h"
#include "hwtrace/decode.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/sample.h"

#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define WIN 4096u
#define NSAMPLES 24

struct expect {
	uint64_t ip, time, period, size, pos;
	uint32_t tid, cpu;
};

static struct expect want[NSAMPLES];
static uint8_t *stream;
static uint64_t stream_len;
static uint64_t info[64];
static size_t ninfo;
static uint64_t pt_config;
static uint32_t pt_type;


static int load_quipper(void)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct hwt_pd_aux_queues *q = NULL;
	if (hwt_pd_reader_open(QUIPPER, &r) < 0)
		return -1;
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);
		if (a->attr.type >= PERF_TYPE_MAX) {
			pt_type = a->attr.type;
			pt_config = a->attr.config;
		}
	}
	while (hwt_pd_reader_next(r, &rec) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE_INFO && !ninfo) {
			ninfo = (rec.size - 16u) / 8;
			if (ninfo > 64)
				ninfo = 64;
			memcpy(info, (const uint8_t *)rec.data + 16, ninfo * 8);
		}
	}
	int err = hwt_pd_aux_queues_build(r, &q);
	for (size_t i = 0; err >= 0 && i < hwt_pd_aux_queues_count(q); i++) {
		const struct hwt_pd_aux_queue *aq = hwt_pd_aux_queues_get(q, i);
		if (aq->cpu != 3)
			continue;
		stream = malloc(aq->bytes);
		for (size_t j = 0; j < aq->nbuffers; j++) {
			hwt_pd_aux_buffer_read(r, &aq->buffers[j], stream + stream_len);
			stream_len += aq->buffers[j].aux.size;
		}
	}
	hwt_pd_aux_queues_free(q);
	hwt_pd_reader_free(r);
	return stream && ninfo ? 0 : -1;
}

static int write_capture(const char *path)
{
	struct hwt_pd_writer *w = NULL;
	if (hwt_pd_writer_open(path, &w) < 0)
		return -1;
	struct perf_event_attr pt, cyc;
	memset(&pt, 0, sizeof(pt));
	pt.size = sizeof(pt);
	pt.type = pt_type;
	pt.config = pt_config;
	pt.sample_period = 1;
	pt.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	pt.read_format = PERF_FORMAT_ID;
	pt.sample_id_all = 1;
	memset(&cyc, 0, sizeof(cyc));
	cyc.size = sizeof(cyc);
	cyc.type = PERF_TYPE_HARDWARE;
	cyc.config = PERF_COUNT_HW_CPU_CYCLES;
	cyc.sample_period = 100000;
	cyc.sample_type = pt.sample_type | PERF_SAMPLE_PERIOD | PERF_SAMPLE_AUX;
	cyc.read_format = PERF_FORMAT_ID;
	cyc.sample_id_all = 1;
	cyc.aux_sample_size = WIN;
	uint64_t id_pt = 11, id_cyc = 12;
	int err = hwt_pd_writer_add_attr(w, &pt, &id_pt, 1, "intel_pt//");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &cyc, &id_cyc, 1, "cycles");
	if (!err)
		err = hwt_pd_writer_auxtrace_info(w, HWT_AUXTRACE_INTEL_PT, info, ninfo);
	uint8_t rec[8 + 7 * 8 + WIN];
	for (int k = 0; k < NSAMPLES && !err; k++) {
		struct expect *e = &want[k];
		/* The first sample comes before a whole window was written,
		 * as the kernel gives less then. */
		e->pos = k == 0 ? 1000 : 1000 + (uint64_t)k * 5651;
		e->size = e->pos < WIN ? e->pos : WIN;
		e->ip = 0x400000 + (uint64_t)k * 0x10;
		e->time = 1000000 + (uint64_t)k * 1000;
		e->period = 100000;
		e->tid = 4242;
		e->cpu = 3;
		uint8_t *p = rec + 8;
		pd_put64(p, id_cyc), p += 8;
		pd_put64(p, e->ip), p += 8;
		pd_put32(p, 4242), pd_put32(p + 4, e->tid), p += 8;
		pd_put64(p, e->time), p += 8;
		pd_put32(p, e->cpu), pd_put32(p + 4, 0), p += 8;
		pd_put64(p, e->period), p += 8;
		pd_put64(p, e->size), p += 8;
		memcpy(p, stream + e->pos - e->size, e->size);
		p += e->size;
		size_t n = (size_t)(p - rec);
		pd_put32(rec, PERF_RECORD_SAMPLE);
		pd_put16(rec + 4, 2 /* PERF_RECORD_MISC_USER */);
		pd_put16(rec + 6, (uint16_t)n);
		err = hwt_pd_writer_record(w, rec);
	}
	if (!err)
		err = hwt_pd_writer_finished_round(w);
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

struct got {
	struct hwt_elem s[NSAMPLES + 1];
	size_t n, nbranches, nosync_gaps, unsynced_samples;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	if (e->type == HWT_ELEM_GAP && e->u.gap.reason == HWT_GAP_NO_SYNC)
		g->nosync_gaps++;
	if (e->type != HWT_ELEM_SAMPLE)
		return 0;
	if (g->n <= NSAMPLES)
		g->s[g->n] = *e;
	g->n++;
	g->nbranches += e->u.sample.nbranches;
	if (e->u.sample.sync == e->u.sample.window)
		g->unsynced_samples++;
	return 0;
}

static void hwtrace_reads_every_sample(const char *path)
{
	struct got g;
	memset(&g, 0, sizeof(g));
	struct hwt_elem_sink sink = {collect, &g};
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
	CHECK_INT(g.n, NSAMPLES);
	size_t with_psb = 0;
	for (size_t k = 0; k < NSAMPLES && k < g.n; k++) {
		const struct hwt_elem *e = &g.s[k];
		const struct expect *x = &want[k];
		CHECK_U64(e->u.sample.ip, x->ip);
		CHECK_U64(e->time, x->time);
		CHECK_INT(e->cpu, 3);
		CHECK_INT(e->tid, 4242);
		CHECK_U64(e->u.sample.period, 100000);
		CHECK_U64(e->u.sample.window, x->size);
		/* Where the window's first PSB is, from its start. */
		uint64_t at = pt_psb_find(stream, x->pos - x->size, x->pos) -
			      (x->pos - x->size);
		with_psb += at < x->size;
		CHECK_U64(e->u.sample.sync, at);
		/* No binaries: nothing decodes to a branch. */
		CHECK_INT(e->u.sample.nbranches, 0);
	}
	/* psb_period 3 in the capture's config: a PSB every 16 KiB, so some
	 * 4 KiB windows have one and most do not. */
	printf("%zu samples, %zu windows with a PSB\n", g.n, with_psb);
	CHECK(with_psb >= 2);
	CHECK(NSAMPLES - with_psb >= 2);
	CHECK_INT(g.unsynced_samples, NSAMPLES - with_psb);
	CHECK_INT(g.nosync_gaps, NSAMPLES - with_psb);
}

static void perf_script_shows_the_samples(const char *path)
{
	char cmd[1024], line[512];
	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' --itrace= -F event,tid,cpu,time,ip "
		 "--ns 2>&1", path);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	size_t n = 0, bad = 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned tid, cpu;
		unsigned long long sec, nsec, ip;
		char ev[64];
		if (sscanf(line, " %u [%u] %llu.%llu: %63s %llx", &tid, &cpu, &sec,
			   &nsec, ev, &ip) == 6 && n < NSAMPLES) {
			const struct expect *x = &want[n];
			if (tid != x->tid || cpu != x->cpu ||
			    sec * 1000000000ull + nsec != x->time ||
			    strcmp(ev, "cycles:") || ip != x->ip) {
				HWT_FAIL("perf script sample %zu: %s", n, line);
				bad++;
			}
			n++;
		} else {
			HWT_FAIL("perf script printed: %s", line);
			bad++;
		}
	}
	int status = pclose(p);
	CHECK_INT(status, 0);
	CHECK_INT(n, NSAMPLES);
	CHECK_INT(bad, 0);
}

static void sampling_capture_reads_back(void)
{
	if (load_quipper() < 0) {
		HWT_FAIL("cannot read the quipper capture %s", QUIPPER);
		return;
	}
	char dir[] = "/tmp/hwt-sample-XXXXXX", path[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	CHECK_INT(write_capture(path), 0);
	hwtrace_reads_every_sample(path);
	perf_script_shows_the_samples(path);
	if (!getenv("HWT_KEEP")) {
		unlink(path);
		rmdir(dir);
	} else {
		printf("kept %s\n", path);
	}
}

int main(void)
{
	RUN(sampling_capture_reads_back);
	free(stream);
	return hwt_test_summary();
}
