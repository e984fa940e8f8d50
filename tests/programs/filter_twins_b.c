/* The second static twin (see filter_twins_a.c). */
static int __attribute__((noinline)) twin(int x)
{
	return x * 5 + 2;
}

int twin_b(int x)
{
	return twin(x);
}
