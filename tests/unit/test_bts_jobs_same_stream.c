/* Intel BTS and sw_branch captures decode to the same element stream
 * whatever the number of threads and wherever the records are cut
 * (bts_split.c): hwt_decode_file with 1, 2, 3 and 8 threads, segments of
 * one record to the default size, against one thread on uncut pieces.
 *
 * The captures are bts_capture.h's, with every kind of record it writes.
 * The uncut stream is checked against what was written: one branch
 * element per branch record, a range before each branch or end of
 * tracing that follows a branch into the loop, the gaps, and each cut
 * record reported where its piece ends. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/x86-bts/bts_split.h"
#include "bts_capture.h"
#include "core/decode/decode_internal.h"
#include "elem_text.h"
#include "harness.h"
#include "hwtrace/decode.h"

#define NPIECES 5

static char tmp[] = "/tmp/hwt-bts-jobs-XXXXXX";

struct text {
	struct elem_text all;
	unsigned branches, ranges, no_image, errors, cut_end;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct text *t = arg;
	t->branches += e->type == HWT_ELEM_BRANCH;
	t->ranges += e->type == HWT_ELEM_RANGE;
	if (e->type == HWT_ELEM_GAP) {
		t->no_image += e->u.gap.reason == HWT_GAP_NO_IMAGE;
		t->errors += e->u.gap.reason == HWT_GAP_DECODE_ERROR;
		t->cut_end += e->u.gap.reason == HWT_GAP_TRUNCATED;
	}
	return elem_text_add(&t->all, e);
}

static int decode(const char *data, unsigned jobs, bool disasm, struct text *t)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = jobs,
				       .disasm = disasm};
	struct hwt_elem_sink sink = {collect, t};
	memset(t, 0, sizeof(*t));
	return hwt_decode_file(data, &opts, &sink);
}

/* The split walk cuts a generated piece where it may. */
static void split_cuts_where_it_may(void)
{
	struct bts_written w;
	struct bts_gen g = {.swb = true, .seed = 3, .time = 1000, .w = &w};
	memset(&w, 0, sizeof(w));
	bts_piece(&g, 500);
	struct hwt_aux_chunk c = {.data = g.buf, .size = g.len};
	static uint64_t starts[HWT_MAX_SEGMENTS];
	bts_split_bytes = 1;
	size_t n = bts_split_records(&c, true, starts, HWT_MAX_SEGMENTS);
	/* After every timed branch but the last record. */
	CHECK(n > 400 && n < 520);
	for (size_t i = 1; i < n; i++) {
		struct hwt_bts_record r;
		hwt_bts_record_read(g.buf + starts[i] - HWT_BTS_RECORD_SIZE, &r);
		CHECK(bts_cut_after(&r, true));
	}
	/* Segments of about 1 KiB, the last ending inside a record. */
	bts_split_bytes = 1024;
	c.size = g.len - 5;
	n = bts_split_records(&c, true, starts, HWT_MAX_SEGMENTS);
	CHECK(n >= g.len / 1024 - 1 && n <= g.len / 1024 + 1);
	bts_split_bytes = 64 * 1024;
	free(g.buf);
}

static void same_for_every_cut(bool swb, unsigned seed, bool disasm)
{
	char file[300], data[300];
	snprintf(file, sizeof(file), "%s/code.bin", tmp);
	snprintf(data, sizeof(data), "%s/%s-%u.data", tmp, swb ? "swb" : "bts",
		 seed);
	CHECK_INT(bts_capture_write_code(file), 0);
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = {.code_path = file, .swb = swb, .seed = seed,
				.npieces = NPIECES, .records = 150};
	CHECK_INT(bts_capture_write(data, &c, w), 0);

	/* The reference: one thread, pieces not cut. */
	struct text one;
	bts_split_bytes = (size_t)1 << 40;
	CHECK_INT(decode(data, 1, disasm, &one), 0);
	CHECK(one.all.s != NULL);
	if (!one.all.s)
		return;
	unsigned branches = 0, ranges = 0, unmapped = 0, bad = 0, cut_ends = 0;
	for (unsigned t = 0; t < BTS_NTHREADS; t++) {
		branches += w[t].branches;
		ranges += w[t].ranges;
		unmapped += w[t].unmapped;
		bad += w[t].bad;
		cut_ends += w[t].cut_ends;
	}
	CHECK(branches > 1000);
	CHECK_INT(one.branches, branches);
	if (!disasm)
		CHECK_INT(one.ranges, ranges);
	CHECK_INT(one.no_image, unmapped);
	CHECK_INT(one.errors, bad);
	CHECK(cut_ends >= BTS_NTHREADS);
	CHECK_INT(one.cut_end, cut_ends);

	static const size_t sizes[] = {1, 100, 1000, 64 * 1024};
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		bts_split_bytes = sizes[s];
		for (unsigned jobs = 1; jobs <= 8; jobs += jobs == 3 ? 5 : 1) {
			struct text many;
			CHECK_INT(decode(data, jobs, disasm, &many), 0);
			CHECK(many.all.s && !strcmp(many.all.s, one.all.s));
			char what[96];
			snprintf(what, sizeof(what), "%s seed %u, cuts of %zu "
				 "bytes, -j%u", swb ? "sw_branch" : "BTS", seed,
				 sizes[s], jobs);
			elem_text_diff(what, &one.all, &many.all);
			free(many.all.s);
		}
	}
	bts_split_bytes = 64 * 1024;
	free(one.all.s);
	unlink(data);
	unlink(file);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	split_cuts_where_it_may();
	for (unsigned seed = 1; seed <= 3; seed++) {
		same_for_every_cut(false, seed, false);
		same_for_every_cut(true, seed, seed == 3);
	}
	rmdir(tmp);
	return hwt_test_summary();
}
