/* The second library tests/programs/dl_swap.c loads, at the address the
 * first one had: other code at the same offsets. */
__attribute__((noinline)) static int swap_b_step(int x)
{
	return (x ^ 0x55) - 9;
}

__attribute__((noinline)) static int swap_b_twice(int x)
{
	return swap_b_step(x) + swap_b_step(x >> 1);
}

int swap_work(int x)
{
	if (x & 1)
		return swap_b_twice(x) * 2;
	return swap_b_twice(x + 1);
}
