/* hwt_stack_decode_files: several captures decoded in turn into the same
 * stacks, as `report FILE...` and `export FILE...` run them.
 *
 * Oracle: `hwtrace report` of the Intel PT capture of the test data
 * prints "4 calls (0 call instructions, 0 tail calls, 4 traps), 0 returns
 * in 1 threads (max depth 2); ... 6 frames ended by lost trace"; given it
 * twice, it prints that line for each. `hwtrace report PT ETM` (the
 * CoreSight capture second) fails with "ETM: its trace's time is of
 * another clock than PT's: report them apart".
 *
 * Checked: each capture's result as the oracle says, the frames of both
 * going to the one ops (twice one capture's), the hooks in order, the
 * symbolizer started anew for the second capture, the clock check (and,
 * as its positive control, the same two captures decoded without it),
 * a hook's error stopping the run, and the argument errors. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define ETM HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"

struct seen {
	uint64_t exits;
	char hooks[64];            /* "b0e0b1e1": begin and end, in order */
	struct hwt_symbolizer **slot;
	bool sym_at[2];            /* a symbolizer at each begin */
	int fail_begin;            /* begin of this capture fails (-1: none) */
};

static int on_exit_frame(void *arg, const struct hwt_frame *f)
{
	(void)f;
	((struct seen *)arg)->exits++;
	return 0;
}

static int on_enter_frame(void *arg, const struct hwt_frame *f)
{
	(void)arg;
	(void)f;
	return 0;
}

static int begin(void *arg, size_t i, const char *file)
{
	struct seen *s = arg;
	(void)file;
	size_t n = strlen(s->hooks);
	snprintf(s->hooks + n, sizeof(s->hooks) - n, "b%zu", i);
	if (s->slot && i < 2)
		s->sym_at[i] = *s->slot != NULL;
	return (int)i == s->fail_begin ? HWT_ERR_CONFIG : 0;
}

static int end(void *arg, size_t i, int err)
{
	struct seen *s = arg;
	size_t n = strlen(s->hooks);
	snprintf(s->hooks + n, sizeof(s->hooks) - n, "e%zu%s", i,
		 err ? "!" : "");
	return 0;
}

static struct hwt_decode_opts opts;

static void run_of(struct hwt_stack_decode_files *run, struct seen *s,
		   const char *const *files, size_t n,
		   struct hwt_stack_decode_result *results)
{
	memset(s, 0, sizeof(*s));
	s->fail_begin = -1;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	*run = (struct hwt_stack_decode_files){
		.size = sizeof(*run),
		.each = {
			.size = sizeof(run->each),
			.opts = &opts,
			.ops = {.on_enter = on_enter_frame,
				.on_exit = on_exit_frame, .arg = s},
		},
		.files = files, .nfiles = n,
		.begin = begin, .end = end, .arg = s,
		.results = results,
	};
}

static void check_pt(const struct hwt_stack_decode_result *r)
{
	CHECK_U64(r->stack.traps, 4);
	CHECK_U64(r->stack.calls, 0);
	CHECK_U64(r->stack.tail_calls, 0);
	CHECK_U64(r->stack.returns, 0);
	CHECK_U64(r->stack.threads, 1);
	CHECK_U64(r->stack.max_depth, 2);
	CHECK_U64(r->stack.cut_by_gap, 6);
}

static void test_two_captures(void)
{
	static const char *const files[] = {PT, PT};
	struct hwt_stack_decode_result res[2], one;
	struct hwt_stack_decode_files run;
	struct seen s, single;
	run_of(&run, &single, files, 1, &one);
	CHECK_INT(hwt_stack_decode_files(&run), 0);
	check_pt(&one);
	CHECK_STR(single.hooks, "b0e0");
	run_of(&run, &s, files, 2, res);
	run.same_clock = true;
	CHECK_INT(hwt_stack_decode_files(&run), 0);
	check_pt(&res[0]);
	check_pt(&res[1]);
	CHECK_STR(s.hooks, "b0e0b1e1");
	CHECK(single.exits > 0);
	CHECK_U64(s.exits, 2 * single.exits);
}

/* The first capture's symbolizer is the caller's; the second's is
 * started from the setup, the first freed. */
static void test_symbols_restarted(void)
{
	static const char *const files[] = {PT, PT};
	struct hwt_stack_decode_result res[2];
	struct hwt_stack_decode_files run;
	struct seen s;
	run_of(&run, &s, files, 2, res);
	struct hwt_sym_setup setup = {
		.size = sizeof(setup), .lookup = &opts.lookup, .capture = PT,
	};
	struct hwt_symbolizer *sym = NULL;
	s.slot = &sym;
	run.symbols = &setup;
	run.sym = &sym;
	run.sym_opts = &opts;
	CHECK_INT(hwt_stack_decode_files(&run), 0);
	CHECK(!s.sym_at[0]);
	CHECK(s.sym_at[1]);
	CHECK(sym != NULL);
	check_pt(&res[1]);
	hwt_symbolizer_free(sym);
}

static void test_clock_check(void)
{
	static const char *const files[] = {PT, ETM};
	struct hwt_stack_decode_result res[2];
	struct hwt_stack_decode_files run;
	struct seen s;
	run_of(&run, &s, files, 2, res);
	run.same_clock = true;
	CHECK_INT(hwt_stack_decode_files(&run), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), ETM ": its trace's time is of another clock "
		  "than " PT "'s: report them apart");
	CHECK_STR(s.hooks, "b0e0e1!");
	check_pt(&res[0]);
	/* Positive control: without the check both decode. */
	run_of(&run, &s, files, 2, res);
	CHECK_INT(hwt_stack_decode_files(&run), 0);
	CHECK_STR(s.hooks, "b0e0b1e1");
	CHECK_U64(res[1].stack.traps, 0);
	check_pt(&res[0]);
}

static void test_hook_stops(void)
{
	static const char *const files[] = {PT, PT, PT};
	struct hwt_stack_decode_result res[3];
	struct hwt_stack_decode_files run;
	struct seen s;
	run_of(&run, &s, files, 3, res);
	s.fail_begin = 1;
	CHECK_INT(hwt_stack_decode_files(&run), HWT_ERR_CONFIG);
	CHECK_STR(s.hooks, "b0e0b1e1!");
	CHECK_U64(res[1].stack.traps, 0);
}

static void test_errors(void)
{
	static const char *const files[] = {PT};
	struct hwt_stack_decode_result res[1];
	struct hwt_stack_decode_files run;
	struct seen s;
	CHECK_INT(hwt_stack_decode_files(NULL), HWT_ERR_INVAL);
	run_of(&run, &s, files, 0, res);
	CHECK_INT(hwt_stack_decode_files(&run), HWT_ERR_INVAL);
	run_of(&run, &s, files, 1, NULL);
	CHECK_INT(hwt_stack_decode_files(&run), HWT_ERR_INVAL);
	run_of(&run, &s, files, 1, res);
	run.size = sizeof(run) - 1;
	CHECK_INT(hwt_stack_decode_files(&run), HWT_ERR_INVAL);
	struct hwt_symbolizer *sym = NULL;
	run_of(&run, &s, files, 1, res);
	run.sym = &sym;
	CHECK_INT(hwt_stack_decode_files(&run), HWT_ERR_INVAL);
	CHECK_STR(s.hooks, "");
}

int main(void)
{
	RUN(test_two_captures);
	RUN(test_symbols_restarted);
	RUN(test_clock_check);
	RUN(test_hook_stops);
	RUN(test_errors);
	return hwt_test_summary();
}
