/* A wrapped intel_bts snapshot holds whole records. The emulated trace
 * unit behaves as the BTS hardware in snapshot mode (hwt_emu_set_aux_
 * alignment 24): it writes 24-byte records from offset 0 and wraps at the
 * last whole record, so the last aux_size % 24 bytes of the buffer are
 * never written, and the driver reports the head as an offset in the
 * buffer. The capture core applies the backend's record alignment as
 * perf's auxtrace_mmap__read_snapshot does (the part before the end of
 * the buffer loses its length % 24 bytes), so the snapshot decodes into
 * exactly the newest records of the source, in order.
 *
 * Numbers: 8 pages = 32768 bytes, 32768 % 24 = 8, so the hardware wraps
 * at 32760 = 1365 records. 3000 records (72000 bytes) laps twice and
 * ends at 72000 - 2 * 32760 = 6480 (record 270 of the buffer): the
 * snapshot is [6480, 32760) then [0, 6480), 1365 records, the source's
 * records 1635..2999. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "discard_sink.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/backend.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define PMU_TYPE 42
#define AUX_PAGES 8
#define AUX_SIZE (AUX_PAGES * 4096u)
#define WRAP (AUX_SIZE - AUX_SIZE % HWT_BTS_RECORD_SIZE) /* 32760 */
#define NREC_MAX 4000

struct capture {
	uint8_t *aux;   /* the first AUXTRACE buffer written */
	uint64_t len;
	size_t chunks;
};

static int sink_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		    const void *d1, uint64_t l1, const void *d2)
{
	struct capture *c = ctx;

	if (c->chunks++)
		return 0;
	c->aux = malloc(hdr->size ? hdr->size : 1);
	if (!c->aux)
		return HWT_ERR_NOMEM;
	memcpy(c->aux, d1, l1);
	if (d2)
		memcpy(c->aux + l1, d2, hdr->size - l1);
	c->len = hdr->size;
	return 0;
}

static struct hwt_bts_record src[NREC_MAX];
static uint8_t src_bytes[NREC_MAX * HWT_BTS_RECORD_SIZE];

static void make_source(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		src[i].from = 0x401000 + i * 16;
		src[i].to = 0x502000 + i * 32;
		src[i].flags = i % 3 ? HWT_BTS_FLAG_PREDICTED : 0;
		hwt_bts_record_write(src_bytes + i * HWT_BTS_RECORD_SIZE, &src[i]);
	}
}

/* Records @nrec source records on the emulated intel_bts in snapshot
 * mode with the record ops @ops, takes one snapshot once all are written
 * and leaves the first AUXTRACE buffer in @c. */
static void capture(const struct hwt_record_ops *ops, size_t nrec,
		    struct capture *c)
{
	static const int cpu0[] = {0};
	const struct hwt_backend *real = hwt_backend_find("intel_bts");
	struct hwt_emu_opts eo = {.size = sizeof(eo)};
	struct hwt_backend be;
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = NULL;
	struct hwt_emu_stats st;

	memset(c, 0, sizeof(*c));
	CHECK(real && real->record);
	if (!real || !real->record)
		return;
	be = *real;
	be.record = ops;
	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_bts", PMU_TYPE), 0);
	CHECK_INT(hwt_emu_set_aux_alignment(emu, HWT_BTS_RECORD_SIZE), 0);
	CHECK_INT(hwt_emu_stream_aux(emu, 0, src_bytes,
				     nrec * HWT_BTS_RECORD_SIZE, 1), 0);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.os = hwt_emu_os(emu);
	o.aux = true;
	o.aux_attr.type = PMU_TYPE;
	o.aux_attr.size = sizeof(o.aux_attr);
	o.backend = &be;
	o.cpus = cpu0;
	o.ncpus = 1;
	o.pid = -1;
	o.data_pages = 4;
	o.aux_pages = AUX_PAGES;
	o.snapshot = true;
	o.sink = (struct hwt_capture_sink){c, hwt_test_discard_record, sink_aux};
	CHECK_INT(hwt_session_new(&o, &s), 0);
	if (hwt_session_open(s) < 0)
		HWT_FAIL("open: %s", hwt_errmsg());
	memset(&st, 0, sizeof(st));
	for (int i = 0; i < 20000 && !st.finished; i++) {
		hwt_emu_stream_stats(emu, 0, &st);
		if (!st.finished)
			usleep(500);
	}
	CHECK(st.finished);
	CHECK_U64(st.written, nrec * HWT_BTS_RECORD_SIZE);
	CHECK_INT(hwt_session_snapshot(s), 0);
	hwt_session_stop(s);
	hwt_session_free(s);
	hwt_emu_free(emu);
}

struct decoded {
	struct hwt_bts_record rec[NREC_MAX];
	size_t n;
	size_t other; /* elements that are neither branches nor the note
			 that there is no memory image */
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct decoded *d = arg;

	if (e->type == HWT_ELEM_BRANCH) {
		if (d->n < NREC_MAX) {
			d->rec[d->n].from = e->u.branch.from;
			d->rec[d->n].to = e->u.branch.to;
		}
		d->n++;
	} else if (!(e->type == HWT_ELEM_GAP &&
		     e->u.gap.reason == HWT_GAP_NO_IMAGE)) {
		d->other++;
	}
	return 0;
}

/* Decodes @c with the intel_bts decoder (snapshot-mode metadata, no
 * memory image: branches only). */
static void decode(const struct capture *c, struct decoded *out)
{
	const struct hwt_backend *b = hwt_backend_find("intel_bts");
	uint64_t info[HWT_BTS_INFO_WORDS] = {PMU_TYPE, 0, 0, 0, 0, 1};
	struct hwt_elem_sink sink = {collect, out};
	struct hwt_decode_params p = {.size = sizeof(p), .info = info,
				      .info_words = HWT_BTS_INFO_WORDS,
				      .sink = &sink};
	struct hwt_aux_chunk ch = {.data = c->aux, .size = c->len, .cpu = 0,
				   .tid = -1};
	void *priv = NULL;

	memset(out, 0, sizeof(*out));
	CHECK(b && b->decoder);
	if (!b || !b->decoder || !c->aux)
		return;
	CHECK_INT(b->decoder->create(&p, &priv), 0);
	if (!priv)
		return;
	CHECK_INT(b->decoder->feed(priv, &ch), 0);
	if (b->decoder->flush)
		CHECK_INT(b->decoder->flush(priv), 0);
	b->decoder->destroy(priv);
}

/* Whether @d holds exactly source records [first, first + n). */
static bool equals_source(const struct decoded *d, size_t first, size_t n)
{
	if (d->n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (d->rec[i].from != src[first + i].from ||
		    d->rec[i].to != src[first + i].to)
			return false;
	return true;
}

static void wrapped_snapshot_is_whole_records(void)
{
	const struct hwt_backend *b = hwt_backend_find("intel_bts");
	static struct decoded d;
	struct capture c;

	CHECK(b && b->record);
	if (!b || !b->record)
		return;
	CHECK_INT(b->record->alignment, HWT_BTS_RECORD_SIZE);
	make_source(3000);
	capture(b->record, 3000, &c);
	CHECK_INT(c.chunks >= 1, 1);
	CHECK_U64(c.len, WRAP);
	/* The bytes are the source's records 1635..2999. */
	CHECK(c.aux && c.len == WRAP &&
	      !memcmp(c.aux, src_bytes + 1635 * HWT_BTS_RECORD_SIZE, WRAP));
	decode(&c, &d);
	CHECK_INT(d.n, 1365);
	CHECK(equals_source(&d, 1635, 1365));
	CHECK_INT(d.other, 0);
	free(c.aux);

	/* The same capture without the alignment: the 8 never-written
	 * (zero) bytes stay in, at 32760 - 6480 = 26280, and every record
	 * after them is 8 bytes off the record grid. */
	struct hwt_record_ops unaligned = *b->record;
	static const uint8_t zeros[8];
	unaligned.alignment = 0;
	capture(&unaligned, 3000, &c);
	CHECK_U64(c.len, AUX_SIZE);
	CHECK(c.aux && c.len == AUX_SIZE && !memcmp(c.aux + 26280, zeros, 8));
	CHECK(c.aux && memcmp(c.aux, src_bytes + 1635 * HWT_BTS_RECORD_SIZE,
			      WRAP) != 0);
	free(c.aux);
}

static void first_lap_is_untouched(void)
{
	const struct hwt_backend *b = hwt_backend_find("intel_bts");
	static struct decoded d;
	struct capture c;

	if (!b || !b->record)
		return;
	/* 500 records: 12000 bytes, the buffer never wrapped. */
	make_source(500);
	capture(b->record, 500, &c);
	CHECK_U64(c.len, 500 * HWT_BTS_RECORD_SIZE);
	decode(&c, &d);
	CHECK(equals_source(&d, 0, 500));
	CHECK_INT(d.other, 0);
	free(c.aux);
}

int main(void)
{
	RUN(wrapped_snapshot_is_whole_records);
	RUN(first_lap_is_untouched);
	return hwt_test_summary();
}
