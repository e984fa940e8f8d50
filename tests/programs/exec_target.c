/* The program tests/programs/exec_path execs: other code at the addresses
 * exec_path had (both are built as position-dependent executables, so
 * both load at the same fixed address). */
#include <stdio.h>

__attribute__((noinline)) int target_step(int x)
{
	return x * 5 - 2;
}

int main(void)
{
	volatile int s = 0;
	for (int i = 0; i < 3; i++)
		s += target_step(i);
	printf("exec_target %d\n", s);
	return 0;
}
