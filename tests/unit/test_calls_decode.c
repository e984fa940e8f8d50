/* hwt_calls_decode, the one call `decode --calls` and the Python package
 * list calls through: over hand-made elements (a decode callback) its
 * lines are those the stacks and writer give them, with the namer's
 * function starts applied (a jump to a function's entry is a tail call;
 * without the namer it is none: the control); the elements sink sees
 * every element; a cursor and a decode of the same capture list the same
 * lines; runs that cannot be are refused by name, and a failed write is
 * HWT_ERR_IO. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/calls.h"
#include "hwtrace/capture.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

#define LBR HWT_TESTDATA "/perf-data/simpleperf-lbr/perf_lbr.data"

static uint64_t now;

static void emit(const struct hwt_elem_sink *sink, struct hwt_elem e)
{
	e.fields |= HWT_FIELD_PID | HWT_FIELD_TID | HWT_FIELD_TIME |
		    HWT_FIELD_CPU;
	e.pid = 7;
	e.tid = 7;
	e.cpu = 1;
	e.time = now++;
	CHECK_INT(sink->emit(sink->arg, &e), 0);
}

static void range(const struct hwt_elem_sink *s, uint64_t start, uint64_t end)
{
	struct hwt_elem e = {.type = HWT_ELEM_RANGE};
	e.u.range.start = start;
	e.u.range.end = end;
	e.u.range.insns = (end - start) / 4;
	emit(s, e);
}

static void branch(const struct hwt_elem_sink *s, uint64_t from, uint64_t to,
		   enum hwt_branch_kind kind)
{
	struct hwt_elem e = {.type = HWT_ELEM_BRANCH};
	e.u.branch.from = from;
	e.u.branch.to = to;
	e.u.branch.kind = kind;
	emit(s, e);
}

/* main (0x100) calls f (0x200), which jumps to g's entry (0x300): a
 * tail call when functions are known; g returns to main. */
static int feed(void *arg, const struct hwt_decode_opts *opts,
		const struct hwt_elem_sink *sink)
{
	(void)arg;
	(void)opts;
	now = 1000000000;
	range(sink, 0x100, 0x110);
	branch(sink, 0x10c, 0x200, HWT_BRANCH_CALL);
	range(sink, 0x200, 0x208);
	branch(sink, 0x204, 0x300, HWT_BRANCH_JUMP);
	range(sink, 0x300, 0x30c);
	branch(sink, 0x308, 0x110, HWT_BRANCH_RETURN);
	range(sink, 0x110, 0x118);
	return 0;
}

static const char *name_of(void *arg, int32_t pid, uint64_t addr,
			   uint64_t *start)
{
	(void)arg;
	(void)pid;
	static const char *const names[] = {"main", "f", "g"};
	uint64_t i = (addr >> 8) - 1;
	if (i > 2)
		return NULL;
	*start = addr & ~0xffull;
	return names[i];
}

static uint64_t counted;

static int count(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	counted++;
	return 0;
}

/* The lines of a run over feed, namer or none. */
static char *listing(const struct hwt_func_namer *namer,
		     struct hwt_stack_decode_result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink elements = {count, NULL};
	struct hwt_stack_decode d = {
		.size = sizeof(d), .opts = &opts, .per_cpu = true,
		.decode = feed, .elements = &elements,
	};
	struct hwt_calls_decode run = {
		.size = sizeof(run), .out = out, .format = HWT_OUTPUT_TEXT,
		.namer = namer, .decode = &d,
	};
	counted = 0;
	CHECK_INT(hwt_calls_decode(&run, res), 0);
	fclose(out);
	return buf;
}

static void test_hand_made(void)
{
	struct hwt_func_namer namer = {.name = name_of};
	struct hwt_stack_decode_result res;
	char *got = listing(&namer, &res);
	/* main is running when the trace starts (inferred); f is entered at
	 * its call (time 1.000000001); its jump to g's entry (.000000003)
	 * is a tail call that replaces it; g returns (.000000005) to main,
	 * which ends with the trace (.000000006). Instructions: f 2, g 3,
	 * main 4 + 2 of its own, 11 in all. */
	CHECK_STR(got,
		  "1.000000000 [001] 7/7 -> main [inferred]\n"
		  "1.000000001 [001] 7/7   -> f\n"
		  "1.000000003 [001] 7/7   <- f  2 insns [replaced]\n"
		  "1.000000003 [001] 7/7   -> g [tail]\n"
		  "1.000000005 [001] 7/7   <- g  3 insns\n"
		  "1.000000006 [001] 7/7 <- main  11 insns [end]\n");
	CHECK_U64(counted, 7);
	CHECK_U64(res.stack.entered, 2);
	free(got);
	/* The control: no names, no function starts: the jump is no call,
	 * so 0x200's frame runs on into g's code (2 + 3 instructions). */
	got = listing(NULL, &res);
	CHECK_STR(got, "1.000000000 [001] 7/7 -> 0x100 [inferred]\n"
		       "1.000000001 [001] 7/7   -> 0x200\n"
		       "1.000000005 [001] 7/7   <- 0x200  5 insns\n"
		       "1.000000006 [001] 7/7 <- 0x100  11 insns [end]\n");
	CHECK_U64(res.stack.entered, 1);
	free(got);
}

/* The whole listing of @path, from a decode (cur NULL) or a cursor. */
static char *capture_listing(struct hwt_cursor *cur)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_stack_decode d = {.size = sizeof(d), .file = LBR,
				     .opts = &opts};
	struct hwt_calls_decode run = {
		.size = sizeof(run), .out = out, .format = HWT_OUTPUT_JSONL,
		.decode = cur ? NULL : &d, .cursor = cur,
	};
	CHECK_INT(hwt_calls_decode(&run, NULL), 0);
	fclose(out);
	return buf;
}

static unsigned warnings;

static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
	warnings++;
}

static void test_cursor_as_decode(void)
{
	struct hwt_capture *cap = NULL;
	CHECK_INT(hwt_capture_open(LBR, NULL, &cap), 0);
	struct hwt_cursor *cur = NULL;
	/* Its warnings to a callback, as the decode has them, not as
	 * error elements (which end the stacks' frames with "error"). */
	struct hwt_cursor_opts co = {.size = sizeof(co), .warn = quiet};
	CHECK_INT(hwt_cursor_new(cap, &co, &cur), 0);
	char *a = capture_listing(NULL), *b = capture_listing(cur);
	CHECK(a && strstr(a, "{\"type\":\"call\"") != NULL);
	CHECK_STR(b, a);
	free(a);
	free(b);
	hwt_cursor_free(cur);
	hwt_capture_free(cap);
}

static void test_refused(void)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_stack_decode d = {.size = sizeof(d), .opts = &opts,
				     .decode = feed};
	struct hwt_cursor *fake = (struct hwt_cursor *)&d; /* never used */
	struct hwt_calls_decode run = {.size = sizeof(run), .out = stdout};
	CHECK_INT(hwt_calls_decode(&run, NULL), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "hwt_calls_decode: give a decode or a "
		  "cursor, not neither");
	run.decode = &d;
	run.cursor = fake;
	CHECK_INT(hwt_calls_decode(&run, NULL), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "hwt_calls_decode: give a decode or a "
		  "cursor, not both");
	run.cursor = NULL;
	run.out = NULL;
	CHECK_INT(hwt_calls_decode(&run, NULL), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "hwt_calls_decode: no output");
	run.out = stdout;
	run.size = sizeof(size_t);
	CHECK_INT(hwt_calls_decode(&run, NULL), HWT_ERR_INVAL);
	CHECK_INT(hwt_calls_decode(NULL, NULL), HWT_ERR_INVAL);
	/* A stream that cannot be written. */
	FILE *full = fopen("/dev/full", "w");
	CHECK(full != NULL);
	/* Unbuffered: the write itself fails, not a later flush. */
	setvbuf(full, NULL, _IONBF, 0);
	run.size = sizeof(run);
	run.out = full;
	CHECK_INT(hwt_calls_decode(&run, NULL), HWT_ERR_IO);
	fclose(full);
}

int main(void)
{
	RUN(test_hand_made);
	RUN(test_cursor_as_decode);
	RUN(test_refused);
	return hwt_test_summary();
}
