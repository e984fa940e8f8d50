/* The program the AutoFDO and BOLT export tests trace. They build it
 * themselves (it is not in CMakeLists.txt), with clang and the flags each
 * consumer needs: -gdwarf-4 -fdebug-info-for-profiling for
 * create_llvm_prof, -Wl,--emit-relocs for llvm-bolt. main calls hot()
 * CALLS times; hot's loop runs N times per call (N from argv[1]); the
 * static mix() takes each result (BOLT names static functions apart). */
#include <stdio.h>
#include <stdlib.h>

#define CALLS 10

/* Not pure (k), so the calls are not folded into one. */
__attribute__((noinline)) unsigned hot(unsigned n, unsigned k)
{
	unsigned s = k;
	for (unsigned i = 0; i < n; i++)
		s += i * 3 + (s >> 2); /* pgo_loop: body */
	return s;
}

static __attribute__((noinline)) unsigned mix(unsigned t, unsigned v)
{
	return t ^ (v + (t << 1));
}

int main(int argc, char **argv)
{
	/* strtoul, not atoi: glibc inlines atoi, and Debian's
	 * create_llvm_prof (0.19) writes inlined headers' names wrong. */
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100;
	unsigned t = 0;
	for (unsigned k = 0; k < CALLS; k++)
		t = mix(t, hot(n, k));
	printf("%u\n", t);
	return 0;
}
