/* The program `make run` traces: a small, real workload with calls,
 * loops, a recursion and a table lookup, between main and exit. */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__((noinline)) is_prime(int n)
{
	if (n < 2)
		return 0;
	for (int d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int limit = argc > 1 ? atoi(argv[1]) : 200;
	int primes = 0;

	for (int i = 0; i < limit; i++)
		primes += is_prime(i);
	printf("%d primes below %d, fib(12) = %d\n", primes, limit, fib(12));
	exit(0);
}
