/* A program that knows its own call tree. Each instrumented function
 * counts its own calls; every one of them has one caller function by
 * construction (fib's first call comes from main, the rest from fib), so
 * after tree_done() (where tracing stops) the program prints "CALLER
 * CALLEE COUNT" for every edge, and "unwound F N" for the frames it left
 * by longjmp: the oracle for call-stack tests. Counting in the callee
 * also keeps the compiler from merging calls (leaf has a side effect).
 * Cases: recursion (fib(12): 465 calls, depth 12), longjmp out of depth 5,
 * a tail call (tail_caller jumps to tail_target), a signal handler, two
 * threads, and a forked child that is not traced. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tree_cases.h"

static unsigned worker_calls, leaf_calls, child_work_calls;

int leaf(int x);
int NOINLINE leaf(int x)
{
	leaf_calls++;
	return x + 1;
}

int worker(int x);
int NOINLINE worker(int x)
{
	worker_calls++;
	return leaf(x) + leaf(x + 1) - leaf(x);
}

static void *thread_main(void *arg)
{
	sink += worker((int)(long)arg);
	return NULL;
}

int child_work(int x);
int NOINLINE child_work(int x)
{
	child_work_calls++;
	return x - 1;
}

int main(void)
{
	sink = fib(12);
	sink += jump_outer();
	sink += tail_caller(4);
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	pthread_t a, b;
	if (pthread_create(&a, NULL, thread_main, (void *)1L) ||
	    pthread_join(a, NULL) ||
	    pthread_create(&b, NULL, thread_main, (void *)2L) ||
	    pthread_join(b, NULL))
		return 1;
	pid_t child = fork();
	if (child == 0)
		_exit(child_work(1));
	waitpid(child, NULL, 0);
	tree_done();
	/* The threads run one after the other: their counts add up. The
	 * child's call happened in its own copy of the counters: 0 here,
	 * as in the trace, which does not follow fork. */
	printf("main fib %u\nfib fib %u\nmain jump_outer %u\n"
	       "jump_outer dive %u\ndive dive %u\nmain tail_caller %u\n"
	       "tail_caller tail_target %u\nsignal on_signal %u\n"
	       "thread_main worker %u\nworker leaf %u\nchild child_work %u\n"
	       "unwound dive %u\n",
	       fib_calls ? 1u : 0u, fib_calls - 1, jump_outer_calls,
	       dive_calls ? 1u : 0u, dive_calls - 1, tail_caller_calls,
	       tail_target_calls, on_signal_calls, worker_calls, leaf_calls,
	       child_work_calls, dives_unwound);
	return 0;
}
