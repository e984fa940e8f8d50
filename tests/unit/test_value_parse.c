/* The one syntax of numbers, sizes and times (hwtrace/value.h): every form
 * accepted, with its exact value, and every form refused, with the reason
 * (junk or too large). Valid numbers are also checked against the C
 * library's strtoull, and a profile key against the same parser. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/value.h"

struct value_case {
	const char *text;
	int status;
	uint64_t value;
};

typedef int (*value_parser)(const char *, uint64_t *);

static void check_cases(value_parser parse, const struct value_case *c,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t got = 0x5a5a5a5a5a5a5a5aull;
		int r = parse(c[i].text, &got);

		if (r != c[i].status)
			HWT_FAIL("\"%s\": status %d, want %d", c[i].text, r,
				 c[i].status);
		CHECK_U64(got, c[i].status == HWT_VALUE_OK
				       ? c[i].value : 0x5a5a5a5a5a5a5a5aull);
	}
}

static const struct value_case u64_cases[] = {
	{"0", HWT_VALUE_OK, 0},
	{"4096", HWT_VALUE_OK, 4096},
	{"0x1000", HWT_VALUE_OK, 4096},
	{"0X1fF", HWT_VALUE_OK, 511},
	{"010", HWT_VALUE_OK, 8},
	{"18446744073709551615", HWT_VALUE_OK, UINT64_MAX},
	{"0xffffffffffffffff", HWT_VALUE_OK, UINT64_MAX},
	{"18446744073709551616", HWT_VALUE_TOO_LARGE, 0},
	{"0x10000000000000000", HWT_VALUE_TOO_LARGE, 0},
	{"99999999999999999999999999999999999", HWT_VALUE_TOO_LARGE, 0},
	{"", HWT_VALUE_BAD, 0},
	{"-1", HWT_VALUE_BAD, 0},
	{"+1", HWT_VALUE_BAD, 0},
	{" 1", HWT_VALUE_BAD, 0},
	{"1 ", HWT_VALUE_BAD, 0},
	{"12abc", HWT_VALUE_BAD, 0},
	{"0x", HWT_VALUE_BAD, 0},
	{"0xg", HWT_VALUE_BAD, 0},
	{"08", HWT_VALUE_BAD, 0},
	{"4K", HWT_VALUE_BAD, 0},
	{"1.5", HWT_VALUE_BAD, 0},
	{"18446744073709551616x", HWT_VALUE_BAD, 0},
};

static void test_u64_forms(void)
{
	check_cases(hwt_value_parse_u64, u64_cases,
		    sizeof(u64_cases) / sizeof(u64_cases[0]));
}

/* Positive control against an independent reader: every text accepted
 * gives what strtoull gives in base 0. */
static void test_u64_matches_strtoull(void)
{
	for (size_t i = 0; i < sizeof(u64_cases) / sizeof(u64_cases[0]); i++) {
		uint64_t got = 0;
		char *end;

		if (u64_cases[i].status != HWT_VALUE_OK)
			continue;
		errno = 0;
		unsigned long long want = strtoull(u64_cases[i].text, &end, 0);
		CHECK(errno == 0 && *end == 0);
		CHECK_INT(hwt_value_parse_u64(u64_cases[i].text, &got), 0);
		CHECK_U64(got, want);
	}
}

static void test_size_forms(void)
{
	static const struct value_case c[] = {
		{"0", HWT_VALUE_OK, 0},
		{"4096", HWT_VALUE_OK, 4096},
		{"4096B", HWT_VALUE_OK, 4096},
		{"4096b", HWT_VALUE_OK, 4096},
		{"64K", HWT_VALUE_OK, 65536},
		{"64k", HWT_VALUE_OK, 65536},
		{"64KB", HWT_VALUE_OK, 65536},
		{"64kb", HWT_VALUE_OK, 65536},
		{"4M", HWT_VALUE_OK, 4194304},
		{"4MB", HWT_VALUE_OK, 4194304},
		{"2g", HWT_VALUE_OK, 2147483648ull},
		{"2GB", HWT_VALUE_OK, 2147483648ull},
		{"0x10K", HWT_VALUE_OK, 16384},
		{"0x1B", HWT_VALUE_OK, 27},   /* B is a hex digit */
		{"0x1KB", HWT_VALUE_OK, 1024},
		{"010K", HWT_VALUE_OK, 8192},
		{"17179869183G", HWT_VALUE_OK, 17179869183ull << 30},
		{"17179869184G", HWT_VALUE_TOO_LARGE, 0},
		{"18014398509481984K", HWT_VALUE_TOO_LARGE, 0},
		{"18446744073709551616", HWT_VALUE_TOO_LARGE, 0},
		{"18446744073709551616K", HWT_VALUE_TOO_LARGE, 0},
		{"", HWT_VALUE_BAD, 0},
		{"K", HWT_VALUE_BAD, 0},
		{"B", HWT_VALUE_BAD, 0},
		{"-4K", HWT_VALUE_BAD, 0},
		{"+4K", HWT_VALUE_BAD, 0},
		{" 4K", HWT_VALUE_BAD, 0},
		{"4 K", HWT_VALUE_BAD, 0},
		{"4K ", HWT_VALUE_BAD, 0},
		{"4T", HWT_VALUE_BAD, 0},
		{"4KK", HWT_VALUE_BAD, 0},
		{"4KBB", HWT_VALUE_BAD, 0},
		{"4BK", HWT_VALUE_BAD, 0},
		{"4KiB", HWT_VALUE_BAD, 0},
		{"1.5M", HWT_VALUE_BAD, 0},
		{"18446744073709551616X", HWT_VALUE_BAD, 0},
	};

	check_cases(hwt_value_parse_size, c, sizeof(c) / sizeof(c[0]));
}

static void test_time_forms(void)
{
	static const struct value_case c[] = {
		{"0", HWT_VALUE_OK, 0},
		{"1500", HWT_VALUE_OK, 1500},
		{"0x5dc", HWT_VALUE_OK, 1500},
		{"641256.038", HWT_VALUE_OK, 641256038000000ull},
		{"641256.038123456", HWT_VALUE_OK, 641256038123456ull},
		{"010.5", HWT_VALUE_OK, 10500000000ull}, /* seconds are decimal */
		{".5", HWT_VALUE_OK, 500000000},
		{"3.", HWT_VALUE_OK, 3000000000ull},
		{"0.000000001", HWT_VALUE_OK, 1},
		{"18446744073.709551615", HWT_VALUE_OK, UINT64_MAX},
		{"18446744073709551615", HWT_VALUE_OK, UINT64_MAX},
		{"18446744073.709551616", HWT_VALUE_TOO_LARGE, 0},
		{"18446744074.0", HWT_VALUE_TOO_LARGE, 0},
		{"99999999999999999999.5", HWT_VALUE_TOO_LARGE, 0},
		{"18446744073709551616", HWT_VALUE_TOO_LARGE, 0},
		{"", HWT_VALUE_BAD, 0},
		{".", HWT_VALUE_BAD, 0},
		{"1.2345678901", HWT_VALUE_BAD, 0}, /* below a nanosecond */
		{"0x10.5", HWT_VALUE_BAD, 0},
		{"1..2", HWT_VALUE_BAD, 0},
		{"1.2.3", HWT_VALUE_BAD, 0},
		{"-1.5", HWT_VALUE_BAD, 0},
		{"+1.5", HWT_VALUE_BAD, 0},
		{"1.5s", HWT_VALUE_BAD, 0},
		{"1.-5", HWT_VALUE_BAD, 0},
		{"1.5 ", HWT_VALUE_BAD, 0},
		{"99999999999999999999.x", HWT_VALUE_BAD, 0},
	};

	check_cases(hwt_value_parse_time_ns, c, sizeof(c) / sizeof(c[0]));
}

/* A profile key reads a size and a number with the same parser: "64KB"
 * and "0x1000" are accepted there as on the command line, "-1" refused. */
static void test_profile_keys_agree(void)
{
	struct hwt_profile *p = hwt_profile_new();
	uint64_t v = 0;

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_INT(hwt_profile_set(p, "s.aux_size", "64KB"), 0);
	CHECK_INT(hwt_profile_get_size(p, "s:aux_size", 1, &v), 0);
	CHECK_U64(v, 65536);
	CHECK_INT(hwt_profile_set(p, "s.aux_size", "18446744073709551616K"), 0);
	CHECK_INT(hwt_profile_get_size(p, "s:aux_size", 1, &v), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: s:aux_size = \"18446744073709551616K\" "
				"is not a size (e.g. 4M, 512K or 65536)");
	CHECK_U64(v, 65536);
	CHECK_INT(hwt_profile_set(p, "s.psb_period", "0x1000"), 0);
	CHECK_INT(hwt_profile_get_u64(p, "s:psb_period", 1, &v), 0);
	CHECK_U64(v, 4096);
	CHECK_INT(hwt_profile_set(p, "s.psb_period", "-1"), 0);
	CHECK(hwt_profile_get_u64(p, "s:psb_period", 1, &v) != 0);
	CHECK_INT(hwt_profile_set(p, "s.psb_period", " 7"), 0);
	CHECK(hwt_profile_get_u64(p, "s:psb_period", 1, &v) != 0);
	CHECK_U64(v, 4096);
	CHECK_INT(hwt_profile_get_u64(p, "s:absent_key", 42, &v), 0);
	CHECK_U64(v, 42);
	hwt_profile_free(p);
}

/* --time's START,END: each end as hwt_value_parse_time_ns reads it,
 * either one empty; refusals leave both ends as they were. */
static void test_time_range_forms(void)
{
	static const struct {
		const char *text;
		int status;
		uint64_t start, end;
	} cases[] = {
		{"1500,2500", HWT_VALUE_OK, 1500, 2500},
		{"641256.973321,641257.914974", HWT_VALUE_OK,
		 641256973321000ull, 641257914974000ull},
		{",0x10", HWT_VALUE_OK, 0, 16},
		{"7,", HWT_VALUE_OK, 7, UINT64_MAX},
		{",", HWT_VALUE_OK, 0, UINT64_MAX},
		{"5,5", HWT_VALUE_OK, 5, 5},
		{"6,5", HWT_VALUE_BAD, 1, 2},
		{"1500", HWT_VALUE_BAD, 1, 2},
		{"x,5", HWT_VALUE_BAD, 1, 2},
		{"5,.", HWT_VALUE_BAD, 1, 2},
		{"1,2,3", HWT_VALUE_BAD, 1, 2},
		{"99999999999999999999,", HWT_VALUE_BAD, 1, 2},
		{"", HWT_VALUE_BAD, 1, 2},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t start = 1, end = 2;
		CHECK_INT(hwt_value_parse_time_range(cases[i].text, &start, &end),
			  cases[i].status);
		CHECK_U64(start, cases[i].start);
		CHECK_U64(end, cases[i].end);
	}
}

int main(void)
{
	RUN(test_u64_forms);
	RUN(test_u64_matches_strtoull);
	RUN(test_size_forms);
	RUN(test_time_forms);
	RUN(test_time_range_forms);
	RUN(test_profile_keys_agree);
	return hwt_test_summary();
}
