/* Call-stack reconstruction on element streams built by hand, one per hard
 * case: nesting, a trace that starts mid-stack, longjmp, tail calls, traps
 * and signal returns, trace off/on, gaps, 10,000-deep recursion, and time
 * going backwards. Each frame that ends is logged as one line, so every
 * case compares the whole log with the exact expected one. */
#include <stdbool.h>

#include "harness.h"
#include "hwtrace/stack.h"

static char log_buf[1 << 16];
static size_t log_len;

static uint64_t self_times[8];
static size_t nself;

static int on_exit_log(void *arg, const struct hwt_frame *f)
{
	(void)arg;
	if (nself < 8)
		self_times[nself++] = f->self_time;
	int n = snprintf(log_buf + log_len, sizeof(log_buf) - log_len,
			 "%" PRIx64 " d%d %s..%s t%" PRIu64 "-%" PRIu64
			 " i%" PRIu64 "/%" PRIu64 " b%" PRIu64 "/%" PRIu64
			 " up%" PRIx64 "\n",
			 f->func, f->depth, hwt_frame_start_name(f->start),
			 hwt_frame_end_name(f->end), f->call_time,
			 f->return_time, f->insns_self, f->insns_total,
			 f->branches_self, f->branches_total,
			 f->caller ? f->caller->func : 0);
	if (n > 0 && log_len + (size_t)n < sizeof(log_buf))
		log_len += (size_t)n;
	return 0;
}

/* Symbols for the tests that have them: functions are 0x100 bytes long
 * and start at a multiple of 0x100 (0x500's is the tail-call target). */
static bool function_start(void *arg, int32_t pid, uint64_t addr,
			   uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = addr & ~0xffull;
	return true;
}

/* 0x900-0x9ff is the part split off 0x200's function (a.cold). */
static bool function_parent(void *arg, int32_t pid, uint64_t addr,
			    uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = (addr & ~0xffull) == 0x900 ? 0x200 : addr & ~0xffull;
	return true;
}

static struct hwt_stack *stack;
static struct hwt_elem_sink sink;
static uint64_t now;

static void begin_parts(bool symbols, bool parts)
{
	struct hwt_stack_ops ops = {.on_exit = on_exit_log};
	if (symbols)
		ops.function_start = function_start;
	if (parts)
		ops.function_parent = function_parent;
	stack = hwt_stack_new(&ops);
	sink = hwt_stack_sink(stack);
	log_len = 0;
	log_buf[0] = 0;
	nself = 0;
	now = 100;
}

static void begin(bool symbols)
{
	begin_parts(symbols, false);
}

static void emit(struct hwt_elem e)
{
	e.fields |= HWT_FIELD_TID | HWT_FIELD_TIME | HWT_FIELD_CPU;
	e.tid = 7;
	e.cpu = 1;
	e.time = now++;
	CHECK_INT(sink.emit(sink.arg, &e), 0);
}

/* Instructions [start, end), as many as their bytes / 4. */
static void range(uint64_t start, uint64_t end)
{
	struct hwt_elem e = {.type = HWT_ELEM_RANGE};
	e.u.range.start = start;
	e.u.range.end = end;
	e.u.range.insns = (end - start) / 4;
	emit(e);
}

static void branch(uint64_t from, uint64_t to, enum hwt_branch_kind kind)
{
	struct hwt_elem e = {.type = HWT_ELEM_BRANCH};
	e.u.branch.from = from;
	e.u.branch.to = to;
	e.u.branch.kind = kind;
	emit(e);
}

/* A call at the last instruction of [start, end): returns to end. */
static void call(uint64_t start, uint64_t end, uint64_t to)
{
	range(start, end);
	branch(end - 4, to, HWT_BRANCH_CALL);
}

static void ret(uint64_t start, uint64_t end, uint64_t to)
{
	range(start, end);
	branch(end - 4, to, HWT_BRANCH_RETURN);
}

static void end_and_check(const char *want, const char *what)
{
	CHECK_INT(hwt_stack_finish(stack), 0);
	if (strcmp(log_buf, want)) {
		HWT_FAIL("%s: frames\n%s\nwant\n%s", what, log_buf, want);
	}
	hwt_test_checks++;
}

static void test_nesting(void)
{
	begin(false);
	call(0x100, 0x110, 0x200);   /* main -> f, 4 insns */
	call(0x200, 0x208, 0x300);   /* f -> g, 2 insns */
	ret(0x300, 0x30c, 0x208);    /* g: 3 insns */
	ret(0x208, 0x20c, 0x110);    /* f: 1 more */
	range(0x110, 0x118);         /* main: 2 more */
	end_and_check("300 d2 called..returned t103-105 i3/3 b1/1 up200\n"
		      "200 d1 called..returned t101-107 i3/6 b2/3 up100\n"
		      "100 d0 inferred..end t100-108 i6/12 b1/4 up0\n",
		      "nesting");
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.calls, 2);
	CHECK_U64(st.returns, 2);
	CHECK_U64(st.max_depth, 3);
	CHECK_U64(st.inferred, 0);
	/* Durations less the callees': g 2, f 6 - 2, the root 8 - 6. */
	CHECK_INT(nself, 3);
	CHECK_U64(self_times[0], 2);
	CHECK_U64(self_times[1], 4);
	CHECK_U64(self_times[2], 2);
	hwt_stack_free(stack);
}

/* The trace starts in g, which returns to f, which returns to main. */
static void test_mid_stack_start(void)
{
	begin(false);
	ret(0x300, 0x30c, 0x208);
	ret(0x208, 0x20c, 0x110);
	range(0x110, 0x118);
	end_and_check("300 d0 inferred..returned t100-101 i3/3 b1/1 up0\n"
		      "208 d-1 inferred..returned t100-103 i1/4 b1/2 up0\n"
		      "110 d-2 inferred..end t100-104 i2/6 b0/2 up0\n",
		      "mid-stack start");
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.inferred, 2);
	/* g 1; f ran 100-103 with g inside it for 1; main 100-104. */
	CHECK_U64(self_times[0], 1);
	CHECK_U64(self_times[1], 2);
	CHECK_U64(self_times[2], 1);
	hwt_stack_free(stack);
}

/* main -> a -> b -> c; c longjmps (an indirect jump) back into a, which
 * then returns to main: b and c end without returning. Until that return
 * shows the unwinding, what runs after the jump counts in c (nothing
 * before it says that the jump left c). */
static void test_longjmp(void)
{
	begin(false);
	call(0x100, 0x104, 0x200);
	call(0x200, 0x204, 0x300);
	call(0x300, 0x304, 0x400);
	range(0x400, 0x404);
	branch(0x400, 0x240, HWT_BRANCH_INDIRECT);
	ret(0x240, 0x244, 0x104);
	end_and_check("400 d3 called..no_return t105-109 i2/2 b2/2 up300\n"
		      "300 d2 called..no_return t103-109 i1/3 b1/3 up200\n"
		      "200 d1 called..returned t101-109 i1/4 b1/4 up100\n"
		      "100 d0 inferred..end t100-109 i1/5 b1/5 up0\n",
		      "longjmp");
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.no_return, 2);
	hwt_stack_free(stack);
}

/* The same longjmp with symbols: the indirect jump lands in the middle of
 * a's function, a frame further down, so b and c end at the jump. */
static void test_longjmp_with_symbols(void)
{
	begin(true);
	call(0x100, 0x104, 0x200);
	call(0x200, 0x204, 0x300);
	call(0x300, 0x304, 0x400);
	range(0x400, 0x404);
	branch(0x400, 0x240, HWT_BRANCH_INDIRECT);
	ret(0x240, 0x244, 0x104);
	end_and_check("400 d3 called..no_return t105-107 i1/1 b1/1 up300\n"
		      "300 d2 called..no_return t103-107 i1/2 b1/2 up200\n"
		      "200 d1 called..returned t101-109 i2/4 b2/4 up100\n"
		      "100 d0 inferred..end t100-109 i1/5 b1/5 up0\n",
		      "longjmp with symbols");
	hwt_stack_free(stack);
	/* A jump inside the top frame's own function (a switch) is nothing. */
	begin(true);
	call(0x100, 0x104, 0x200);
	range(0x200, 0x204);
	branch(0x200, 0x280, HWT_BRANCH_INDIRECT);
	ret(0x280, 0x284, 0x104);
	end_and_check("200 d1 called..returned t101-105 i2/2 b2/2 up100\n"
		      "100 d0 inferred..end t100-105 i1/3 b1/3 up0\n",
		      "switch jump");
	hwt_stack_free(stack);
}

/* f tail-calls the function at 0x500, which returns to f's caller. */
static void test_tail_call(void)
{
	begin(true);
	call(0x100, 0x104, 0x200);
	range(0x200, 0x208);
	branch(0x204, 0x500, HWT_BRANCH_JUMP);
	ret(0x500, 0x504, 0x104);
	end_and_check("200 d1 called..replaced t101-103 i2/2 b1/1 up100\n"
		      "500 d1 tail..returned t103-105 i1/1 b1/1 up100\n"
		      "100 d0 inferred..end t100-105 i1/4 b1/3 up0\n",
		      "tail call");
	hwt_stack_free(stack);
	/* Without symbols the jump is a jump, and the return still matches. */
	begin(false);
	call(0x100, 0x104, 0x200);
	range(0x200, 0x208);
	branch(0x204, 0x500, HWT_BRANCH_JUMP);
	ret(0x500, 0x504, 0x104);
	end_and_check("200 d1 called..returned t101-105 i3/3 b2/2 up100\n"
		      "100 d0 inferred..end t100-105 i1/4 b1/3 up0\n",
		      "jump without symbols");
	hwt_stack_free(stack);
}

/* main -> a; a jumps to its cold part (a.cold, 0x900), which calls b;
 * b throws: the unwinder's indirect jump lands in a.cold again (the
 * landing pad), which jumps back into a; a calls b again, which throws
 * to a landing pad in a, and a returns. The jumps between a and its part
 * stay in a's frame, and each landing pad unwinds b at once. Without the
 * parts known, the jump to a.cold's first instruction is a tail call
 * that replaces a, so the second landing pad, in a, finds no frame of a:
 * b runs on (its frame gets a's instructions) until a's return. */
static void parts_program(void)
{
	call(0x100, 0x104, 0x200);
	range(0x200, 0x208);
	branch(0x204, 0x900, HWT_BRANCH_JUMP);
	call(0x900, 0x908, 0x300);
	range(0x300, 0x30c);
	branch(0x308, 0x940, HWT_BRANCH_INDIRECT);
	range(0x940, 0x948);
	branch(0x944, 0x250, HWT_BRANCH_JUMP);
	call(0x250, 0x258, 0x300);
	range(0x300, 0x30c);
	branch(0x308, 0x270, HWT_BRANCH_INDIRECT);
	ret(0x270, 0x274, 0x104);
}

static void test_split_function_parts(void)
{
	begin_parts(true, true);
	parts_program();
	end_and_check("300 d2 called..no_return t105-107 i3/3 b1/1 up200\n"
		      "300 d2 called..no_return t111-113 i3/3 b1/1 up200\n"
		      "200 d1 called..returned t101-115 i9/15 b5/7 up100\n"
		      "100 d0 inferred..end t100-115 i1/16 b1/8 up0\n",
		      "split parts");
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.tail_calls, 0);
	CHECK_U64(st.no_return, 2);
	CHECK_U64(st.entered, 3);
	hwt_stack_free(stack);
	begin_parts(true, false);
	parts_program();
	end_and_check("200 d1 called..replaced t101-103 i2/2 b1/1 up100\n"
		      "300 d2 called..no_return t105-107 i3/3 b1/1 up900\n"
		      "300 d2 called..no_return t111-115 i4/4 b2/2 up900\n"
		      "900 d1 tail..returned t103-115 i6/13 b3/6 up100\n"
		      "100 d0 inferred..end t100-115 i1/16 b1/8 up0\n",
		      "parts unknown");
	hwt_stack_free(stack);
}

/* A syscall into a traced kernel nests a level; sysret leaves it, ending
 * what the kernel left open. A signal (an interrupt into the handler) and
 * its rt_sigreturn (a syscall that resumes where the signal came). */
static void test_traps(void)
{
	begin(false);
	call(0x100, 0x104, 0x200);
	range(0x200, 0x204);
	branch(0x200, 0xffffffff81000000ull, HWT_BRANCH_SYSCALL);
	call(0xffffffff81000000ull, 0xffffffff81000004ull,
	     0xffffffff81000100ull);
	range(0xffffffff81000100ull, 0xffffffff81000104ull);
	branch(0xffffffff81000100ull, 0x202, HWT_BRANCH_SYSRET);
	range(0x202, 0x206);
	branch(0x206, 0x600, HWT_BRANCH_INTERRUPT);  /* signal at 0x206 */
	ret(0x600, 0x604, 0x700);                    /* handler -> restorer */
	range(0x700, 0x704);
	branch(0x700, 0x206, HWT_BRANCH_SYSCALL);    /* rt_sigreturn */
	ret(0x206, 0x20a, 0x104);
	end_and_check("ffffffff81000100 d3 called..no_return t105-107 i1/1 b1/1 up"
		      "ffffffff81000000\n"
		      "ffffffff81000000 d2 trap..returned t103-107 i1/2 b1/2 up200\n"
		      "600 d2 trap..returned t109-113 i2/2 b2/2 up200\n"
		      "200 d1 called..returned t101-115 i3/7 b3/7 up100\n"
		      "100 d0 inferred..end t100-115 i1/8 b1/8 up0\n",
		      "traps");
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.traps, 2);
	CHECK_U64(st.unmatched_returns, 1); /* the handler's return */
	hwt_stack_free(stack);
}

static void trace(enum hwt_elem_type type, uint64_t at)
{
	struct hwt_elem e = {.type = type, .fields = HWT_FIELD_AT};
	e.u.trace.at = at;
	emit(e);
}

/* Trace off and on at the same address keeps the stack; on elsewhere,
 * and a gap, end it with their marker and start over. */
static void test_off_on_and_gaps(void)
{
	begin(false);
	call(0x100, 0x104, 0x200);
	trace(HWT_ELEM_TRACE_OFF, 0x204);
	trace(HWT_ELEM_TRACE_ON, 0x204);
	ret(0x204, 0x208, 0x104);
	call(0x104, 0x108, 0x300);
	trace(HWT_ELEM_TRACE_OFF, 0x304);
	trace(HWT_ELEM_TRACE_ON, 0x900);
	range(0x900, 0x904);
	struct hwt_elem gap = {.type = HWT_ELEM_GAP};
	gap.u.gap.reason = HWT_GAP_OVERFLOW;
	emit(gap);
	range(0xa00, 0xa04);
	end_and_check("200 d1 called..returned t101-105 i1/1 b1/1 up100\n"
		      "300 d1 called..trace_off t107-109 i0/0 b0/0 up100\n"
		      "100 d0 inferred..trace_off t100-109 i2/3 b2/3 up0\n"
		      "900 d0 inferred..gap t110-111 i1/1 b0/0 up0\n"
		      "a00 d0 inferred..end t112-112 i1/1 b0/0 up0\n",
		      "trace off/on and gaps");
	hwt_test_checks++;
	hwt_stack_free(stack);
}

/* 10,000 nested calls and their returns: no recursion in hwtrace. */
static void test_deep_recursion(void)
{
	begin(false);
	for (int i = 0; i < 10000; i++)
		call(0x1000, 0x1010, 0x1000);
	for (int i = 0; i < 10000; i++)
		ret(0x1010, 0x1014, 0x1010);
	CHECK_INT(hwt_stack_finish(stack), 0);
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.max_depth, 10001);
	CHECK_U64(st.calls, 10000);
	CHECK_U64(st.returns, 10000);
	CHECK_U64(st.inferred, 0);
	hwt_stack_free(stack);
}

/* An element older than the thread's last: counted, its time clamped, so
 * no frame has a negative duration. */
static void test_time_backwards(void)
{
	begin(false);
	call(0x100, 0x104, 0x200);
	now = 50;
	ret(0x200, 0x204, 0x104);
	end_and_check("200 d1 called..returned t101-101 i1/1 b1/1 up100\n"
		      "100 d0 inferred..end t100-101 i1/2 b1/2 up0\n",
		      "time backwards");
	struct hwt_stack_stats st;
	hwt_stack_get_stats(stack, &st);
	CHECK_U64(st.time_backwards, 2);
	hwt_stack_free(stack);
}

int main(void)
{
	test_nesting();
	test_mid_stack_start();
	test_longjmp();
	test_longjmp_with_symbols();
	test_tail_call();
	test_split_function_parts();
	test_traps();
	test_off_on_and_gaps();
	test_deep_recursion();
	test_time_backwards();
	hwt_stack_free(NULL);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
