/* Loads library A with dlopen, calls it, unloads it completely, then loads
 * library B, which the loader maps at the address A had, and calls it: code
 * at one address that changes while the program runs. Prints both load
 * addresses ("A 0x... B 0x...") so a test can check that they are equal;
 * exits 3 when they are not. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void *load_base(const char *path, int (**work)(int), void **handle)
{
	Dl_info info;

	*handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!*handle) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		exit(1);
	}
	*work = (int (*)(int))dlsym(*handle, "swap_work");
	if (!*work || !dladdr((void *)*work, &info)) {
		fprintf(stderr, "%s: no swap_work\n", path);
		exit(1);
	}
	return info.dli_fbase;
}

__attribute__((noinline)) void swap_begin(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void swap_end(void)
{
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	int (*work)(int);
	void *h;
	volatile int sink = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: dl_swap LIB_A LIB_B\n");
		return 2;
	}
	void *a = load_base(argv[1], &work, &h);
	swap_begin();
	sink += work(5);
	swap_end();
	if (dlclose(h)) {
		fprintf(stderr, "dlclose: %s\n", dlerror());
		return 1;
	}
	void *b = load_base(argv[2], &work, &h);
	swap_begin();
	sink += work(6);
	swap_end();
	printf("A %p B %p\n", a, b);
	fflush(stdout);
	return a == b ? 0 : 3;
}
