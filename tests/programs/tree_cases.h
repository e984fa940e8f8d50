/* The cases call_tree.c and stacks/stk_tree.c share, with their counters:
 * recursion (fib), longjmp out of a recursion (jump_outer, dive), a tail
 * call (tail_caller jumps to tail_target), a signal handler (on_signal)
 * and where tracing stops (tree_done). Every function counts its entries
 * and has one caller function by construction, so the programs can print
 * their own call tree. Included once per program. */
#ifndef HWT_TESTS_PROGRAMS_TREE_CASES_H
#define HWT_TESTS_PROGRAMS_TREE_CASES_H

#include <setjmp.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

/* Hides a value from the optimiser, so that no call becomes a loop or a
 * jump unless the program says so. */
#define OPAQUE(v) __asm__ volatile("" : "+r"(v))

static unsigned fib_calls, jump_outer_calls, dive_calls, tail_caller_calls,
	tail_target_calls, on_signal_calls, dives_unwound;
static jmp_buf env;
static volatile int sink;

int fib(int n);
int NOINLINE fib(int n)
{
	fib_calls++;
	if (n < 2)
		return n;
	int a = fib(n - 1);
	OPAQUE(a);
	int b = fib(n - 2);
	OPAQUE(b);
	return a + b;
}

/* dive(depth) calls itself down to depth 1, which longjmps back into
 * jump_outer: every dive frame ends without its return. */
void dive(int depth);
void NOINLINE dive(int depth)
{
	dive_calls++;
	if (depth <= 0)
		return;
	if (depth == 1) {
		dives_unwound = dive_calls;
		longjmp(env, 1);
	}
	dive(depth - 1);
	sink++; /* never reached: keeps the call from being a tail call */
}

int jump_outer(void);
int NOINLINE jump_outer(void)
{
	jump_outer_calls++;
	if (setjmp(env))
		return 1;
	dive(5);
	return 0;
}

int tail_target(int x);
int NOINLINE tail_target(int x)
{
	tail_target_calls++;
	return x * 3 + sink;
}

/* The one tail call: a jump at every optimisation level (clang's
 * musttail, gcc's sibling-call pass forced on this function). */
int tail_caller(int x);
#if defined(__clang__)
int NOINLINE tail_caller(int x)
{
	tail_caller_calls++;
	__attribute__((musttail)) return tail_target(x + 1);
}
#else
int NOINLINE __attribute__((optimize("O2", "optimize-sibling-calls")))
tail_caller(int x)
{
	tail_caller_calls++;
	return tail_target(x + 1);
}
#endif

void on_signal(int sig);
void NOINLINE on_signal(int sig)
{
	(void)sig;
	on_signal_calls++;
}

void tree_done(void);
void NOINLINE tree_done(void)
{
	__asm__ volatile("" ::: "memory");
}

#endif
