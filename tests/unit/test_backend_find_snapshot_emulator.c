/* Each backend's find_snapshot in a snapshot-mode capture on the kernel
 * emulator: intel_pt and intel_bts report aux_head as an offset in the
 * buffer, CoreSight as an ever-increasing count. Every snapshot is checked
 * byte for byte against the source bytes the emulated trace unit wrote. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "discard_sink.h"
#include "hwtrace/backend.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define PMU_TYPE 42
#define AUX_PAGES 8
#define AUX_SIZE (AUX_PAGES * 4096u)

struct snap_sink {
	uint8_t *aux;
	uint64_t len;
	uint64_t sizes[8];
	size_t nsnaps;
};

static int sink_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		    const void *d1, uint64_t l1, const void *d2)
{
	struct snap_sink *m = ctx;

	m->aux = realloc(m->aux, m->len + hdr->size);
	memcpy(m->aux + m->len, d1, l1);
	if (d2)
		memcpy(m->aux + m->len + l1, d2, hdr->size - l1);
	m->len += hdr->size;
	if (m->nsnaps < 8)
		m->sizes[m->nsnaps++] = hdr->size;
	return 0;
}

/* Trace-looking bytes that are never 0, so every written byte shows. */
static uint8_t *pattern(size_t len, unsigned seed)
{
	uint8_t *p = malloc(len);
	uint32_t x = seed * 2654435761u + 7;

	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16) | 1;
	}
	return p;
}

struct rig {
	struct hwt_emu *emu;
	struct hwt_session *s;
	struct snap_sink m;
	struct hwt_backend be;
	struct hwt_record_ops ops;
};

static void rig_open(struct rig *r, const char *backend, bool head_in_buffer)
{
	static const int cpu0[] = {0};
	struct hwt_emu_opts eo = {.size = sizeof(eo), .rate = 50000, .burst = 1200,
				  .head_in_buffer = head_in_buffer};
	const struct hwt_backend *real = hwt_backend_find(backend);
	struct hwt_session_opts o;

	memset(r, 0, sizeof(*r));
	CHECK(real && real->record && real->record->find_snapshot);
	if (!real || !real->record)
		return;
	/* The real backend's find_snapshot, on a fake PMU type. The emulator
	 * writes every backend's bytes as one stream across the end of the
	 * buffer; it does not leave intel_bts's unwritten tail, so the
	 * alignment that drops that tail is off here. */
	r->ops = *real->record;
	r->ops.alignment = 0;
	r->be = *real;
	r->be.record = &r->ops;
	CHECK_INT(hwt_emu_new(&eo, &r->emu), 0);
	CHECK_INT(hwt_emu_add_pmu(r->emu, backend, PMU_TYPE), 0);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.os = hwt_emu_os(r->emu);
	o.aux = true;
	o.aux_attr.type = PMU_TYPE;
	o.aux_attr.size = sizeof(o.aux_attr);
	o.aux_attr.aux_watermark = 4096;
	o.backend = &r->be;
	o.cpus = cpu0;
	o.ncpus = 1;
	o.pid = -1;
	o.data_pages = 4;
	o.aux_pages = AUX_PAGES;
	o.snapshot = true;
	o.sink = (struct hwt_capture_sink){&r->m, hwt_test_discard_record, sink_aux};
	CHECK_INT(hwt_session_new(&o, &r->s), 0);
}

static void rig_start(struct rig *r)
{
	if (hwt_session_open(r->s) < 0)
		HWT_FAIL("open: %s", hwt_errmsg());
}

static void rig_close(struct rig *r, struct hwt_capture_stats *cs)
{
	CHECK_INT(hwt_session_stop(r->s), 0);
	CHECK_INT(hwt_session_stats(r->s, 0, cs), 0);
	hwt_session_free(r->s);
	hwt_emu_free(r->emu);
	free(r->m.aux);
}

/* Waits until the trace unit wrote at least @upto bytes. */
static void wait_written(struct rig *r, uint64_t upto)
{
	struct hwt_emu_stats st;

	for (int i = 0; i < 20000; i++) {
		hwt_emu_stream_stats(r->emu, 0, &st);
		if (st.written >= upto)
			return;
		usleep(500);
	}
	HWT_FAIL("the producer did not write %llu bytes", (unsigned long long)upto);
}

/* The stream position where snapshot @i ends: found by its last 32 bytes
 * in the (never repeating) source, at or after @min_end; 0 when absent. */
static uint64_t snapshot_end(struct rig *r, size_t i, const uint8_t *src,
			     uint64_t total, uint64_t min_end, uint64_t *off)
{
	const uint8_t *tail;
	uint64_t len;

	*off = 0;
	if (i >= r->m.nsnaps)
		return 0;
	for (size_t k = 0; k < i; k++)
		*off += r->m.sizes[k];
	len = r->m.sizes[i];
	if (len < 32)
		return 0;
	tail = r->m.aux + *off + len - 32;
	for (uint64_t e = min_end > 32 ? min_end : 32; e <= total; e++)
		if (!memcmp(src + e - 32, tail, 32))
			return e;
	return 0;
}

/* Checks snapshot @i: it ends at a stream position E after @prev_end and
 * is the @want(E) source bytes before E. Returns E. */
static uint64_t check_snapshot(struct rig *r, size_t i, const uint8_t *src,
			       uint64_t total, uint64_t prev_end, bool whole)
{
	uint64_t off, e = snapshot_end(r, i, src, total, prev_end + 1, &off);
	uint64_t want;

	CHECK(e > 0);
	if (!e)
		return prev_end;
	want = whole ? AUX_SIZE : e - prev_end;
	CHECK_U64(r->m.sizes[i], want);
	if (r->m.sizes[i] == want)
		CHECK(memcmp(r->m.aux + off, src + e - want, want) == 0);
	return e;
}

/* One capture, four snapshots: two within the first lap (the second only
 * what came after the first), one after several laps (the whole buffer,
 * ending at the head), and one less than a lap later, when the buffer past
 * the head holds the previous lap: old contents that look like trace, so
 * again the whole buffer, every byte in stream order. The trace unit
 * writes 50 KB/s so the test sees
 * where each snapshot falls; the checks locate it in the source. */
static void run_backend(const char *backend, bool head_in_buffer)
{
	const uint64_t total = 150000;
	uint8_t *src = pattern(total, 7);
	struct hwt_capture_stats cs;
	uint64_t e1, e2, e3, e4;
	struct rig r;

	rig_open(&r, backend, head_in_buffer);
	CHECK_INT(hwt_emu_stream_aux(r.emu, 0, src, total, 1), 0);
	rig_start(&r);
	wait_written(&r, 2400);
	CHECK_INT(hwt_session_snapshot(r.s), 0);
	wait_written(&r, 7200);
	CHECK_INT(hwt_session_snapshot(r.s), 0);
	wait_written(&r, 70000);
	CHECK_INT(hwt_session_snapshot(r.s), 0);
	e1 = check_snapshot(&r, 0, src, total, 0, false);
	e2 = check_snapshot(&r, 1, src, total, e1, false);
	e3 = check_snapshot(&r, 2, src, total, e2, true);
	/* Still in the first lap, and outside the wrap detection windows. */
	CHECK(e2 < AUX_SIZE - 4096);
	wait_written(&r, e3 + 2400);
	CHECK_INT(hwt_session_snapshot(r.s), 0);
	e4 = check_snapshot(&r, 3, src, total, e3, true);
	CHECK(e4 - e3 < AUX_SIZE);
	rig_close(&r, &cs);
	CHECK_U64(cs.snapshots, 4);
	CHECK_U64(cs.snapshot_wraps, 2);
	free(src);
}

static void test_intel_pt(void)
{
	run_backend("intel_pt", true);
}

/* A head reported as a running count (not how intel_pt's driver does it)
 * reduces to the same offsets. */
static void test_intel_pt_running_head(void)
{
	run_backend("intel_pt", false);
}

static void test_intel_bts(void)
{
	run_backend("intel_bts", true);
}

static void test_cs_etm(void)
{
	run_backend("cs_etm", false);
}

int main(void)
{
	RUN(test_intel_pt);
	RUN(test_intel_pt_running_head);
	RUN(test_intel_bts);
	RUN(test_cs_etm);
	return hwt_test_summary();
}
