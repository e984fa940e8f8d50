/* Calls a function of its own, then replaces itself with another program
 * (execv of argv[1] with the rest of the arguments): the same process runs
 * two executables one after the other. */
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) int before_exec(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += i * 3;
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: exec_path PROG [ARGS]\n");
		return 2;
	}
	volatile int r = before_exec(4);
	(void)r;
	execv(argv[1], argv + 1);
	perror("execv");
	return 1;
}
