/* The library tests/programs/sym_cxx.cpp loads with dlopen. */
__attribute__((noinline)) static int dl_helper(int x)
{
	return x * 3 + 1;
}

int dl_twice(int x)
{
	return dl_helper(x) + dl_helper(x + 1);
}
