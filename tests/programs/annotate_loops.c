/* Loops whose trip counts are known, for hwtrace annotate's exact
 * counts: each marked line runs as many times as its comment says, and
 * the test finds the lines by their markers. Built -O0 by the test, so
 * every line keeps its own instructions. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int loops(int n)
{
	int s = 0;
	for (int i = 0; i < 7; i++)
		s += i; /* runs 7 times: SEVEN */
	for (int j = 0; j < n; j++) /* 13 iterations: HEAD */
		if (j % 3 == 0) /* runs 13 times: IF */
			s ^= j; /* runs 5 times (j = 0, 3, 6, 9, 12): FIVE */
	return s;
}

__attribute__((noinline)) void tree_done(void)
{
	__asm__ volatile("");
}

int main(int argc, char **argv)
{
	/* 13 unless told otherwise: the compiler cannot fold the loop. */
	int n = argc > 1 ? atoi(argv[1]) : 13;
	int s = loops(n);
	tree_done();
	printf("%d\n", s);
	return 0;
}
