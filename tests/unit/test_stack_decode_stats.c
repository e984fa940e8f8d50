/* hwt_stack_decode: a generated two-thread capture (bts_capture.h)
 * decoded into call stacks, merged by time or in stream order (--per-cpu),
 * with sinks before and after the stacks, or through a decode of the
 * caller's. Checked against what the capture was written with: two
 * threads and two streams, every branch record seen by both sinks, the
 * merge timed for sw_branch records (the tracer's time) and not for BTS
 * ones (the positive control of `merged`), and the summary line.
 * A decoder's warning is no lost trace: on simpleperf's LBR capture
 * (one thread, one CPU, its binary not in the test data, so the decode
 * warns that the ranges between records have no code) no frame is ended
 * by it and the merge holds one stream; the warning reaches the element
 * sink once, or the caller's warn callback alone when it has one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bts_capture.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"

static char tmp[] = "/tmp/hwt-stack-decode-XXXXXX";

struct seen {
	uint64_t elems, branches;
};

static int seen_emit(void *arg, const struct hwt_elem *e)
{
	struct seen *s = arg;
	s->elems++;
	s->branches += e->type == HWT_ELEM_BRANCH;
	return 0;
}

/* The caller's decode: the whole file, counting its calls. */
struct own_decode {
	const char *file;
	unsigned calls;
};

static int own_decode(void *arg, const struct hwt_decode_opts *opts,
		      const struct hwt_elem_sink *sink)
{
	struct own_decode *d = arg;
	d->calls++;
	return hwt_decode_file(d->file, opts, sink);
}

static unsigned written_branches(const struct bts_written w[BTS_NTHREADS])
{
	unsigned n = 0;
	for (unsigned t = 0; t < BTS_NTHREADS; t++)
		n += w[t].branches;
	return n;
}

static void one_capture(const char *code, bool swb)
{
	char data[300];
	snprintf(data, sizeof(data), "%s/%s.data", tmp, swb ? "swb" : "bts");
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = {.code_path = code, .swb = swb, .seed = 4,
				.npieces = 3, .records = 100};
	CHECK_INT(bts_capture_write(data, &c, w), 0);
	unsigned branches = written_branches(w);
	CHECK(branches > 300);

	for (int per_cpu = 0; per_cpu <= 1; per_cpu++) {
		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			struct seen before, after;
			memset(&before, 0, sizeof(before));
			memset(&after, 0, sizeof(after));
			struct hwt_elem_sink before_sink = {seen_emit, &before};
			struct hwt_elem_sink after_sink = {seen_emit, &after};
			struct own_decode own = {data, 0};
			struct hwt_decode_opts opts = {.size = sizeof(opts),
						       .jobs = jobs};
			struct hwt_stack_decode run = {
				.size = sizeof(run),
				.file = data,
				.opts = &opts,
				.per_cpu = per_cpu,
				.elements = &before_sink,
				.after = &after_sink,
				/* The caller's decode on the second thread count. */
				.decode = jobs == 2 ? own_decode : NULL,
				.decode_arg = &own,
			};
			struct hwt_stack_decode_result res;
			CHECK_INT(hwt_stack_decode(&run, &res), 0);
			CHECK_INT(own.calls, jobs == 2 ? 1 : 0);
			CHECK_U64(res.stack.threads, BTS_NTHREADS);
			CHECK_U64(before.branches, branches);
			CHECK_U64(after.branches, branches);
			CHECK_U64(after.elems, before.elems);
			CHECK_U64(res.merge.streams, per_cpu ? 0 : BTS_NTHREADS);
			CHECK(res.merged == (swb && !per_cpu));
			if (!per_cpu)
				CHECK_U64(res.merge.elements, before.elems);

			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);
			CHECK(f != NULL);
			if (!f)
				continue;
			hwt_stack_decode_print_summary(f, "x: ", &res, per_cpu);
			fclose(f);
			CHECK_CONTAINS(text, " returns in 2 threads (max depth ");
			bool untimed_note = strstr(text, "no timestamps: its 2 "
						   "streams are in stream order") != NULL;
			CHECK(untimed_note == (!swb && !per_cpu));
			free(text);
		}
	}
	unlink(data);
}

#define LBR HWT_TESTDATA "/perf-data/simpleperf-lbr/perf_lbr.data"

struct warnings {
	unsigned elements, called;
	uint64_t others;
};

static int warn_elem_emit(void *arg, const struct hwt_elem *e)
{
	struct warnings *w = arg;
	if (e->type == HWT_ELEM_ERROR &&
	    strstr(e->u.error.message, "have no range element"))
		w->elements++;
	else if (e->type == HWT_ELEM_ERROR || e->type == HWT_ELEM_GAP)
		w->others++;
	return 0;
}

static void warn_called(void *arg, const char *message)
{
	struct warnings *w = arg;
	w->called += strstr(message, "have no range element") != NULL;
}

static void warning_ends_no_frame(void)
{
	for (int callback = 0; callback <= 1; callback++) {
		struct warnings w = {0, 0, 0};
		struct hwt_elem_sink sink = {warn_elem_emit, &w};
		struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 1};
		if (callback) {
			opts.warn = warn_called;
			opts.warn_arg = &w;
		}
		struct hwt_stack_decode run = {.size = sizeof(run), .file = LBR,
					       .opts = &opts, .elements = &sink};
		struct hwt_stack_decode_result res;
		CHECK_INT(hwt_stack_decode(&run, &res), 0);
		CHECK_U64(res.stack.threads, 1);
		CHECK_U64(res.stack.cut_by_gap, 0);
		CHECK_U64(res.merge.streams, 1);
		CHECK_U64(w.others, 0);
		CHECK_INT(w.elements, callback ? 0 : 1);
		CHECK_INT(w.called, callback ? 1 : 0);
	}
}

static void rejects_a_short_run(void)
{
	struct hwt_stack_decode run;
	memset(&run, 0, sizeof(run));
	struct hwt_stack_decode_result res;
	CHECK_INT(hwt_stack_decode(&run, &res), HWT_ERR_INVAL);
	CHECK_INT(hwt_stack_decode(NULL, &res), HWT_ERR_INVAL);
}

static void missing_capture(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/none.data", tmp);
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 1};
	struct hwt_stack_decode run = {.size = sizeof(run), .file = path,
				       .opts = &opts};
	struct hwt_stack_decode_result res;
	CHECK(hwt_stack_decode(&run, &res) < 0);
	CHECK_CONTAINS(hwt_errmsg(), "none.data");
	CHECK_U64(res.stack.threads, 0);
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
	one_capture(code, true);
	one_capture(code, false);
	warning_ends_no_frame();
	rejects_a_short_run();
	missing_capture();
	unlink(code);
	rmdir(tmp);
	return hwt_test_summary();
}
