/* The library half of unnamed_main.c: lib_entry stays in the dynamic
 * symbol table after strip, lib_hidden (static) does not. */
__attribute__((noinline)) static int lib_hidden(int x)
{
	return x ^ 0x55;
}

int lib_entry(int x)
{
	for (int i = 0; i < 3; i++)
		x = lib_hidden(x);
	return x;
}
