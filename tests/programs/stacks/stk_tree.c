/* A C program that knows its own call tree, for the call-stack corpus
 * (tests/integration/test_stacks_match_program.sh builds it with gcc and
 * clang at several optimisation levels). Every instrumented function
 * counts its entries and has one caller function by construction, so
 * after tree_done() (where tracing stops) the program prints its tree:
 * "CALLER CALLEE COUNT" for each edge ("signal" and "qsort" stand for the
 * kernel's signal delivery and libc's sort; a handler entered twice, the
 * first time with a nested signal), "unwound F N" for the frames
 * longjmp left, and "insns F SELF TOTAL" for the functions written in
 * assembly, whose instruction counts the program knows exactly. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tree_cases.h"

static unsigned cmp_calls, sorter_calls, on_outer_calls, on_nested_calls;

/* A signal handler entered twice; the first time it raises another
 * signal, whose handler runs nested in it. */
void on_nested(int sig);
void NOINLINE on_nested(int sig)
{
	(void)sig;
	on_nested_calls++;
}

void on_outer(int sig);
void NOINLINE on_outer(int sig)
{
	(void)sig;
	on_outer_calls++;
	if (on_outer_calls == 1)
		raise(SIGUSR2);
	sink++; /* keeps raise from being a tail call */
}

int cmp(const void *a, const void *b);
int NOINLINE cmp(const void *a, const void *b)
{
	cmp_calls++;
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int sorter(void);
int NOINLINE sorter(void)
{
	static int v[6] = {5, 3, 6, 1, 4, 2};
	sorter_calls++;
	qsort(v, 6, sizeof(v[0]), cmp);
	return v[0];
}

/* Two functions in assembly: insn_leaf runs 4 instructions a call,
 * insn_outer 7 of its own and calls insn_leaf twice (17 in all). */
int insn_outer(int x);
__asm__(".text\n"
	".globl insn_leaf\n.type insn_leaf,@function\n"
	"insn_leaf:\n\tnop\n\tmov %edi,%eax\n\tadd $1,%eax\n\tret\n"
	".size insn_leaf,.-insn_leaf\n"
	".globl insn_outer\n.type insn_outer,@function\n"
	"insn_outer:\n\tpush %rbx\n\tmov %edi,%ebx\n\tcall insn_leaf\n"
	"\tmov %ebx,%edi\n\tcall insn_leaf\n\tpop %rbx\n\tret\n"
	".size insn_outer,.-insn_outer\n");
#define INSN_LEAF 4u
#define INSN_OUTER 7u
#define OUTER_CALLS 3u

int main(void)
{
	sink = fib(10);
	sink += jump_outer();
	sink += tail_caller(4);
	signal(SIGUSR1, on_outer);
	signal(SIGUSR2, on_nested);
	raise(SIGUSR1);
	raise(SIGUSR1);
	sink += sorter();
	for (unsigned i = 0; i < OUTER_CALLS; i++)
		sink += insn_outer((int)i);
	tree_done();
	printf("main fib %u\nfib fib %u\nmain jump_outer %u\n"
	       "jump_outer dive %u\ndive dive %u\nmain tail_caller %u\n"
	       "tail_caller tail_target %u\nsignal on_outer %u\n"
	       "on_outer on_nested %u\n"
	       "main sorter %u\nqsort cmp %u\nmain insn_outer %u\n"
	       "insn_outer insn_leaf %u\nunwound dive %u\n",
	       fib_calls ? 1u : 0u, fib_calls - 1, jump_outer_calls,
	       dive_calls ? 1u : 0u, dive_calls - 1, tail_caller_calls,
	       tail_target_calls, on_outer_calls, on_nested_calls, sorter_calls,
	       cmp_calls,
	       OUTER_CALLS, 2 * OUTER_CALLS, dives_unwound);
	printf("insns insn_outer %u %u\ninsns insn_leaf %u %u\n",
	       OUTER_CALLS * INSN_OUTER,
	       OUTER_CALLS * (INSN_OUTER + 2 * INSN_LEAF),
	       2 * OUTER_CALLS * INSN_LEAF, 2 * OUTER_CALLS * INSN_LEAF);
	return 0;
}
