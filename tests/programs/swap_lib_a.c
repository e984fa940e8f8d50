/* The first library tests/programs/dl_swap.c loads: its code differs from
 * swap_lib_b.c's at every offset, so a range decoded from the wrong file
 * shows. */
__attribute__((noinline)) static int swap_a_inner(int x)
{
	return x * 7 + 3;
}

int swap_work(int x)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += swap_a_inner(x + i);
	return s;
}
