/* A program for the symbol tests, compiled by the tests themselves (with
 * -O0 and with -O2, where the static inline helpers are inlined): calls
 * between functions of its own, calls through the PLT (printf, strlen),
 * and sym_done, where recording stops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int sp_square(int x)
{
	return x * x + (x & 1);
}

static inline int sp_twice(int x)
{
	int s = 0;
	for (int k = 0; k <= x % 4; k++) /* a loop: branches into inlined code */
		s += sp_square(x + k);
	return s;
}

__attribute__((noinline)) int sp_leaf(int i)
{
	if (i % 3 == 0)
		return sp_twice(i);
	return i + 7;
}

__attribute__((noinline)) int sp_walk(int n, const char *word)
{
	int sum = (int)strlen(word);
	for (int i = 0; i < n; i++)
		sum += sp_leaf(i);
	return sum;
}

__attribute__((noinline)) void sp_done(int v)
{
	__asm__ volatile("" : : "r"(v));
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 6;
	int v = sp_walk(n, argv[0]);
	printf("%d\n", v);
	sp_done(v);
	return 0;
}
