/* hwt_decode_edges_write and hwt_decode_edges_summary_print
 * (hwtrace/decode_edges.h) on a map of three edges counted by hand. The
 * oracles: the lines are the edges sorted by from, then to, as
 * hwtrace/edges.h states their text and jsonl; the bitmap's slots are
 * computed here from AFL's formula as the header gives it (cur_loc ^
 * (prev_loc >> 1), H(a) the high 32 bits of a * 0x9e3779b97f4a7c15), not
 * by the library; the partial read back and written as its final output
 * is the text lines again. The summary line is the one `hwtrace decode
 * --edges` has always printed (tests/integration/test_decode_edges_ptt.sh
 * holds its words), with the fallback clause only when there are
 * fallbacks. Then the refusals and a write that fails on a full device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/decode_edges.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"

static struct hwt_edges *three_edges(void)
{
	struct hwt_edges *e = hwt_edges_new();
	CHECK(e != NULL);
	if (!e)
		return NULL;
	CHECK_INT(hwt_edges_add(e, 0x401020, 0x401000, 2), 0);
	CHECK_INT(hwt_edges_add(e, 0x400ff0, 0x401020, 1), 0);
	CHECK_INT(hwt_edges_add(e, 0x401020, 0x400f00, 300), 0);
	return e;
}

static struct hwt_decode_edges_out to(FILE *out)
{
	return (struct hwt_decode_edges_out){
		.size = sizeof(struct hwt_decode_edges_out), .out = out,
		.out_name = NULL, .format = HWT_OUTPUT_TEXT, .bitmap = 0,
		.partial = false,
	};
}

/* Writes @e as @o asks (its out a memory stream); the bytes in *@buf. */
static size_t written(struct hwt_edges *e, struct hwt_decode_edges_out o,
		      char **buf)
{
	size_t size = 0;
	*buf = NULL;
	FILE *out = open_memstream(buf, &size);
	CHECK(out != NULL);
	if (!out)
		return 0;
	o.out = out;
	CHECK_INT(hwt_decode_edges_write(e, &o), 0);
	fclose(out);
	return size;
}

static const char *lines =
	"0x400ff0->0x401020 1\n"
	"0x401020->0x400f00 300\n"
	"0x401020->0x401000 2\n";

static void lines_sorted(void)
{
	struct hwt_edges *e = three_edges();
	char *buf;
	written(e, to(NULL), &buf);
	CHECK_STR(buf, lines);
	free(buf);
	struct hwt_decode_edges_out o = to(NULL);
	o.format = HWT_OUTPUT_JSONL;
	written(e, o, &buf);
	CHECK_STR(buf,
		  "{\"type\":\"edge\",\"from\":\"0x400ff0\",\"to\":\"0x401020\",\"count\":1}\n"
		  "{\"type\":\"edge\",\"from\":\"0x401020\",\"to\":\"0x400f00\",\"count\":300}\n"
		  "{\"type\":\"edge\",\"from\":\"0x401020\",\"to\":\"0x401000\",\"count\":2}\n");
	free(buf);
	hwt_edges_free(e);
}

static uint64_t afl_loc(uint64_t a)
{
	return (a * 0x9e3779b97f4a7c15ull) >> 32;
}

static void bitmap_slots(void)
{
	struct hwt_edges *e = three_edges();
	struct hwt_decode_edges_out o = to(NULL);
	o.bitmap = 4096;
	char *buf;
	CHECK_U64(written(e, o, &buf), 4096);
	uint8_t want[4096];
	memset(want, 0, sizeof(want));
	const struct { uint64_t from, to, count; } edges[] = {
		{0x401020, 0x401000, 2}, {0x400ff0, 0x401020, 1},
		{0x401020, 0x400f00, 300},
	};
	for (size_t i = 0; i < 3; i++) {
		uint8_t *c = &want[(afl_loc(edges[i].to) ^
				    (afl_loc(edges[i].from) >> 1)) & 4095];
		uint64_t sum = *c + edges[i].count;
		*c = sum > 255 ? 255 : (uint8_t)sum;
	}
	size_t set = 0;
	for (size_t i = 0; i < sizeof(want); i++)
		set += want[i] != 0;
	CHECK(set >= 2);
	CHECK(buf && memcmp(buf, want, sizeof(want)) == 0);
	free(buf);
	hwt_edges_free(e);
}

static void partial_reads_back(void)
{
	struct hwt_edges *e = three_edges();
	struct hwt_decode_edges_out o = to(NULL);
	o.partial = true;
	o.bitmap = 64; /* the partial wins */
	char *buf;
	size_t n = written(e, o, &buf);
	CHECK(n > strlen(lines));
	FILE *in = fmemopen(buf, n, "r");
	struct hwt_partial *p = NULL;
	CHECK_INT(hwt_partial_read(in, "edges.part", &p), 0);
	fclose(in);
	char *back = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&back, &size);
	CHECK_INT(hwt_partial_write_edges(p, out, HWT_OUTPUT_TEXT), 0);
	fclose(out);
	CHECK_STR(back, lines);
	free(back);
	hwt_partial_free(p);
	free(buf);
	hwt_edges_free(e);
}

static void summary_line(void)
{
	struct hwt_edges *e = three_edges();
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	hwt_decode_edges_summary_print(f, "hwtrace decode: ", e);
	hwt_edges_stats(e)->overflows = 4;
	hwt_edges_stats(e)->errors = 5;
	hwt_edges_stats(e)->gaps = 6;
	hwt_edges_stats(e)->fallbacks = 7;
	hwt_decode_edges_summary_print(f, "", e);
	fclose(f);
	CHECK_STR(buf, "hwtrace decode: 3 edges (303 taken branches), 0 "
		  "overflows, 0 errors, 0 other gaps\n"
		  "3 edges (303 taken branches), 4 overflows, 5 errors, 6 "
		  "other gaps; 7 chunks decoded (in part) by the element "
		  "decoder\n");
	free(buf);
	hwt_edges_free(e);
}

static void refusals(void)
{
	struct hwt_edges *e = three_edges();
	struct hwt_decode_edges_out o = to(stdout);
	CHECK_INT(hwt_decode_edges_write(NULL, &o), HWT_ERR_INVAL);
	CHECK_INT(hwt_decode_edges_write(e, NULL), HWT_ERR_INVAL);
	o.size = 0;
	CHECK_INT(hwt_decode_edges_write(e, &o), HWT_ERR_INVAL);
	o = to(NULL);
	CHECK_INT(hwt_decode_edges_write(e, &o), HWT_ERR_INVAL);
	o = to(stdout);
	o.bitmap = 3000;
	CHECK_INT(hwt_decode_edges_write(e, &o), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "a bitmap of 3000 bytes: the size must be a "
		  "power of two");

	/* More than a stdio buffer onto a full device: the write fails, and
	 * the message names the output. */
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		o = to(full);
		o.bitmap = 1 << 20;
		o.out_name = "cover.bin";
		CHECK_INT(hwt_decode_edges_write(e, &o), HWT_ERR_IO);
		CHECK_STR(hwt_errmsg(), "writing cover.bin: No space left on "
			  "device");
		o.out_name = NULL;
		CHECK_INT(hwt_decode_edges_write(e, &o), HWT_ERR_IO);
		CHECK_STR(hwt_errmsg(), "writing standard output: No space "
			  "left on device");
		fclose(full);
	}
	hwt_edges_free(e);
}

int main(void)
{
	RUN(lines_sorted);
	RUN(bitmap_slots);
	RUN(partial_reads_back);
	RUN(summary_line);
	RUN(refusals);
	return hwt_test_summary();
}
