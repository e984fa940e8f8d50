/* hwt_decode_merged: a generated two-thread capture (bts_capture.h)
 * decoded, merged by time and printed as JSON lines on 1, 2 and 3
 * threads. Checked against what the capture was written with: the
 * branches, ranges and gaps of each kind counted, two streams, one line
 * per element written, the lines in time order (sw_branch records carry
 * the tracer's time) and the same bytes for every thread count. BTS
 * records carry no time: the merge says so (the positive control of
 * `timed`). A consumer of the test's own, without the printer, gets the
 * elements the counts describe. hwt_decode_counts_print's line is
 * checked against the written counts too. A bigger capture, whose
 * read-back the merge cuts into slices for the lanes, prints the same
 * bytes on 2 threads as on 1. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bts_capture.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/output.h"

static char tmp[] = "/tmp/hwt-decode-merged-XXXXXX";

/* The written streams' totals. */
static struct bts_written sum_written(const struct bts_written w[BTS_NTHREADS])
{
	struct bts_written s;
	memset(&s, 0, sizeof(s));
	for (unsigned t = 0; t < BTS_NTHREADS; t++) {
		s.branches += w[t].branches;
		s.ranges += w[t].ranges;
		s.unmapped += w[t].unmapped;
		s.bad += w[t].bad;
		s.cut_ends += w[t].cut_ends;
	}
	return s;
}

static void check_counts(const struct hwt_decode_counts *c,
			 const struct bts_written *w)
{
	CHECK_U64(c->branches, w->branches);
	CHECK_U64(c->ranges, w->ranges);
	CHECK_U64(c->gap_by[HWT_GAP_NO_IMAGE], w->unmapped);
	CHECK_U64(c->gap_by[HWT_GAP_DECODE_ERROR], w->bad);
	CHECK_U64(c->gap_by[HWT_GAP_TRUNCATED], w->cut_ends);
	CHECK_U64(c->samples, 0);
}

struct written_calls {
	unsigned calls;
	uint64_t first_done, first_total;
};

static void on_written(void *arg, uint64_t done, uint64_t total)
{
	struct written_calls *wc = arg;
	if (!wc->calls++) {
		wc->first_done = done;
		wc->first_total = total;
	}
}

/* Lines of @text, and whether their "time" values never go back. */
static size_t lines_in_time_order(const char *text, bool *ordered)
{
	size_t lines = 0;
	uint64_t last = 0;
	*ordered = true;
	for (const char *p = text; *p; lines++) {
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		const char *t = strstr(p, "\"time\":");
		if (t && t < nl) {
			uint64_t v = strtoull(t + 7, NULL, 10);
			if (v < last)
				*ordered = false;
			last = v;
		}
		p = nl + 1;
	}
	return lines;
}

/* Decodes @data on @jobs threads into the JSON-lines printer; returns
 * the text (the caller frees it). */
static char *decode_printed(const char *data, unsigned jobs,
			    enum hwt_output_format format,
			    struct hwt_decode_merged_result *res,
			    struct written_calls *wc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CHECK(out != NULL);
	if (!out)
		return NULL;
	struct hwt_output *output = hwt_output_new(out, format);
	CHECK(output != NULL);
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = jobs};
	struct hwt_decode_merged run = {
		.size = sizeof(run),
		.file = data,
		.opts = &opts,
		.consumer = hwt_output_sink(output),
		.output = output,
		.out = out,
		.format = format,
		.written = on_written,
		.written_arg = wc,
	};
	memset(wc, 0, sizeof(*wc));
	CHECK_INT(hwt_decode_merged(&run, res), 0);
	hwt_output_free(output);
	fclose(out);
	return text;
}

static void printed_in_time_order(const char *data,
				  const struct bts_written *w)
{
	char *one = NULL;
	for (unsigned jobs = 1; jobs <= 3; jobs++) {
		struct hwt_decode_merged_result res;
		struct written_calls wc;
		char *text = decode_printed(data, jobs, HWT_OUTPUT_JSONL, &res,
					    &wc);
		if (!text)
			return;
		check_counts(&res.counts, w);
		CHECK_U64(res.streams, BTS_NTHREADS);
		CHECK(res.timed);
		bool ordered;
		CHECK_U64(lines_in_time_order(text, &ordered), res.counts.elems);
		CHECK(ordered);
		CHECK(strstr(text, "\"time\":") != NULL);
		/* Two streams: nothing went out before the read-back. */
		CHECK(wc.calls >= 1);
		CHECK_U64(wc.first_done, 0);
		CHECK_U64(wc.first_total, res.counts.elems);
		if (!one)
			one = text;
		else {
			CHECK(!strcmp(text, one));
			free(text);
		}
	}
	free(one);
}

/* FNV-1a of @s: a big output compared without keeping two. */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

/* Enough elements that the merge cuts its read-back into slices (at
 * least 131,072 elements each): the lanes write what one thread does. */
static void lanes_write_what_one_thread_does(const char *data,
					     const struct bts_written *w)
{
	uint64_t hash[2] = {0, 0};
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct hwt_decode_merged_result res;
		struct written_calls wc;
		char *text = decode_printed(data, jobs, HWT_OUTPUT_TEXT, &res,
					    &wc);
		if (!text)
			return;
		check_counts(&res.counts, w);
		CHECK(res.counts.elems > 4 * 131072);
		CHECK(wc.calls > 2);
		hash[jobs - 1] = text_hash(text);
		free(text);
	}
	CHECK_U64(hash[1], hash[0]);
}

/* The test's own consumer: counts branches and gaps itself. */
struct own_counts {
	uint64_t elems, branches, gaps;
};

static int own_emit(void *arg, const struct hwt_elem *e)
{
	struct own_counts *o = arg;
	o->elems++;
	o->branches += e->type == HWT_ELEM_BRANCH;
	o->gaps += e->type == HWT_ELEM_GAP;
	return 0;
}

static void untimed_into_own_consumer(const char *data,
				      const struct bts_written *w)
{
	struct own_counts own;
	memset(&own, 0, sizeof(own));
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 2};
	struct hwt_decode_merged run = {
		.size = sizeof(run),
		.file = data,
		.opts = &opts,
		.consumer = {own_emit, &own},
	};
	struct hwt_decode_merged_result res;
	CHECK_INT(hwt_decode_merged(&run, &res), 0);
	check_counts(&res.counts, w);
	CHECK_U64(res.streams, BTS_NTHREADS);
	CHECK(!res.timed);
	CHECK_U64(own.elems, res.counts.elems);
	CHECK_U64(own.branches, w->branches);
	CHECK_U64(own.gaps, w->unmapped + w->bad + w->cut_ends);
	CHECK_U64(res.counts.gaps, own.gaps);

	/* The summary line, from the written counts. */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	hwt_decode_counts_print(f, "x: ", &res.counts);
	fclose(f);
	char prefix[256];
	snprintf(prefix, sizeof(prefix), "x: %u ranges (", w->ranges);
	CHECK(!strncmp(text, prefix, strlen(prefix)));
	snprintf(prefix, sizeof(prefix), "instructions), %u branches, 0 "
		 "errors, %u gaps (", w->branches,
		 w->unmapped + w->bad + w->cut_ends);
	CHECK_CONTAINS(text, prefix);
	snprintf(prefix, sizeof(prefix), "%u %s", w->unmapped,
		 hwt_gap_reason_name(HWT_GAP_NO_IMAGE));
	CHECK_CONTAINS(text, prefix);
	CHECK(len > 0 && text[len - 1] == '\n');
	free(text);
}

static void rejects_a_short_run(void)
{
	struct hwt_decode_merged run;
	memset(&run, 0, sizeof(run));
	struct hwt_decode_merged_result res;
	CHECK_INT(hwt_decode_merged(&run, &res), HWT_ERR_INVAL);
	CHECK_INT(hwt_decode_merged(NULL, &res), HWT_ERR_INVAL);
}

static void missing_capture(void)
{
	struct own_counts own;
	memset(&own, 0, sizeof(own));
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 2};
	char path[300];
	snprintf(path, sizeof(path), "%s/none.data", tmp);
	struct hwt_decode_merged run = {
		.size = sizeof(run), .file = path, .opts = &opts,
		.consumer = {own_emit, &own},
	};
	struct hwt_decode_merged_result res;
	CHECK(hwt_decode_merged(&run, &res) < 0);
	CHECK_CONTAINS(hwt_errmsg(), "none.data");
	CHECK_U64(res.counts.elems, 0);
	CHECK_U64(own.elems, 0);
}

static void capture(bool swb, const char *code, unsigned records)
{
	char data[300];
	snprintf(data, sizeof(data), "%s/%s.data", tmp, swb ? "swb" : "bts");
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = {.code_path = code, .swb = swb, .seed = 2,
				.npieces = 5, .records = records};
	CHECK_INT(bts_capture_write(data, &c, w), 0);
	struct bts_written all = sum_written(w);
	CHECK(all.branches > 1000 && all.unmapped > 0 && all.bad > 0);
	if (swb && records > 10000)
		lanes_write_what_one_thread_does(data, &all);
	else if (swb)
		printed_in_time_order(data, &all);
	else
		untimed_into_own_consumer(data, &all);
	unlink(data);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	char code[300];
	snprintf(code, sizeof(code), "%s/code.bin", tmp);
	CHECK_INT(bts_capture_write_code(code), 0);
	capture(true, code, 150);
	capture(true, code, 15000);
	capture(false, code, 150);
	rejects_a_short_run();
	missing_capture();
	unlink(code);
	rmdir(tmp);
	return hwt_test_summary();
}
