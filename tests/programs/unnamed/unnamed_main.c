/* Code without symbols for the dso+0xoffset names: the tests strip this
 * program and its library, so the static functions here and in
 * unnamed_lib.c have no symbol left, and hwtrace names them by their
 * binary and file offset. hidden() runs 5 times, the library's hidden
 * function 3 times (through lib_entry). */
#include <stdio.h>

int lib_entry(int x);

__attribute__((noinline)) static int hidden(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) void tree_done(void)
{
	__asm__ volatile("");
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 5; i++)
		s += hidden(i);
	s += lib_entry(s);
	tree_done();
	printf("%d\n", s);
	return 0;
}
