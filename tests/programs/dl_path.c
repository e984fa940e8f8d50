/* Loads libm with dlopen after main has started and calls into it, so a
 * tracer started at main sees code that was not mapped when it began. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	void *h = dlopen("libm.so.6", RTLD_NOW);
	if (!h)
		return 1;
	double (*cosine)(double) = (double (*)(double))dlsym(h, "cos");
	if (!cosine)
		return 1;
	volatile double x = 0.5;
	printf("cos(0.5) = %.6f\n", cosine(x));
	exit(0);
}
