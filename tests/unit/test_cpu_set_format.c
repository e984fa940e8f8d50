/* The CPU set of core/decode/cpu_set.h and its text as ranges, which
 * every "--cpu N matches nothing" warning prints: exact strings for the
 * empty set, one CPU, runs, gaps, CPUs added out of order and twice,
 * the largest CPU numbers, and buffers too small for the whole text
 * (whole ranges, then ", ..."; never a range cut short). */
#include <stdint.h>

#include "core/decode/cpu_set.h"
#include "harness.h"

static void set_of(struct hwt_cpu_set *s, const uint32_t *cpus, size_t n)
{
	*s = (struct hwt_cpu_set){0};
	for (size_t i = 0; i < n; i++)
		CHECK_INT(hwt_cpu_set_add(s, cpus[i]), 0);
}

/* The text of @cpus in a buffer of @size bytes, and whether it was whole. */
static const char *text_of(const uint32_t *cpus, size_t n, size_t size,
			   bool *whole)
{
	static char buf[256];
	struct hwt_cpu_set s;
	set_of(&s, cpus, n);
	memset(buf, 'x', sizeof(buf));
	*whole = hwt_cpu_set_format(&s, buf, size);
	hwt_cpu_set_free(&s);
	return buf;
}

#define CHECK_TEXT(cpus, size, want, want_whole)                             \
	do {                                                                     \
		bool whole_;                                                         \
		CHECK_STR(text_of(cpus, sizeof(cpus) / sizeof(cpus[0]), size,        \
				  &whole_), want);                                           \
		CHECK_INT(whole_, want_whole);                                       \
	} while (0)

static void empty_and_one(void)
{
	struct hwt_cpu_set s = {0};
	char buf[8] = "xxxxxxx";
	CHECK_INT(hwt_cpu_set_format(&s, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "");
	CHECK_INT(hwt_cpu_set_contains(&s, 0), 0);
	static const uint32_t one[] = {7};
	CHECK_TEXT(one, 64, "7", 1);
	CHECK_TEXT(one, 2, "7", 1);
}

static void runs_and_gaps(void)
{
	static const uint32_t run_and_one[] = {0, 1, 2, 3, 7};
	CHECK_TEXT(run_and_one, 64, "0-3, 7", 1);
	static const uint32_t two[] = {4, 5};
	CHECK_TEXT(two, 64, "4-5", 1);
	static const uint32_t gaps[] = {0, 2, 4};
	CHECK_TEXT(gaps, 64, "0, 2, 4", 1);
	static const uint32_t quipper[] = {0, 3};
	CHECK_TEXT(quipper, 64, "0, 3", 1);
	static const uint32_t mixed[] = {1, 2, 5, 9, 10, 11, 12, 20};
	CHECK_TEXT(mixed, 64, "1-2, 5, 9-12, 20", 1);
	/* Out of order and twice: one set, ascending. */
	static const uint32_t shuffled[] = {7, 3, 0, 2, 1, 3, 7, 0};
	CHECK_TEXT(shuffled, 64, "0-3, 7", 1);
	struct hwt_cpu_set s;
	set_of(&s, shuffled, 8);
	CHECK_U64(s.n, 5);
	CHECK_INT(hwt_cpu_set_contains(&s, 3), 1);
	CHECK_INT(hwt_cpu_set_contains(&s, 4), 0);
	CHECK_INT(hwt_cpu_set_contains(&s, 7), 1);
	CHECK_INT(hwt_cpu_set_contains(&s, 8), 0);
	hwt_cpu_set_free(&s);
	CHECK_U64(s.n, 0);
	/* More CPUs than the set's first allocation, added backwards. */
	for (uint32_t c = 1000; c-- > 0;)
		CHECK_INT(hwt_cpu_set_add(&s, c), 0);
	char buf[16];
	CHECK_INT(hwt_cpu_set_format(&s, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "0-999");
	hwt_cpu_set_free(&s);
}

static void large_numbers(void)
{
	static const uint32_t top[] = {UINT32_MAX, UINT32_MAX - 1};
	CHECK_TEXT(top, 64, "4294967294-4294967295", 1);
	static const uint32_t ends[] = {UINT32_MAX, 0};
	CHECK_TEXT(ends, 64, "0, 4294967295", 1);
	struct hwt_cpu_set s;
	set_of(&s, ends, 2);
	CHECK_INT(hwt_cpu_set_contains(&s, UINT32_MAX), 1);
	CHECK_INT(hwt_cpu_set_contains(&s, UINT32_MAX - 1), 0);
	hwt_cpu_set_free(&s);
}

static void truncated(void)
{
	/* Whole: "0-3, 7, 9, 11", 13 characters. */
	static const uint32_t c[] = {0, 1, 2, 3, 7, 9, 11};
	CHECK_TEXT(c, 14, "0-3, 7, 9, 11", 1);
	CHECK_TEXT(c, 13, "0-3, 7, ...", 0);
	CHECK_TEXT(c, 12, "0-3, 7, ...", 0);
	CHECK_TEXT(c, 11, "0-3, ...", 0);
	CHECK_TEXT(c, 9, "0-3, ...", 0);
	CHECK_TEXT(c, 8, "...", 0);
	CHECK_TEXT(c, 4, "...", 0);
	CHECK_TEXT(c, 3, "", 0);
	CHECK_TEXT(c, 1, "", 0);
	/* No room at all: nothing written. */
	struct hwt_cpu_set s;
	set_of(&s, c, 7);
	char buf[4] = "abc";
	CHECK_INT(hwt_cpu_set_format(&s, buf, 0), 0);
	CHECK_STR(buf, "abc");
	hwt_cpu_set_free(&s);
	/* A large range is never cut into a smaller one. */
	static const uint32_t big[] = {4294967290u, 4294967291u, 7};
	CHECK_TEXT(big, 32, "7, 4294967290-4294967291", 1);
	CHECK_TEXT(big, 24, "7, ...", 0);
}

int main(void)
{
	RUN(empty_and_one);
	RUN(runs_and_gaps);
	RUN(large_numbers);
	RUN(truncated);
	return hwt_test_summary();
}
