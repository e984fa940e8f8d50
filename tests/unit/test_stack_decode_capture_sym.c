/* hwt_stack_decode as the stack commands run it: the Intel PT capture of
 * the test data, its kernel named by a kallsyms file written here, with
 * the symbolizer started (hwt_symbolizer_start), its namer given to the
 * stacks (namer) and the --sym filter, the whole capture and one --unit.
 * The frames kept are counted and timed, and checked against what
 * `hwtrace report --kallsyms K --sym entry_SYSCALL_64` prints for the
 * capture (the oracle, run when this test was written):
 *
 *   ...  calls  self ns  total ns  avg ns  max ns  dso  function
 *   ...      4   352440    352440   88110  185870  [kernel.kallsyms]  entry_SYSCALL_64
 *   hwtrace report: 4 calls (0 call instructions, 0 tail calls, 4 traps),
 *   0 returns in 1 threads (max depth 2); ... 6 frames ended by lost trace
 *
 * and `report --partial --unit 2 --sym entry_SYSCALL_64`: one call of
 * 172962 ns. Positive control: without the filter the other functions'
 * frames come too (coreutils, ld-2.23.so, libselinux.so.1), and none are
 * dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"
#include "hwtrace/sym_setup.h"

#define CAPTURE HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define FUNC "entry_SYSCALL_64"

static char kallsyms[] = "/tmp/hwt_stack_capture_sym_XXXXXX";

struct frames {
	const struct hwt_func_namer *namer;
	uint64_t ended, calls, named_func, total_ns, max_ns;
};

static int count_exit(void *arg, const struct hwt_frame *f)
{
	struct frames *c = arg;
	c->ended++;
	c->calls += hwt_frame_is_call(f);
	uint64_t start = 0;
	const char *name = c->namer->name(c->namer->arg, f->pid, f->func,
					  &start);
	c->named_func += name && !strcmp(name, FUNC);
	uint64_t ns = f->has_time ? f->return_time - f->call_time : 0;
	c->total_ns += ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
	return 0;
}

struct run_out {
	struct frames kept, dropped;
	struct hwt_stack_decode_result res;
};

static int run(const char *syms, size_t unit, struct run_out *out)
{
	memset(out, 0, sizeof(*out));
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.jobs = 1;
	opts.warn = NULL;
	struct hwt_sym_setup setup;
	memset(&setup, 0, sizeof(setup));
	setup.size = sizeof(setup);
	setup.sym.kallsyms = kallsyms;
	setup.capture = CAPTURE;
	struct hwt_symbolizer *sym = NULL;
	int err = hwt_symbolizer_start(&setup, &opts, NULL, &sym);
	CHECK_INT(err, 0);
	struct hwt_func_namer namer = hwt_symbolizer_slot_namer(&sym);
	out->kept.namer = out->dropped.namer = &namer;
	struct hwt_stack_decode sd = {
		.size = sizeof(sd),
		.file = CAPTURE,
		.opts = &opts,
		.ops = {.on_exit = count_exit, .arg = &out->kept},
		.syms = syms,
		.sym = sym,
		.dropped = {.on_exit = count_exit, .arg = &out->dropped},
		.namer = &namer,
		.unit = unit,
	};
	if (!err)
		err = hwt_stack_decode(&sd, &out->res);
	hwt_symbolizer_free(sym);
	return err;
}

static void test_whole_capture(void)
{
	struct run_out o;
	CHECK_INT(run(FUNC, 0, &o), 0);
	CHECK_U64(o.kept.ended, 4);
	CHECK_U64(o.kept.calls, 4);
	CHECK_U64(o.kept.named_func, 4);
	CHECK_U64(o.kept.total_ns, 352440);
	CHECK_U64(o.kept.max_ns, 185870);
	/* The stacks saw everything: the report's summary line. */
	CHECK_U64(o.res.stack.entered, 4);
	CHECK_U64(o.res.stack.calls, 0);
	CHECK_U64(o.res.stack.tail_calls, 0);
	CHECK_U64(o.res.stack.traps, 4);
	CHECK_U64(o.res.stack.returns, 0);
	CHECK_U64(o.res.stack.threads, 1);
	CHECK_U64(o.res.stack.max_depth, 2);
	CHECK_U64(o.res.stack.cut_by_gap, 6);
	CHECK(o.res.merged);
	/* The other functions' frames were dropped, none of them FUNC. */
	CHECK(o.dropped.ended > 0);
	CHECK_U64(o.dropped.named_func, 0);

	/* Control: no filter, every frame kept, the same stacks. */
	struct run_out all;
	CHECK_INT(run(NULL, 0, &all), 0);
	CHECK_U64(all.kept.ended, o.kept.ended + o.dropped.ended);
	CHECK_U64(all.kept.named_func, 4);
	CHECK_U64(all.dropped.ended, 0);
	CHECK_U64(all.res.stack.entered, 4);
	CHECK_U64(all.res.stack.cut_by_gap, 6);
}

static void test_one_unit(void)
{
	struct run_out o;
	CHECK_INT(run(FUNC, 2, &o), 0);
	CHECK_U64(o.kept.ended, 1);
	CHECK_U64(o.kept.calls, 1);
	CHECK_U64(o.kept.named_func, 1);
	CHECK_U64(o.kept.total_ns, 172962);
	CHECK_U64(o.res.stack.entered, 1);
	CHECK_U64(o.res.stack.traps, 1);
	CHECK_U64(o.res.stack.cut_by_gap, 0);

	/* A unit the capture does not have: named in the message. */
	CHECK_INT(run(FUNC, 10, &o), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), CAPTURE ", unit 10: no such unit: the "
		  "capture has 9 (hwtrace units lists them)");
}

static int no_decode(void *arg, const struct hwt_decode_opts *opts,
		     const struct hwt_elem_sink *sink)
{
	(void)arg;
	(void)opts;
	(void)sink;
	return 0;
}

/* A unit is of a file: not with a decode callback. */
static void test_unit_with_decode(void)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 1};
	struct hwt_stack_decode sd = {
		.size = sizeof(sd),
		.file = CAPTURE,
		.opts = &opts,
		.decode = no_decode,
		.unit = 1,
	};
	struct hwt_stack_decode_result res;
	CHECK_INT(hwt_stack_decode(&sd, &res), HWT_ERR_INVAL);
	CHECK_CONTAINS(hwt_errmsg(), "a unit is of a capture file");
}

int main(void)
{
	int fd = mkstemp(kallsyms);
	if (fd < 0)
		return 1;
	const char text[] = "ffffffffba000000 T _stext\n"
			    "ffffffffba001340 T " FUNC "\n"
			    "ffffffffba002000 T other\n";
	if (write(fd, text, sizeof(text) - 1) != (ssize_t)sizeof(text) - 1)
		return 1;
	close(fd);
	RUN(test_whole_capture);
	RUN(test_one_unit);
	RUN(test_unit_with_decode);
	unlink(kallsyms);
	return hwt_test_summary();
}
