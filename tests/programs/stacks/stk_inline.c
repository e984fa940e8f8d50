/* A function inlined into its caller, for `report --srcline`
 * (tests/integration/test_report_srcline_matches_addr2line.sh): scale's
 * code runs inside work, at scale's own source lines. */
#include <stdio.h>

static volatile int sink;

static inline __attribute__((always_inline)) int scale(int x)
{
	int y = x * 3;
	return y + sink;
}

int work(int n);
int __attribute__((noinline)) work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += scale(i);
	return s;
}

void line_done(void);
void __attribute__((noinline)) line_done(void)
{
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	sink = work(5);
	line_done();
	printf("%d\n", sink);
	return 0;
}
