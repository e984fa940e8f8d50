/* The signal trigger's program: main -> outer -> middle -> inner, and
 * inner writes through a null pointer (SIGSEGV). The test expects that
 * chain as the window's last call stack and the program killed by
 * SIGSEGV. */
#include <stdio.h>

volatile int *volatile target;

__attribute__((noinline)) void inner(int v)
{
	*target = v;
}

__attribute__((noinline)) void middle(int v)
{
	inner(v + 1);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void outer(int v)
{
	middle(v + 1);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	outer(1);
	puts("not reached");
	return 0;
}
