/* The BTS decoder on records of the known_path test program's real branch
 * addresses (read from its symbol table) for input n: the control flow is
 * known, so every range, count and branch kind is known too. Instruction
 * counts per range are counted by hand from the program's assembly. */
#include <stdbool.h>

#include "harness.h"
#include "../programs/known_path_expect.h"
#include "hwtrace/bts_format.h"
#include "backends/x86-bts/bts_layout.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/image.h"

extern const struct hwt_decoder_ops hwt_bts_decoder_ops;

static const char *prog;

static const char *prog;
static struct hwt_elem got[1024];
static size_t ngot;

static int collect(void *arg, const struct hwt_elem *e)
{
	static char text[1024][64]; /* element strings live only in the call */
	(void)arg;
	if (ngot < sizeof(got) / sizeof(got[0])) {
		got[ngot] = *e;
		if (e->type == HWT_ELEM_RANGE && e->u.range.text) {
			snprintf(text[ngot], sizeof(text[0]), "%s", e->u.range.text);
			got[ngot].u.range.text = text[ngot];
		}
		ngot++;
	}
	return 0;
}

struct dec {
	void *priv;
	struct hwt_image *image;
};

static bool want_disasm;

static struct dec dec_open(bool snapshot)
{
	static struct hwt_elem_sink sink = {collect, NULL};
	static uint64_t info[HWT_BTS_INFO_WORDS];
	struct dec d = {0};
	uint64_t vaddr = 0, off = 0, size = 0;

	CHECK_INT(test_elf_text(prog, &vaddr, &off, &size), 0);
	d.image = hwt_image_new();
	CHECK_INT(hwt_image_add_file(d.image, HWT_PID_ANY, vaddr, size, prog, off), 0);
	info[HWT_BTS_INFO_SNAPSHOT_MODE] = snapshot;
	struct hwt_decode_params p = {
		.size = sizeof(p), .info = info, .info_words = HWT_BTS_INFO_WORDS,
		.image = d.image, .sink = &sink, .disasm = want_disasm,
	};
	ngot = 0;
	CHECK_INT(hwt_bts_decoder_ops.create(&p, &d.priv), 0);
	return d;
}

static void dec_close(struct dec *d)
{
	hwt_bts_decoder_ops.destroy(d->priv);
	hwt_image_free(d->image);
}

static int feed(struct dec *d, const uint8_t *data, size_t size,
		uint64_t offset, uint32_t flags)
{
	struct hwt_aux_chunk c = {
		.data = data, .size = size, .offset = offset, .cpu = -1,
		.tid = 4242, .aux_flags = flags,
	};
	return hwt_bts_decoder_ops.feed(d->priv, &c);
}

/* Checks got[*pos...] against expected records [first, nexp), the first
 * of them without a range when @first_has_range is false. */
static void check_path(size_t *pos, size_t first, bool first_has_range)
{
	for (size_t i = first; i < nexp; i++) {
		const struct exp_rec *x = &exp_recs[i];
		if (i > first || first_has_range) {
			CHECK(*pos < ngot);
			if (*pos >= ngot)
				return;
			const struct hwt_elem *e = &got[(*pos)++];
			CHECK_INT(e->type, HWT_ELEM_RANGE);
			CHECK_U64(e->u.range.start, x->rstart);
			CHECK_U64(e->u.range.end, x->rend);
			CHECK_U64(e->u.range.insns, x->rinsns);
			CHECK_INT(e->u.range.isa, HWT_ISA_X86_64);
			CHECK_INT(e->tid, 4242);
		}
		CHECK(*pos < ngot);
		if (*pos >= ngot)
			return;
		const struct hwt_elem *e = &got[(*pos)++];
		CHECK_INT(e->type, HWT_ELEM_BRANCH);
		CHECK_U64(e->u.branch.from, x->from);
		CHECK_U64(e->u.branch.to, x->to);
		CHECK_INT(e->u.branch.kind, x->kind);
	}
}

static void check_whole_trace(void)
{
	size_t pos = 0;
	CHECK(ngot >= 2);
	if (ngot < 2)
		return;
	CHECK_INT(got[pos].type, HWT_ELEM_TRACE_ON);
	CHECK_U64(got[pos].u.trace.at, k.run);
	pos++;
	check_path(&pos, 0, true);
	CHECK(pos < ngot);
	if (pos < ngot) {
		CHECK_INT(got[pos].type, HWT_ELEM_TRACE_OFF);
		CHECK_U64(got[pos].u.trace.at, k.done);
		pos++;
	}
	CHECK_INT(ngot, pos);

	uint64_t insns = 0;
	for (size_t i = 0; i < ngot; i++)
		if (got[i].type == HWT_ELEM_RANGE)
			insns += got[i].u.range.insns;
	CHECK_U64(insns, 41); /* known_path.c's formula for n = 5 */
}

static void test_one_buffer_gives_the_known_path(void)
{
	uint8_t buf[8192];
	build_path(5);
	size_t len = write_records(buf, true);
	CHECK_INT(len, 20 * 24); /* begin, 5 calls, 3 odd, 5 returns, 4 loops, done, end */
	struct dec d = dec_open(false);
	CHECK_INT(feed(&d, buf, len, 0, 0), 0);
	CHECK_INT(hwt_bts_decoder_ops.flush(d.priv), 0);
	check_whole_trace();
	dec_close(&d);
}

static void test_record_cut_at_buffer_edge_is_kept(void)
{
	uint8_t buf[8192];
	build_path(5);
	size_t len = write_records(buf, true);
	/* Cuts inside records: 100 = 4 records + 4 bytes, then 1 byte, then
	 * the 19 bytes that finish that record and more. */
	size_t cuts[] = {0, 100, 101, 120, 277, len};
	struct dec d = dec_open(false);
	for (size_t i = 0; i + 1 < sizeof(cuts) / sizeof(cuts[0]); i++)
		CHECK_INT(feed(&d, buf + cuts[i], cuts[i + 1] - cuts[i],
			       cuts[i], 0), 0);
	CHECK_INT(hwt_bts_decoder_ops.flush(d.priv), 0);
	check_whole_trace();
	dec_close(&d);
}

/* A full-trace AUX buffer of 4096 bytes holds 170 records; the kernel's
 * driver leaves the last 16 bytes as zero padding and goes on at the
 * buffer's start, so in the AUX stream the records after the wrap start
 * at offset 4096. */
static void test_padding_at_the_buffer_wrap_is_skipped(void)
{
	static uint8_t recs[16384], stream[16384];
	build_path(60);
	size_t len = write_records(recs, true);
	CHECK_INT(len / 24, 1 + 60 + 30 + 60 + 59 + 1 + 1);
	memcpy(stream, recs, 4080);
	memset(stream + 4080, 0, 16);
	memcpy(stream + 4096, recs + 4080, len - 4080);
	size_t slen = len + 16;
	size_t cuts[][4] = {
		{0, slen, slen, slen},    /* one chunk over the wrap */
		{0, 4096, slen, slen},    /* the chunk ends after the padding */
		{0, 4088, slen, slen},    /* ... inside it */
		{0, 4070, 4100, slen},    /* a record, the padding and a record cut */
	};
	for (size_t t = 0; t < 4; t++) {
		struct dec d = dec_open(false);
		for (size_t i = 0; i < 3 && cuts[t][i] < slen; i++)
			CHECK_INT(feed(&d, stream + cuts[t][i],
				       cuts[t][i + 1] - cuts[t][i], cuts[t][i], 0), 0);
		CHECK_INT(hwt_bts_decoder_ops.flush(d.priv), 0);
		size_t pos = 1;
		CHECK(ngot > 2 && got[0].type == HWT_ELEM_TRACE_ON);
		check_path(&pos, 0, true);
		CHECK(pos < ngot && got[pos].type == HWT_ELEM_TRACE_OFF);
		CHECK_INT(ngot, pos + 1);
		uint64_t insns = 0;
		for (size_t i = 0; i < ngot; i++)
			if (got[i].type == HWT_ELEM_RANGE)
				insns += got[i].u.range.insns;
		/* known_path.c's formula for n = 60 (30 odd calls) */
		CHECK_U64(insns, 3 + 60 * 3 + 30 * 4 + 30 * 5 + 1);
		dec_close(&d);
	}
}

static void test_trace_ending_inside_a_record_is_a_counted_gap(void)
{
	uint8_t buf[8192];
	build_path(5);
	size_t len = write_records(buf, true);
	struct dec d = dec_open(false);
	CHECK_INT(feed(&d, buf, len - 10, 0, 0), 0); /* end record cut: 14 of 24 bytes */
	CHECK_INT(hwt_bts_decoder_ops.flush(d.priv), 0);
	CHECK(ngot > 0);
	if (ngot) {
		const struct hwt_elem *e = &got[ngot - 1];
		CHECK_INT(e->type, HWT_ELEM_GAP);
		CHECK_INT(e->u.gap.reason, HWT_GAP_TRUNCATED);
		CHECK_U64(e->u.gap.bytes, 14);
		CHECK_U64(e->trace_offset, len - 24);
	}
	dec_close(&d);
}

static void test_skipped_stream_bytes_are_a_lost_gap(void)
{
	uint8_t buf[8192];
	build_path(5);
	size_t len = write_records(buf, true);
	struct dec d = dec_open(false);
	/* Records 0-3, then the stream resumes at record 6 (48 bytes lost,
	 * plus 4 bytes of record 4 held back). */
	CHECK_INT(feed(&d, buf, 100, 0, 0), 0);
	CHECK_INT(feed(&d, buf + 144, len - 144, 144, 0), 0);
	size_t gaps = 0;
	for (size_t i = 0; i < ngot; i++) {
		if (got[i].type != HWT_ELEM_GAP)
			continue;
		gaps++;
		CHECK_INT(got[i].u.gap.reason, HWT_GAP_LOST);
		CHECK_U64(got[i].u.gap.bytes, 48);
		/* after a gap the next record gives a branch, not a range */
		CHECK(i + 1 < ngot && got[i + 1].type == HWT_ELEM_BRANCH);
	}
	CHECK_INT(gaps, 1);
	dec_close(&d);
}

/* The hardware fills a 512-byte snapshot buffer in circles: 21 records
 * (504 bytes) and 8 bytes of zero padding at the wrap point. The snapshot
 * is the buffer from the write position on, as perf copies it. */
static void test_wrapped_snapshot_gives_the_newest_records(void)
{
	uint8_t recs[8192], ring[512] = {0}, snap[512];
	build_path(9);
	size_t len = write_records(recs, false);
	size_t nrec = len / 24, slots = 504 / 24;
	CHECK_INT(nrec, 32); /* 9 calls, 5 odd, 9 returns, 8 loops, done */
	for (size_t i = 0; i < nrec; i++)
		memcpy(ring + (i % slots) * 24, recs + i * 24, 24);
	size_t head = (nrec % slots) * 24;
	memcpy(snap, ring + head, 512 - head);
	memcpy(snap + 512 - head, ring, head);

	struct dec d = dec_open(true);
	CHECK_INT(feed(&d, snap, sizeof(snap), 0, 0), 0);
	CHECK_INT(hwt_bts_decoder_ops.flush(d.priv), 0);
	size_t pos = 0;
	check_path(&pos, nrec - slots, false);
	CHECK_INT(ngot, pos);
	CHECK_INT(ngot, 2 * slots - 1);
	dec_close(&d);
}

static void test_consecutive_snapshots_drop_their_overlap(void)
{
	uint8_t buf[8192];
	build_path(5);
	size_t len = write_records(buf, true);
	/* Snapshot 1: records 0..14; snapshot 2: records 10..19. */
	struct dec d = dec_open(true);
	CHECK_INT(feed(&d, buf, 15 * 24, 0, 0), 0);
	CHECK_INT(feed(&d, buf + 10 * 24, len - 10 * 24, 15 * 24, 0), 0);
	CHECK_INT(hwt_bts_decoder_ops.flush(d.priv), 0);
	check_whole_trace();
	dec_close(&d);
	CHECK_INT(hwt_bts_overlap(buf, 15 * 24, buf + 10 * 24, len - 10 * 24), 5 * 24);
	/* the trace-begin record never repeats */
	CHECK_INT(hwt_bts_overlap(buf, 24, buf + 48, 24), 0);
}

static void test_snapshots_without_overlap_are_a_lost_gap(void)
{
	uint8_t buf[8192];
	build_path(5);
	write_records(buf, true);
	/* Snapshot 1: records 0..4; snapshot 2: records 17..19. (The loop
	 * repeats records, so windows inside it can overlap by chance.) */
	struct dec d = dec_open(true);
	CHECK_INT(feed(&d, buf, 5 * 24, 0, 0), 0);
	size_t before = ngot;
	CHECK_INT(feed(&d, buf + 17 * 24, 3 * 24, 5 * 24, 0), 0);
	CHECK(ngot > before + 1);
	if (ngot > before + 1) {
		CHECK_INT(got[before].type, HWT_ELEM_GAP);
		CHECK_INT(got[before].u.gap.reason, HWT_GAP_LOST);
		CHECK_INT(got[before + 1].type, HWT_ELEM_BRANCH);
		CHECK_U64(got[before + 1].u.branch.from, exp_recs[16].from);
		CHECK_U64(got[before + 1].u.branch.to, exp_recs[16].to);
	}
	dec_close(&d);
}

static void test_truncated_aux_flag_is_a_gap(void)
{
	uint8_t buf[8192];
	build_path(5);
	size_t len = write_records(buf, true);
	struct dec d = dec_open(false);
	CHECK_INT(feed(&d, buf, 240, 0, HWT_AUX_FLAG_TRUNCATED), 0);
	CHECK_INT(feed(&d, buf + 240, len - 240, 240, 0), 0);
	size_t gaps = 0;
	for (size_t i = 0; i < ngot; i++) {
		if (got[i].type == HWT_ELEM_GAP) {
			gaps++;
			CHECK_INT(got[i].u.gap.reason, HWT_GAP_TRUNCATED);
			CHECK_U64(got[i].trace_offset, 240);
		}
	}
	CHECK_INT(gaps, 1);
	dec_close(&d);
}

static void test_branch_outside_the_image_is_a_no_image_gap(void)
{
	uint8_t buf[3 * 24];
	struct hwt_bts_record r[3] = {
		{0, 0x7000000, 0}, {0x7000010, k.leaf, 0}, {k.leaf_jcc, k.leaf_ret, 0},
	};
	for (int i = 0; i < 3; i++)
		hwt_bts_record_write(buf + 24 * i, &r[i]);
	struct dec d = dec_open(false);
	CHECK_INT(feed(&d, buf, sizeof(buf), 0, 0), 0);
	CHECK_INT(ngot, 5);
	CHECK_INT(got[0].type, HWT_ELEM_TRACE_ON);
	CHECK_INT(got[1].type, HWT_ELEM_GAP);
	CHECK_INT(got[1].u.gap.reason, HWT_GAP_NO_IMAGE);
	CHECK_INT(got[2].type, HWT_ELEM_BRANCH);
	CHECK_INT(got[3].type, HWT_ELEM_RANGE);
	CHECK_U64(got[3].u.range.insns, 3);
	CHECK_INT(got[4].u.branch.kind, HWT_BRANCH_COND);
	dec_close(&d);
}

/* --disasm: one range per instruction, with the text of the instruction
 * as written in known_path.c's assembly (jnz is spelled jne). */
static void test_disasm_gives_one_range_per_instruction(void)
{
	static char texts[64][64];
	uint8_t buf[8192];
	build_path(1);
	size_t len = write_records(buf, true);
	want_disasm = true;
	struct dec d = dec_open(false);
	want_disasm = false;
	CHECK_INT(feed(&d, buf, len, 0, 0), 0);
	size_t n = 0;
	for (size_t i = 0; i < ngot && n < 64; i++) {
		if (got[i].type != HWT_ELEM_RANGE)
			continue;
		CHECK_U64(got[i].u.range.insns, 1);
		snprintf(texts[n++], sizeof(texts[0]), "%s",
			 got[i].u.range.text ? got[i].u.range.text : "(none)");
	}
	/* n = 1: mov, xor, xor, call; add, test, jnz (taken); ret; sub, jnz
	 * (not taken), call kp_done. */
	CHECK_INT(n, 11);
	CHECK_STR(texts[0], "mov ecx, edi");
	CHECK_STR(texts[1], "xor eax, eax");
	CHECK_STR(texts[4], "add eax, 1");
	CHECK_STR(texts[5], "test al, 1");
	CHECK_CONTAINS(texts[6], "jne 0x");
	CHECK_STR(texts[7], "ret");
	CHECK_STR(texts[8], "sub ecx, 1");
	char call[64];
	snprintf(call, sizeof(call), "call 0x%" PRIx64, k.done);
	CHECK_STR(texts[10], call);
	dec_close(&d);
}

int main(void)
{
	prog = test_program("known_path_x86");
CHECK_INT(load_syms(prog, 0), 0);
	RUN(test_one_buffer_gives_the_known_path);
	RUN(test_record_cut_at_buffer_edge_is_kept);
	RUN(test_padding_at_the_buffer_wrap_is_skipped);
	RUN(test_trace_ending_inside_a_record_is_a_counted_gap);
	RUN(test_skipped_stream_bytes_are_a_lost_gap);
	RUN(test_wrapped_snapshot_gives_the_newest_records);
	RUN(test_consecutive_snapshots_drop_their_overlap);
	RUN(test_snapshots_without_overlap_are_a_lost_gap);
	RUN(test_truncated_aux_flag_is_a_gap);
	RUN(test_branch_outside_the_image_is_a_no_image_gap);
	RUN(test_disasm_gives_one_range_per_instruction);
	return hwt_test_summary();
}
