/* Two static functions named twin (this file and filter_twins_b.c), a
 * zero-size label and a sized function: the address filter tests'
 * ambiguous symbol, symbol without size and ordinary symbol. */
int twin_b(int x);

static int __attribute__((noinline)) twin(int x)
{
	return x * 3 + 1;
}

int __attribute__((noinline)) filtered_work(int x)
{
	return twin(x) + twin_b(x);
}

__asm__(".text\n.globl zero_size_mark\nzero_size_mark:\n\tnop\n");

int main(int argc, char **argv)
{
	(void)argv;
	return filtered_work(argc) & 1;
}
