/* AUX sampling end to end on the kernel emulator: an intel_pt event as
 * group leader and a cycles event with PERF_SAMPLE_AUX in its group,
 * opened and read by the capture session. The emulated cycles event counts
 * trace bytes, so sample k is taken when k * period bytes were written and
 * must carry exactly the stream's bytes [pos - size, pos) with size the
 * aux_sample_size cut to what was written, in whole 8-byte words (as the
 * kernel aligns the payload). Then:
 *  - ptt streams with their code: each sample's branch stack equals the
 *    newest branches of decoding the stream from its start up to pos, for
 *    several periods and sizes; a window without a PSB gives no branches
 *    and no sync point;
 *  - the quipper capture's cpu 3 stream (no binaries): each window syncs at
 *    its first PSB (found by scanning for the SDM's PSB pattern) or reports
 *    that it has none. */
#include <poll.h>

#include "file_bytes.h"
#include "harness.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/sample.h"
#include "hwtrace/session.h"

#define PTT HWT_TESTDATA "/ptt/expected"
#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define PT_TYPE 8

struct recs {
	uint8_t **r;
	size_t n, cap;
};

static int on_record(void *ctx, const struct perf_event_header *h)
{
	struct recs *rs = ctx;
	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
	}
	rs->r[rs->n] = malloc(h->size);
	memcpy(rs->r[rs->n++], h, h->size);
	return 0;
}

static int on_aux(void *ctx, const struct hwt_pd_auxtrace *hdr, const void *d1,
		  uint64_t l1, const void *d2)
{
	(void)ctx, (void)hdr, (void)d1, (void)l1, (void)d2;
	HWT_FAIL("AUX sampling copied the AUX ring out");
	return 0;
}

static void recs_free(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->r[i]);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/* Records @data through the emulator; the sampling event's attribute as
 * the session opened it goes to @attr. */
static int capture(const uint8_t *data, size_t len, uint64_t period,
		   uint32_t size, struct recs *rs, struct perf_event_attr *attr)
{
	struct hwt_emu *emu = NULL;
	struct hwt_emu_opts eo;
	struct hwt_session *s = NULL;
	int cpus[1] = {0};
	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.head_in_buffer = true; /* Intel PT's driver */
	int err = hwt_emu_new(&eo, &emu);
	if (!err)
		err = hwt_emu_add_pmu(emu, "intel_pt", PT_TYPE);
	if (!err)
		err = hwt_emu_stream_aux(emu, 0, data, len, 1);
	struct hwt_session_opts so;
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.os = hwt_emu_os(emu);
	so.aux = true;
	so.aux_attr.size = sizeof(so.aux_attr);
	so.aux_attr.type = PT_TYPE;
	so.aux_attr.sample_period = 1;
	so.cpus = cpus;
	so.ncpus = 1;
	so.pid = -1;
	so.data_pages = 256;
	so.aux_pages = 16;
	so.aux_sample = true;
	so.sample_attr.size = sizeof(so.sample_attr);
	so.sample_attr.type = PERF_TYPE_HARDWARE;
	so.sample_attr.config = PERF_COUNT_HW_CPU_CYCLES;
	so.sample_attr.sample_period = period;
	so.sample_attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	so.sample_attr.aux_sample_size = size;
	so.sample_name = "cycles";
	so.sink = (struct hwt_capture_sink){rs, on_record, on_aux};
	if (!err)
		err = hwt_session_new(&so, &s);
	if (!err)
		err = hwt_session_open(s);
	for (int i = 0; !err && i < 20000; i++) {
		int r = hwt_session_poll(s, 10, NULL, 0);
		if (r < 0)
			err = r;
		if (r == 1)
			break;
	}
	const struct perf_event_attr *a;
	const uint64_t *ids;
	size_t nids;
	const char *name;
	if (!err && hwt_session_attr(s, 1, &a, &ids, &nids, &name) == 0)
		*attr = *a;
	int e2 = s ? hwt_session_stop(s) : 0;
	hwt_session_free(s);
	hwt_emu_free(emu);
	return err ? err : e2;
}

static const uint8_t psb[16] = {2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
				2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82};

static uint64_t first_psb(const uint8_t *d, uint64_t lo, uint64_t hi)
{
	for (uint64_t i = lo; i + 16 <= hi; i++)
		if (!memcmp(d + i, psb, 16))
			return i - lo;
	return hi - lo;
}

static uint64_t nsamples, nwith_branches, nbranches, nnosync;

/* Checks the samples of one capture: positions, payloads and, with a
 * window decoder, branch stacks against @full's decode to each position.
 * Returns the number of samples checked. */
static size_t check_samples(const char *what, const uint8_t *data, size_t len,
			    uint64_t period, uint32_t size, struct recs *rs,
			    const struct perf_event_attr *attr,
			    struct hwt_window_decoder *full,
			    struct hwt_window_decoder *win)
{
	size_t want = len / period;
	if (rs->n != want) {
		HWT_FAIL("%s period %" PRIu64 " size %u: %zu samples, want %zu",
			 what, period, size, rs->n, want);
		return 0;
	}
	for (size_t k = 0; k < rs->n; k++) {
		struct hwt_aux_sample s;
		uint64_t pos = (k + 1) * period;
		uint64_t sz = (size < pos ? size : pos) & ~7ull;
		if (hwt_aux_sample_parse(rs->r[k], attr, &s) < 0) {
			HWT_FAIL("%s: sample %zu does not parse", what, k);
			continue;
		}
		nsamples++;
		if (s.period != period || s.aux_size != sz ||
		    (sz && memcmp(s.aux, data + pos - sz, sz))) {
			HWT_FAIL("%s period %" PRIu64 " size %u: sample %zu has %" PRIu64
				 " bytes (period %" PRIu64 "), want the %" PRIu64
				 " bytes before %" PRIu64, what, period, size, k,
				 s.aux_size, s.period, sz, pos);
			continue;
		}
		struct hwt_window_result wr, fr;
		if (hwt_window_decode(win, s.aux, s.aux_size, pos - sz, -1, -1, &wr) < 0) {
			HWT_FAIL("%s: window decode failed", what);
			continue;
		}
		uint64_t at = first_psb(data, pos - sz, pos);
		if (at == sz) {
			nnosync++;
			if (wr.synced || wr.nbranches)
				HWT_FAIL("%s: window [%" PRIu64 ",%" PRIu64 ") has no "
					 "PSB but synced with %zu branches", what,
					 pos - sz, pos, wr.nbranches);
			continue;
		}
		if (wr.synced && wr.sync_offset != at)
			HWT_FAIL("%s: window [%" PRIu64 ",%" PRIu64 ") synced at %"
				 PRIu64 ", first PSB at %" PRIu64, what, pos - sz,
				 pos, wr.sync_offset, at);
		if (!full)
			continue;
		size_t n = wr.nbranches;
		struct hwt_branch_entry *copy = malloc((n ? n : 1) * sizeof(*copy));
		if (n)
			memcpy(copy, wr.branches, n * sizeof(*copy));
		if (hwt_window_decode(full, data, pos, 0, -1, -1, &fr) < 0 ||
		    fr.nbranches < n) {
			HWT_FAIL("%s: whole decode to %" PRIu64 " has fewer branches "
				 "than the window", what, pos);
			free(copy);
			continue;
		}
		nwith_branches += n > 0;
		for (size_t i = 0; i < n; i++) {
			nbranches++;
			if (copy[i].from != fr.branches[i].from ||
			    copy[i].to != fr.branches[i].to ||
			    copy[i].kind != fr.branches[i].kind) {
				HWT_FAIL("%s: sample at %" PRIu64 " branch %zu: 0x%"
					 PRIx64 "->0x%" PRIx64 ", whole decode 0x%"
					 PRIx64 "->0x%" PRIx64, what, pos, i,
					 copy[i].from, copy[i].to,
					 fr.branches[i].from, fr.branches[i].to);
				break;
			}
		}
		free(copy);
	}
	return rs->n;
}

static const struct {
	const char *name;
	uint64_t org;
} streams[] = {
	/* ptt streams with several PSBs and branches, their org lines. */
	{"ptxed-resync-psb-bad_status-psb", 0x100000},
	{"psb-tnt-psb", 0x100000},
	{"psb-psb", 0x100000},
	{"tsc-cyc_calibrate", 0x100000},
	{"dump-all-packets", 0x100000},
	{"ptet", 0x100000},
	{"ptet-vmexit-vmentry", 0x100000},
	{"psb_nofup-psb", 0x100000},
};

static uint64_t ptt_org(const char *name)
{
	char path[512], line[256];
	uint64_t org = 0;
	snprintf(path, sizeof(path), HWT_TESTDATA "/ptt/src/%s.ptt", name);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "org ", 4) && !org)
			org = strtoull(line + 4, NULL, 0);
	if (f)
		fclose(f);
	return org;
}

static void ptt_samples_are_tails_of_the_whole_decode(void)
{
	static const uint64_t periods[] = {8, 16, 24};
	static const uint32_t sizes[] = {16, 32, 48, 64, 4096};
	const struct hwt_backend *b = hwt_backend_find("intel_pt");
	CHECK(b != NULL);
	for (size_t i = 0; i < sizeof(streams) / sizeof(*streams); i++) {
		char pt[512], bin[512];
		size_t len = 0, blen = 0;
		snprintf(pt, sizeof(pt), PTT "/%s.pt", streams[i].name);
		snprintf(bin, sizeof(bin), PTT "/%s.bin", streams[i].name);
		uint8_t *data = hwt_test_slurp(pt, &len), *code = hwt_test_slurp(bin, &blen);
		uint64_t org = ptt_org(streams[i].name);
		CHECK(data && code && org != 0);
		if (!data || !code) {
			free(data);
			free(code);
			continue;
		}
		struct hwt_image *image = hwt_image_new();
		CHECK_INT(hwt_image_add_file(image, HWT_PID_ANY, org, blen, bin, 0), 0);
		struct hwt_window_decoder *full = NULL, *win = NULL;
		CHECK_INT(hwt_window_decoder_new(b, NULL, image, NULL, &full), 0);
		CHECK_INT(hwt_window_decoder_new(b, NULL, image, NULL, &win), 0);
		for (size_t p = 0; p < sizeof(periods) / sizeof(*periods); p++) {
			for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
				struct recs rs = {0};
				struct perf_event_attr attr;
				memset(&attr, 0, sizeof(attr));
				int err = capture(data, len, periods[p], sizes[z], &rs,
						  &attr);
				if (err < 0)
					HWT_FAIL("%s: capture failed: %s",
						 streams[i].name, hwt_errmsg());
				else
					check_samples(streams[i].name, data, len,
						      periods[p], sizes[z], &rs, &attr,
						      full, win);
				recs_free(&rs);
			}
		}
		hwt_window_decoder_free(full);
		hwt_window_decoder_free(win);
		hwt_image_free(image);
		free(data);
		free(code);
	}
	fprintf(stderr, "ptt: %" PRIu64 " samples, %" PRIu64 " without a PSB, %"
		PRIu64 " with branches, %" PRIu64 " branches compared\n",
		nsamples, nnosync, nwith_branches, nbranches);
	CHECK(nwith_branches >= 50);
	CHECK(nnosync >= 50);
}

static void quipper_windows_sync_at_their_first_psb(void)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_aux_queues *q = NULL;
	uint8_t *data = NULL;
	size_t len = 0;
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	CHECK_INT(hwt_pd_aux_queues_build(r, &q), 0);
	for (size_t i = 0; q && i < hwt_pd_aux_queues_count(q); i++) {
		const struct hwt_pd_aux_queue *aq = hwt_pd_aux_queues_get(q, i);
		if (aq->cpu != 3)
			continue;
		data = malloc(aq->bytes);
		for (size_t j = 0; j < aq->nbuffers; j++) {
			hwt_pd_aux_buffer_read(r, &aq->buffers[j], data + len);
			len += aq->buffers[j].aux.size;
		}
	}
	hwt_pd_aux_queues_free(q);
	hwt_pd_reader_free(r);
	CHECK_INT(len, 137728);
	if (!data)
		return;
	const struct hwt_backend *b = hwt_backend_find("intel_pt");
	struct hwt_window_decoder *win = NULL;
	CHECK_INT(hwt_window_decoder_new(b, NULL, NULL, NULL, &win), 0);
	uint64_t before = nsamples, nosync_before = nnosync;
	static const struct { uint64_t period; uint32_t size; } runs[] = {
		{4096, 4096}, {3000, 8192}, {10007, 20000},
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(*runs); i++) {
		struct recs rs = {0};
		struct perf_event_attr attr;
		memset(&attr, 0, sizeof(attr));
		int err = capture(data, len, runs[i].period, runs[i].size, &rs, &attr);
		if (err < 0)
			HWT_FAIL("quipper: capture failed: %s", hwt_errmsg());
		else
			check_samples("quipper", data, len, runs[i].period,
				      runs[i].size, &rs, &attr, NULL, win);
		recs_free(&rs);
	}
	fprintf(stderr, "quipper: %" PRIu64 " samples, %" PRIu64 " without a PSB\n",
		nsamples - before, nnosync - nosync_before);
	CHECK(nsamples - before == 137728 / 4096 + 137728 / 3000 + 137728 / 10007);
	CHECK(nnosync - nosync_before >= 10);
	hwt_window_decoder_free(win);
	free(data);
}

int main(void)
{
	RUN(ptt_samples_are_tails_of_the_whole_decode);
	RUN(quipper_windows_sync_at_their_first_psb);
	return hwt_test_summary();
}
