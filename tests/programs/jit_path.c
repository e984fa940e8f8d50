/* A fake JIT: copies a tiny function into an anonymous executable
 * mapping, describes it in DIR/perf-PID.map as a JIT would (with a few
 * damaged lines, as a careless one might), and calls it. Usage:
 * jit_path DIR N. x86-64, AArch64 and RV64 only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
/* lea eax, [rdi + 1]; ret */
static const unsigned char code[] = {0x8d, 0x47, 0x01, 0xc3};
#elif defined(__aarch64__)
/* add w0, w0, #1; ret */
static const unsigned char code[] = {0x00, 0x04, 0x00, 0x11, 0xc0, 0x03, 0x5f, 0xd6};
#elif defined(__riscv) && __riscv_xlen == 64
/* addiw a0, a0, 1; ret */
static const unsigned char code[] = {0x1b, 0x05, 0x15, 0x00, 0x67, 0x80, 0x00, 0x00};
#else
#error "jit_path has no code for this architecture (x86-64, arm64, riscv64)"
#endif

__attribute__((noinline)) int jit_run(int (*fn)(int), int n)
{
	int v = 0;
	for (int i = 0; i < n; i++)
		v = fn(v);
	return v;
}

__attribute__((noinline)) void jit_done(int v)
{
	__asm__ volatile("" : : "r"(v));
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	/* Two functions: the second at +0x40. */
	memcpy(mem, code, sizeof(code));
	memcpy(mem + 0x40, code, sizeof(code));
	if (mprotect(mem, 4096, PROT_READ | PROT_EXEC))
		return 1;
	/* Arm and RISC-V fetch through an instruction cache that stores do not
	 * update: written code runs only after this (a no-op on x86-64). */
	__builtin___clear_cache((char *)mem, (char *)mem + 4096);
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf-%d.map", argv[1], (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jit_add_one\n", (unsigned long)mem, sizeof(code));
	fprintf(f, "this line is garbage\n");
	fprintf(f, "%lx zz broken_size\n", (unsigned long)mem);
	fprintf(f, "%lx %zx Script::hot(int) [tier 2]\n",
		(unsigned long)(mem + 0x40), sizeof(code));
	fclose(f);
	int n = atoi(argv[2]);
	int v = jit_run((int (*)(int))mem, n);
	v += jit_run((int (*)(int))(mem + 0x40), 1);
	printf("%d\n", v);
	jit_done(v);
	return 0;
}
