/* The capture path against the kernel emulator: every ring case of the
 * kernel's AUX and data rings, with each captured byte checked against the
 * source byte it came from. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define PMU_TYPE 42

struct chunk {
	uint64_t offset, size;
	int wrapped;
};

/* An in-memory capture sink. */
struct mem_sink {
	uint8_t *aux;
	uint64_t aux_len;
	struct chunk chunks[4096];
	size_t nchunks;
	uint64_t types[128];
	uint8_t *recs;
	size_t recs_len;
	bool offsets_contiguous;
	uint64_t next_offset;
	uint64_t aux_flags_truncated;
	uint32_t last_cpu, last_tid;
	int stall_once_ms;  /* a slow writer, once */
	/* PERF_RECORD_AUX offset, size, flags, in order */
	uint64_t aux_recs[4096][3];
	size_t naux_recs;
};

static int sink_record(void *ctx, const struct perf_event_header *h)
{
	struct mem_sink *m = ctx;

	if (h->type < 128)
		m->types[h->type]++;
	if (h->type == PERF_RECORD_AUX &&
	    (((const uint64_t *)(h + 1))[2] & HWT_AUX_FLAG_TRUNCATED))
		m->aux_flags_truncated++;
	if (h->type == PERF_RECORD_AUX && m->naux_recs < 4096)
		memcpy(m->aux_recs[m->naux_recs++], h + 1, 24);
	if (h->type == PERF_RECORD_COMM) {
		m->recs = realloc(m->recs, m->recs_len + h->size);
		memcpy(m->recs + m->recs_len, h, h->size);
		m->recs_len += h->size;
	}
	return 0;
}

static int sink_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		    const void *d1, uint64_t l1, const void *d2)
{
	struct mem_sink *m = ctx;

	if (m->stall_once_ms) {
		usleep((useconds_t)m->stall_once_ms * 1000);
		m->stall_once_ms = 0;
	}
	if (hdr->offset != m->next_offset)
		m->offsets_contiguous = false;
	m->next_offset = hdr->offset + hdr->size;
	m->last_cpu = hdr->cpu;
	m->last_tid = hdr->tid;
	m->aux = realloc(m->aux, m->aux_len + hdr->size);
	memcpy(m->aux + m->aux_len, d1, l1);
	if (d2)
		memcpy(m->aux + m->aux_len + l1, d2, hdr->size - l1);
	if (m->nchunks < 4096)
		m->chunks[m->nchunks++] = (struct chunk){hdr->offset, hdr->size, d2 != NULL};
	m->aux_len += hdr->size;
	return 0;
}

static void sink_init(struct mem_sink *m)
{
	memset(m, 0, sizeof(*m));
	m->offsets_contiguous = true;
}

static void sink_fini(struct mem_sink *m)
{
	free(m->aux);
	free(m->recs);
}

static uint8_t *pattern(size_t len, unsigned seed)
{
	uint8_t *p = malloc(len);
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16) | 1; /* never 0: see find_in_buffer */
	}
	return p;
}

static struct hwt_emu *emu_make_opts(uint64_t rate, uint64_t burst,
				      bool in_buffer, bool paced)
{
	struct hwt_emu_opts o = {.size = sizeof(o), .rate = rate, .burst = burst,
				 .head_in_buffer = in_buffer, .paced = paced};
	struct hwt_emu *emu = NULL;

	CHECK_INT(hwt_emu_new(&o, &emu), 0);
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_pt", PMU_TYPE), 0);
	return emu;
}

/* An emulator whose losses depend on how fast the reader is scheduled. */
static struct hwt_emu *emu_make(uint64_t rate, uint64_t burst, bool in_buffer)
{
	return emu_make_opts(rate, burst, in_buffer, false);
}

/* An emulator that waits for the reader: for tests of layout, whose
 * result must not depend on the machine's load. */
static struct hwt_emu *emu_make_paced(uint64_t burst)
{
	return emu_make_opts(0, burst, false, true);
}

/* Options of an AUX session on the emulated PMU, read into m. */
static void session_opts(struct hwt_session_opts *o, struct hwt_emu *emu,
			 struct mem_sink *m, uint32_t data_pages,
			 uint32_t aux_pages)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->os = hwt_emu_os(emu);
	o->aux = true;
	o->aux_attr.type = PMU_TYPE;
	o->aux_attr.size = sizeof(o->aux_attr);
	o->data_pages = data_pages;
	o->aux_pages = aux_pages;
	o->sink = (struct hwt_capture_sink){m, sink_record, sink_aux};
}

static struct hwt_session *session_make(struct hwt_emu *emu,
					struct mem_sink *m, uint32_t data_pages,
					uint32_t aux_pages, bool snapshot,
					const struct hwt_backend *be)
{
	static const int cpu0[] = {0};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;

	session_opts(&o, emu, m, data_pages, aux_pages);
	o.aux_attr.aux_watermark = 4096;
	o.backend = be;
	o.cpus = cpu0;
	o.ncpus = 1;
	o.pid = -1;
	o.snapshot = snapshot;
	CHECK_INT(hwt_session_new(&o, &s), 0);
	if (hwt_session_open(s) < 0)
		HWT_FAIL("open: %s", hwt_errmsg());
	return s;
}

static void run_to_end(struct hwt_session *s)
{
	int ret, guard = 0;

	while ((ret = hwt_session_poll(s, 1, NULL, 0)) == 0 && guard++ < 200000)
		;
	CHECK_INT(ret, 1);
	CHECK_INT(hwt_session_stop(s), 0);
}

static void wait_finished(struct hwt_emu *emu)
{
	struct hwt_emu_stats st;

	for (int i = 0; i < 20000; i++) {
		hwt_emu_stream_stats(emu, 0, &st);
		if (st.finished)
			return;
		usleep(500);
	}
	HWT_FAIL("the producer did not finish");
}

/* Streams src through a full-mode session of data_pages and aux_pages
 * pages on an initialised sink and reads it to its end; cs and es, when
 * given, receive the session's and the emulator's counters. */
static struct hwt_session *capture_all(struct hwt_emu *emu, struct mem_sink *m,
				       const uint8_t *src, uint64_t total,
				       uint32_t data_pages, uint32_t aux_pages,
				       struct hwt_capture_stats *cs,
				       struct hwt_emu_stats *es)
{
	struct hwt_session *s;

	CHECK_INT(hwt_emu_stream_aux(emu, 0, src, total, 1), 0);
	s = session_make(emu, m, data_pages, aux_pages, false, NULL);
	run_to_end(s);
	if (cs)
		CHECK_INT(hwt_session_stats(s, 0, cs), 0);
	if (es)
		CHECK_INT(hwt_emu_stream_stats(emu, 0, es), 0);
	return s;
}

/* Streams src through a 4+4-page overwrite session on an initialised sink,
 * waits for the producer to finish and takes one snapshot. */
static struct hwt_session *snapshot_once(struct hwt_emu *emu,
					 struct mem_sink *m, const uint8_t *src,
					 uint64_t total,
					 const struct hwt_backend *be,
					 struct hwt_capture_stats *cs)
{
	struct hwt_session *s;

	CHECK_INT(hwt_emu_stream_aux(emu, 0, src, total, 1), 0);
	s = session_make(emu, m, 4, 4, true, be);
	wait_finished(emu);
	CHECK_INT(hwt_session_snapshot(s), 0);
	CHECK_INT(hwt_session_stop(s), 0);
	CHECK_INT(hwt_session_stats(s, 0, cs), 0);
	return s;
}

/* Frees what a test made; src may be NULL. */
static void teardown(struct hwt_session *s, struct hwt_emu *emu,
		     struct mem_sink *m, uint8_t *src)
{
	hwt_session_free(s);
	hwt_emu_free(emu);
	sink_fini(m);
	free(src);
}

/* Every captured byte is the source byte at the position the emulator's
 * segment map gives for its AUX stream position. */
static void check_bytes_against_source(struct hwt_emu *emu,
				       const struct mem_sink *m,
				       const uint8_t *src)
{
	const struct hwt_emu_segment *segs;
	size_t nsegs, bad = 0, k = 0;
	uint64_t covered = 0;

	CHECK_INT(hwt_emu_stream_segments(emu, 0, &segs, &nsegs), 0);
	for (size_t c = 0; c < m->nchunks; c++) {
		const struct chunk *ch = &m->chunks[c];
		for (uint64_t i = 0; i < ch->size; i++) {
			uint64_t pos = ch->offset + i;
			while (k < nsegs && segs[k].aux_pos + segs[k].len <= pos)
				k++;
			if (k == nsegs || pos < segs[k].aux_pos) {
				bad++;
				continue;
			}
			if (m->aux[covered + i] !=
			    src[segs[k].src_pos + (pos - segs[k].aux_pos)])
				bad++;
		}
		covered += ch->size;
	}
	CHECK_U64(covered, m->aux_len);
	CHECK_U64(bad, 0);
}

/* A source of exactly three buffers lands its last byte on the end of the
 * ring; with a producer that waits for the reader nothing is lost. */
static void test_full_mode_exact_wrap_loses_nothing(void)
{
	const uint64_t size = 4 * 4096, total = 3 * size;
	uint8_t *src = pattern(total, 1);
	struct hwt_emu *emu = emu_make_paced(1024);
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;
	size_t wraps = 0, ends = 0;

	sink_init(&m);
	s = capture_all(emu, &m, src, total, 8, 4, &cs, &es);
	CHECK_U64(es.produced, total);
	CHECK_U64(es.dropped, 0);
	CHECK_U64(cs.aux_bytes, total);
	CHECK_U64(m.aux_len, total);
	CHECK(m.aux_len == total && memcmp(m.aux, src, total) == 0);
	CHECK(m.offsets_contiguous);
	CHECK_U64(m.next_offset, total);
	/* 1024-byte bursts: 48 PERF_RECORD_AUX of 1024 bytes each. */
	CHECK_U64(es.aux_records, total / 1024);
	CHECK_U64(cs.aux_records, total / 1024);
	CHECK_U64(cs.aux_reported, total);
	CHECK_U64(cs.truncated, 0);
	CHECK_U64(cs.unmatched, 0);
	CHECK_U64(m.types[PERF_RECORD_ITRACE_START], 1);
	/* The last chunk ends exactly on the ring's end, the third time
	 * round; no chunk is longer than the ring. */
	for (size_t i = 0; i < m.nchunks; i++) {
		wraps += m.chunks[i].size > size;
		ends += m.chunks[i].offset + m.chunks[i].size == total;
	}
	CHECK_U64(wraps, 0);
	CHECK_U64(ends, 1);
	check_bytes_against_source(emu, &m, src);
	teardown(s, emu, &m, src);
}

/* 1000-byte writes into a 16 KiB ring: the bytes around the end come out
 * as one chunk in two spans, handed out in place. */
static void test_full_mode_chunk_straddling_the_end(void)
{
	const uint64_t size = 4 * 4096, total = 5 * 1000 * 10;
	uint8_t *src = pattern(total, 7);
	struct hwt_emu *emu = emu_make_paced(1000);
	struct mem_sink m;
	struct hwt_session *s;
	size_t wraps = 0;

	sink_init(&m);
	s = capture_all(emu, &m, src, total, 8, 4, NULL, NULL);
	CHECK_U64(m.aux_len, total);
	CHECK(m.aux_len == total && memcmp(m.aux, src, total) == 0);
	for (size_t i = 0; i < m.nchunks; i++)
		wraps += m.chunks[i].wrapped;
	/* 50000 bytes cross the end of a 16384-byte ring 3 times. */
	CHECK_U64(wraps, 3);
	(void)size;
	teardown(s, emu, &m, src);
}

/* Sideband records of 56 bytes in a one-page data ring: 4096 is not a
 * multiple of 56, so records straddle the end and come from the bounce
 * buffer, intact and in order. */
static void test_data_records_straddling_the_end_arrive_intact(void)
{
	const int n = 300;
	struct hwt_emu *emu = emu_make_paced(512);
	uint8_t *src = pattern(64 * 1024, 2);
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;
	int bad = 0;

	sink_init(&m);
	for (int i = 0; i < n; i++) {
		uint8_t rec[56];
		struct perf_event_header h = {PERF_RECORD_COMM, 0, sizeof(rec)};
		memset(rec, 0, sizeof(rec));
		memcpy(rec, &h, sizeof(h));
		for (int k = 8; k < 56; k++)
			rec[k] = (uint8_t)(i + k);
		CHECK_INT(hwt_emu_stream_record(emu, 0, rec), 0);
		CHECK_INT(hwt_emu_stream_aux(emu, 0, src + i * 200, 200, 1), 0);
	}
	s = session_make(emu, &m, 1, 4, false, NULL);
	run_to_end(s);
	CHECK_INT(hwt_session_stats(s, 0, &cs), 0);
	CHECK_U64(m.types[PERF_RECORD_COMM], n);
	CHECK_U64(cs.lost_events, 0);
	CHECK_U64(m.recs_len, (uint64_t)n * 56);
	for (int i = 0; i < n && m.recs_len == (uint64_t)n * 56; i++)
		for (int k = 8; k < 56; k++)
			bad += m.recs[i * 56 + k] != (uint8_t)(i + k);
	CHECK_INT(bad, 0);
	CHECK_U64(m.aux_len, (uint64_t)n * 200);
	CHECK(m.aux_len == (uint64_t)n * 200 && memcmp(m.aux, src, n * 200) == 0);
	teardown(s, emu, &m, src);
}

/* A stream without trace bytes: no AUX record, no zero-sized AUXTRACE. */
static void test_zero_length_stream_gives_no_aux_data(void)
{
	struct hwt_emu *emu = emu_make(0, 0, false);
	uint8_t rec[16] = {0};
	struct perf_event_header h = {PERF_RECORD_COMM, 0, sizeof(rec)};
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;

	sink_init(&m);
	memcpy(rec, &h, sizeof(h));
	CHECK_INT(hwt_emu_stream_aux(emu, 0, rec, 0, 1), 0);
	CHECK_INT(hwt_emu_stream_record(emu, 0, rec), 0);
	s = session_make(emu, &m, 4, 2, false, NULL);
	run_to_end(s);
	CHECK_INT(hwt_session_stats(s, 0, &cs), 0);
	CHECK_U64(cs.aux_bytes, 0);
	CHECK_U64(cs.aux_chunks, 0);
	CHECK_U64(m.nchunks, 0);
	CHECK_U64(cs.aux_records, 0);
	CHECK_U64(m.types[PERF_RECORD_COMM], 1);
	teardown(s, emu, &m, NULL);
}

/* A producer far faster than the reader fills the buffer: the kernel
 * truncates, disables, the reader re-enables. Captured bytes + dropped
 * bytes == produced bytes exactly, and each captured byte is its source
 * byte. */
static void test_full_buffer_back_pressure_accounts_every_byte(void)
{
	const uint64_t total = 8u << 20;
	uint8_t *src = pattern(total, 3);
	struct hwt_emu *emu = emu_make(0, 4096, false);
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;

	sink_init(&m);
	s = capture_all(emu, &m, src, total, 16, 2, &cs, &es);
	CHECK_U64(es.produced, total);
	CHECK_U64(cs.aux_bytes + es.dropped, total);
	CHECK_U64(cs.aux_bytes, es.written);
	CHECK(es.truncations > 0);
	CHECK_U64(cs.truncated, es.truncations);
	CHECK_U64(m.aux_flags_truncated, es.truncations);
	CHECK(cs.reenables > 0);
	/* One enable per disable, none where nothing was lost (the last
	 * disable may come after the reader's last enable). A truncating
	 * write that lands between the reader's look at the data ring and
	 * its look at the AUX ring is undone for the full ring, and its
	 * record, read next, asks for one more enable: a no-op, which the
	 * kernel's state cannot rule out (it disables after the record),
	 * and at most one per truncation. */
	CHECK(es.idle_enables <= es.truncations);
	CHECK(cs.reenables - es.idle_enables <=
	      es.truncations + es.full_disables);
	CHECK(cs.reenables - es.idle_enables + 1 >=
	      es.truncations + es.full_disables);
	CHECK_U64(cs.unmatched, 0);
	CHECK(m.offsets_contiguous);
	check_bytes_against_source(emu, &m, src);
	fprintf(stderr, "  back-pressure: %llu captured, %llu dropped, %llu "
		"truncations, %llu re-enables (%llu of an enabled event)\n",
		(unsigned long long)cs.aux_bytes, (unsigned long long)es.dropped,
		(unsigned long long)es.truncations,
		(unsigned long long)cs.reenables,
		(unsigned long long)es.idle_enables);
	teardown(s, emu, &m, src);
}

/* A write that finds no room disables the event without any record (as
 * perf_aux_output_begin does). Each write here fills the ring (8191
 * bytes, CIRC_SPACE's most) and the writer stalls 30 ms on the first one,
 * so the next write finds no room. The reader, having found the ring
 * full, enables the event again once it emptied it, and the capture goes
 * on past the first buffer's worth. */
static void test_silent_disable_on_a_full_ring_is_undone(void)
{
	const uint64_t size = 2 * 4096, total = 40 * (size - 1);
	uint8_t *src = pattern(total, 9);
	struct hwt_emu *emu = emu_make(2u << 20, size - 1, false);
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;

	sink_init(&m);
	m.stall_once_ms = 30;
	s = capture_all(emu, &m, src, total, 4, 2, &cs, &es);
	CHECK_U64(es.produced, total);
	CHECK(es.full_disables >= 1);
	CHECK(cs.reenables >= 1);
	CHECK(cs.aux_bytes > size);
	CHECK_U64(cs.aux_bytes, es.written);
	CHECK_U64(cs.aux_bytes + es.dropped, total);
	CHECK_U64(cs.truncated, es.truncations);
	check_bytes_against_source(emu, &m, src);
	fprintf(stderr, "  %llu silent disables, %llu truncations, %llu "
		"re-enables, %llu of %llu bytes captured\n",
		(unsigned long long)es.full_disables,
		(unsigned long long)es.truncations,
		(unsigned long long)cs.reenables,
		(unsigned long long)cs.aux_bytes, (unsigned long long)total);
	teardown(s, emu, &m, src);
}

/* A CoreSight sink's driver after lost trace (TMC ETR/ETF): a write that
 * does not fit keeps its newest whole 16-byte frames, flagged TRUNCATED,
 * and a write after a loss starts with the barrier packet (four
 * 0x7fffffff frame syncs) over its first 16 bytes. Every other captured
 * byte is the source byte the emulator's map gives for it. */
static void test_cs_sink_writes_a_barrier_after_each_loss(void)
{
	static const uint8_t barrier[16] = {
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
	};
	const uint64_t total = 2u << 20;
	uint8_t *src = pattern(total, 11);
	struct hwt_emu_opts o = {.size = sizeof(o), .burst = 3000};
	struct hwt_emu *emu = NULL;
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;
	const struct hwt_emu_segment *segs;
	size_t nsegs, with_barrier = 0, bad = 0;
	uint64_t mapped = 0;

	CHECK_INT(hwt_emu_new(&o, &emu), 0);
	CHECK_INT(hwt_emu_add_pmu(emu, "cs_etm", PMU_TYPE), 0);
	sink_init(&m);
	s = capture_all(emu, &m, src, total, 16, 2, &cs, &es);
	CHECK(es.truncations > 0);
	CHECK(m.offsets_contiguous);
	CHECK(m.nchunks > 0 && m.chunks[0].offset == 0);
	CHECK(m.naux_recs < 4096);
	for (size_t i = 0; i < m.naux_recs; i++) {
		uint64_t off = m.aux_recs[i][0], size = m.aux_recs[i][1];
		bool trunc = m.aux_recs[i][2] & HWT_AUX_FLAG_TRUNCATED;
		bool has = size >= 16 && off + 16 <= m.aux_len &&
			   !memcmp(m.aux + off, barrier, 16);
		with_barrier += has;
		if (trunc && (size % 16 || (size && !has)))
			bad++;
	}
	CHECK_U64(bad, 0);
	CHECK_U64(with_barrier, es.barriers);
	CHECK(es.barriers >= es.truncations);
	/* The rest is source bytes: the map covers all but the barriers. */
	CHECK_INT(hwt_emu_stream_segments(emu, 0, &segs, &nsegs), 0);
	for (size_t k = 0; k < nsegs; k++) {
		mapped += segs[k].len;
		if (memcmp(m.aux + segs[k].aux_pos, src + segs[k].src_pos,
			   segs[k].len))
			bad++;
	}
	CHECK_U64(bad, 0);
	CHECK_U64(mapped + 16 * es.barriers, cs.aux_bytes);
	fprintf(stderr, "  cs sink: %llu truncations, %llu barriers, %llu of "
		"%llu bytes captured\n", (unsigned long long)es.truncations,
		(unsigned long long)es.barriers,
		(unsigned long long)cs.aux_bytes, (unsigned long long)total);
	teardown(s, emu, &m, src);
}

/* One snapshot of total pattern bytes (seed) written in burst-byte
 * writes through a 4+4-page overwrite session: it holds the last want
 * bytes of the source and wrapped (or not) as wraps says; cs receives the
 * session's counters. */
static void check_snapshot(uint64_t total, unsigned seed, uint64_t burst,
			   bool in_buffer, const struct hwt_backend *be,
			   uint64_t want, uint64_t wraps,
			   struct hwt_capture_stats *cs)
{
	uint8_t *src = pattern(total, seed);
	struct hwt_emu *emu = emu_make(0, burst, in_buffer);
	struct mem_sink m;
	struct hwt_session *s;

	sink_init(&m);
	s = snapshot_once(emu, &m, src, total, be, cs);
	CHECK_U64(m.aux_len, want);
	CHECK(m.aux_len == want && memcmp(m.aux, src + total - want, want) == 0);
	CHECK_U64(cs->snapshot_wraps, wraps);
	teardown(s, emu, &m, src);
}

/* Overwrite mode with the core's default: the head runs free, the newest
 * buffer's worth ends at it. */
static void test_overwrite_wrap_default_snapshot_is_newest_bytes(void)
{
	const uint64_t size = 4 * 4096, total = 40000;
	struct hwt_capture_stats cs;

	check_snapshot(total, 4, 3000, false, NULL, size, 1, &cs);
	CHECK_U64(cs.snapshots, 1);
	/* 40000 bytes in 3000-byte writes: 14 records, all OVERWRITE. */
	CHECK_U64(cs.aux_records, 14);
}

static void test_overwrite_without_wrap_takes_what_was_written(void)
{
	const uint64_t total = 10000;
	struct hwt_capture_stats cs;

	check_snapshot(total, 5, 3000, false, NULL, total, 0, &cs);
}

/* A backend whose driver reports aux_head inside the buffer (as Intel
 * PT's does) finds the wrap itself: the source never holds a zero byte,
 * so a non-zero byte at the head means the buffer was filled once. */
static int find_in_buffer(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			  uint64_t prev_head, uint64_t *start, uint64_t *len,
			  bool *wrapped)
{
	*wrapped = aux[head] != 0;
	*start = *wrapped ? head : 0;
	*len = *wrapped ? aux_size : head;
	return 0;
}

static const struct hwt_record_ops find_ops = {.find_snapshot = find_in_buffer};
static const struct hwt_backend find_backend = {
	.name = "test_in_buffer", .record = &find_ops,
};

static void test_overwrite_wrap_with_find_snapshot(void)
{
	const uint64_t size = 4 * 4096, total = 50001;
	struct hwt_capture_stats cs;

	check_snapshot(total, 6, 2500, true, &find_backend, size, 1, &cs);
}

/* Records that find the data ring full are reported by one
 * PERF_RECORD_LOST once there is room: delivered + lost == sent. */
static void test_data_ring_overflow_is_reported_as_lost(void)
{
	const int n = 400;
	struct hwt_emu *emu = emu_make(0, 0, false);
	uint8_t rec[64] = {0};
	struct perf_event_header h = {PERF_RECORD_COMM, 0, sizeof(rec)};
	struct mem_sink m;
	struct hwt_session *s;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;

	sink_init(&m);
	memcpy(rec, &h, sizeof(h));
	for (int i = 0; i < n; i++)
		CHECK_INT(hwt_emu_stream_record(emu, 0, rec), 0);
	s = session_make(emu, &m, 1, 2, false, NULL);
	usleep(100000); /* the producer fills the ring before we read */
	run_to_end(s);
	CHECK_INT(hwt_session_stats(s, 0, &cs), 0);
	CHECK_INT(hwt_emu_stream_stats(emu, 0, &es), 0);
	CHECK(es.lost_records > 0);
	CHECK_U64(cs.lost_records, es.lost_records);
	CHECK_U64(m.types[PERF_RECORD_COMM] + cs.lost_records, n);
	CHECK_U64(m.types[PERF_RECORD_LOST], cs.lost_events);
	teardown(s, emu, &m, NULL);
}

/* The emulator refuses what the kernel refuses. */
static void test_emulator_refuses_like_the_kernel(void)
{
	struct hwt_emu *emu = emu_make(0, 0, false);
	const struct hwt_os *os = hwt_emu_os(emu);
	struct perf_event_attr a;
	void *p;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = 77; /* no such PMU */
	CHECK_INT(os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0), -2);
	a.type = PMU_TYPE;
	fd = os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0);
	CHECK(fd >= 0);
	/* 1 + 3 pages: the data ring is not a power of two. */
	CHECK_INT(os->ops->mmap(os->ctx, fd, 4 * 4096, 3, 0, &p), -22);
	CHECK_INT(os->ops->mmap(os->ctx, fd, 5 * 4096, 3, 0, &p), 0);
	/* AUX before aux_offset/aux_size were written. */
	CHECK_INT(os->ops->mmap(os->ctx, fd, 4096, 3, 5 * 4096, &p), -22);
	os->ops->close(os->ctx, fd);
	hwt_emu_free(emu);
}

/* PMUs come from a sysfs fixture: the emulator opens the AUX PMUs it
 * lists (by their type files) and serves its files to PMU discovery. */
static void test_emulator_pmus_come_from_a_sysfs_fixture(void)
{
	struct hwt_emu_opts o = {
		.size = sizeof(o),
		.sysfs_root = HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client",
	};
	struct hwt_emu *emu = NULL;
	const struct hwt_os *os;
	struct perf_event_attr a;
	char buf[64];
	int fd;

	CHECK_INT(hwt_emu_new(&o, &emu), 0);
	os = hwt_emu_os(emu);
	CHECK_INT(hwt_os_sysfs_read(os, "bus/event_source/devices/intel_pt/type",
				    buf, sizeof(buf)), 1);
	CHECK_STR(buf, "6");
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = 6; /* intel_pt */
	fd = os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0);
	CHECK(fd >= 0);
	os->ops->close(os->ctx, fd);
	a.type = 7; /* intel_bts */
	fd = os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0);
	CHECK(fd >= 0);
	os->ops->close(os->ctx, fd);
	a.type = 4; /* cpu: not an AUX PMU, not emulated */
	CHECK_INT(os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0), -ENOENT);
	hwt_emu_free(emu);
}

/* A per-thread session: one event for the task tid on any CPU. */
static struct hwt_session *thread_session(struct hwt_emu *emu, int tid,
					  uint32_t data_pages,
					  uint32_t aux_pages,
					  struct mem_sink *m)
{
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;

	session_opts(&o, emu, m, data_pages, aux_pages);
	o.per_thread = true;
	o.pid = tid;
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	return s;
}

/* Per-thread: one event for the task on any CPU (cpu -1); its AUXTRACE
 * records carry the tid and cpu -1, as perf writes them. */
static void test_per_thread_event_gets_the_per_thread_stream(void)
{
	const uint64_t total = 20000;
	uint8_t *src = pattern(total, 8);
	struct hwt_emu *emu = emu_make_paced(1000);
	struct hwt_session *s;
	struct mem_sink m;

	sink_init(&m);
	CHECK_INT(hwt_emu_stream_aux(emu, -1, src, total, 1), 0);
	s = thread_session(emu, 4242, 4, 4, &m);
	run_to_end(s);
	CHECK_U64(m.aux_len, total);
	CHECK(m.aux_len == total && memcmp(m.aux, src, total) == 0);
	CHECK_U64(m.last_cpu, 0xffffffffu);
	CHECK_U64(m.last_tid, 4242);
	teardown(s, emu, &m, src);
}

/* A live source: the bytes of two threads pushed, a piece at a time, by a
 * producer of their own while the sessions read, then closed. */
struct live_src {
	struct hwt_emu *emu;
	const uint8_t *src[2];
	uint64_t total;
};

static void *live_pusher(void *arg)
{
	struct live_src *l = arg;
	uint64_t at = l->total / 4; /* the first quarter went before open */

	while (at < l->total) {
		uint64_t n = l->total - at < 333 ? l->total - at : 333;
		hwt_emu_stream_push_aux(l->emu, -1, 100, l->src[0] + at, n);
		hwt_emu_stream_push_aux(l->emu, -1, 101, l->src[1] + at, n);
		at += n;
		if (at % 3330 == 0)
			usleep(200);
	}
	hwt_emu_stream_close(l->emu, -1, 100);
	hwt_emu_stream_close(l->emu, -1, 101);
	return NULL;
}

static void test_live_streams_of_two_threads_arrive_whole(void)
{
	const uint64_t total = 100000;
	uint8_t *a = pattern(total, 21), *b = pattern(total, 22);
	struct hwt_emu *emu = emu_make_paced(1000);
	struct live_src l = {emu, {a, b}, total};
	struct mem_sink m[2];
	struct hwt_session *s[2];
	struct hwt_emu_stats st;
	bool done[2] = {false, false};
	pthread_t t;
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
	} comm = {{PERF_RECORD_COMM, 0, sizeof(comm)}, 100, 100, "live"};

	sink_init(&m[0]);
	sink_init(&m[1]);
	/* Before the events are opened: queued. */
	CHECK_INT(hwt_emu_stream_push_record(emu, -1, 100, &comm), 0);
	CHECK_INT(hwt_emu_stream_push_aux(emu, -1, 100, a, total / 4), 0);
	CHECK_INT(hwt_emu_stream_push_aux(emu, -1, 101, b, total / 4), 0);
	CHECK_INT(hwt_emu_stream_set_thread(emu, 100, 101, 77), 0);
	/* One-page rings (4 KiB AUX): the pushes wrap them many times. */
	s[0] = thread_session(emu, 100, 1, 1, &m[0]);
	s[1] = thread_session(emu, 101, 1, 1, &m[1]);
	CHECK_INT(pthread_create(&t, NULL, live_pusher, &l), 0);
	for (int guard = 0; (!done[0] || !done[1]) && guard < 200000; guard++) {
		for (int i = 0; i < 2; i++) {
			if (done[i])
				continue;
			int ret = hwt_session_poll(s[i], 1, NULL, 0);
			CHECK(ret >= 0);
			if (ret == 1) {
				CHECK_INT(hwt_session_stop(s[i]), 0);
				done[i] = true;
			}
		}
	}
	pthread_join(t, NULL);
	CHECK(done[0] && done[1]);
	CHECK_U64(m[0].aux_len, total);
	CHECK(m[0].aux_len == total && memcmp(m[0].aux, a, total) == 0);
	CHECK_U64(m[1].aux_len, total);
	CHECK(m[1].aux_len == total && memcmp(m[1].aux, b, total) == 0);
	CHECK(m[0].offsets_contiguous && m[1].offsets_contiguous);
	CHECK_U64(m[0].last_tid, 100);
	CHECK_U64(m[1].last_tid, 101);
	CHECK_U64(m[0].types[PERF_RECORD_COMM], 1);
	CHECK_U64(m[1].types[PERF_RECORD_COMM], 0);
	CHECK_U64(m[0].types[PERF_RECORD_ITRACE_START], 1);
	CHECK_U64(m[1].types[PERF_RECORD_ITRACE_START], 1);
	CHECK_U64(m[0].types[PERF_RECORD_LOST], 0);
	CHECK_U64(m[0].aux_flags_truncated + m[1].aux_flags_truncated, 0);
	CHECK(m[1].recs_len == 0);
	for (int i = 0; i < 2; i++) {
		CHECK_INT(hwt_emu_stream_stats_at(emu, -1, 100 + i, &st), 0);
		CHECK_U64(st.produced, total);
		CHECK_U64(st.written, total);
		CHECK_U64(st.dropped, 0);
		CHECK(st.finished);
	}
	/* The thread's sample id as set. */
	const uint64_t *ids;
	const struct perf_event_attr *attr;
	size_t nids;
	const char *name;
	CHECK_INT(hwt_session_attr(s[1], 0, &attr, &ids, &nids, &name), 0);
	CHECK_U64(nids, 1);
	CHECK_U64(ids[0], 77);
	/* Closed is closed. */
	CHECK_INT(hwt_emu_stream_push_aux(emu, -1, 100, a, 8), HWT_ERR_INVAL);
	hwt_session_free(s[0]);
	hwt_session_free(s[1]);
	hwt_emu_free(emu);
	sink_fini(&m[0]);
	sink_fini(&m[1]);
	free(a);
	free(b);
}

/* A traced thread is named (hwt_emu_stream_set_thread) when it first
 * branches, and its session may open before its first push: the event
 * waits for the pushes instead of ending empty, and gets every byte
 * pushed after it opened. */
static void test_thread_named_before_its_first_push_loses_nothing(void)
{
	const uint64_t total = 5000;
	uint8_t *src = pattern(total, 23);
	struct hwt_emu *emu = emu_make_paced(1000);
	struct hwt_emu_stats st;
	struct mem_sink m;
	int ended_early = 0;

	sink_init(&m);
	CHECK_INT(hwt_emu_stream_set_thread(emu, 100, 101, 77), 0);
	struct hwt_session *s = thread_session(emu, 101, 1, 1, &m);
	/* The producer has had time to look at the empty stream. */
	for (int i = 0; i < 20; i++)
		ended_early += hwt_session_poll(s, 1, NULL, 0) == 1;
	CHECK_INT(ended_early, 0);
	CHECK_INT(hwt_emu_stream_push_aux(emu, -1, 101, src, total), 0);
	CHECK_INT(hwt_emu_stream_close(emu, -1, 101), 0);
	run_to_end(s);
	CHECK_U64(m.aux_len, total);
	CHECK(m.aux_len == total && memcmp(m.aux, src, total) == 0);
	CHECK_U64(m.last_tid, 101);
	CHECK_INT(hwt_emu_stream_stats_at(emu, -1, 101, &st), 0);
	CHECK_U64(st.produced, total);
	CHECK_U64(st.dropped, 0);
	teardown(s, emu, &m, src);
}

int main(void)
{
	RUN(test_full_mode_exact_wrap_loses_nothing);
	RUN(test_full_mode_chunk_straddling_the_end);
	RUN(test_data_records_straddling_the_end_arrive_intact);
	RUN(test_zero_length_stream_gives_no_aux_data);
	RUN(test_full_buffer_back_pressure_accounts_every_byte);
	RUN(test_silent_disable_on_a_full_ring_is_undone);
	RUN(test_cs_sink_writes_a_barrier_after_each_loss);
	RUN(test_overwrite_wrap_default_snapshot_is_newest_bytes);
	RUN(test_overwrite_without_wrap_takes_what_was_written);
	RUN(test_overwrite_wrap_with_find_snapshot);
	RUN(test_data_ring_overflow_is_reported_as_lost);
	RUN(test_emulator_refuses_like_the_kernel);
	RUN(test_emulator_pmus_come_from_a_sysfs_fixture);
	RUN(test_per_thread_event_gets_the_per_thread_stream);
	RUN(test_live_streams_of_two_threads_arrive_whole);
	RUN(test_thread_named_before_its_first_push_loses_nothing);
	return hwt_test_summary();
}
