/* A small test harness: checks that report the file, line and both values,
 * and a summary line. A test binary exits non-zero when any check failed. */
#ifndef HWT_TESTS_HARNESS_H
#define HWT_TESTS_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hwt_test_failures;
static int hwt_test_checks;

#define HWT_FAIL(...)                                                        \
	do {                                                                     \
		fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                \
		fprintf(stderr, __VA_ARGS__);                                        \
		fputc('\n', stderr);                                                 \
		hwt_test_failures++;                                                 \
	} while (0)

#define CHECK(cond)                                                          \
	do {                                                                     \
		hwt_test_checks++;                                                   \
		if (!(cond))                                                         \
			HWT_FAIL("%s", #cond);                                           \
	} while (0)

#define CHECK_INT(got, want)                                                 \
	do {                                                                     \
		long long got_ = (long long)(got), want_ = (long long)(want);        \
		hwt_test_checks++;                                                   \
		if (got_ != want_)                                                   \
			HWT_FAIL("%s == %lld, want %lld", #got, got_, want_);            \
	} while (0)

#define CHECK_U64(got, want)                                                 \
	do {                                                                     \
		uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);           \
		hwt_test_checks++;                                                   \
		if (got_ != want_)                                                   \
			HWT_FAIL("%s == 0x%" PRIx64 ", want 0x%" PRIx64, #got, got_,     \
				 want_);                                                     \
	} while (0)

#define CHECK_STR(got, want)                                                 \
	do {                                                                     \
		const char *got_ = (got), *want_ = (want);                           \
		hwt_test_checks++;                                                   \
		if (!got_ || strcmp(got_, want_) != 0)                               \
			HWT_FAIL("%s == \"%s\", want \"%s\"", #got,                      \
				 got_ ? got_ : "(null)", want_);                             \
	} while (0)

/* Checks that a string contains a fragment (for error messages, whose
 * exact full text is checked where the test names it). */
#define CHECK_CONTAINS(got, fragment)                                        \
	do {                                                                     \
		const char *got_ = (got), *frag_ = (fragment);                       \
		hwt_test_checks++;                                                   \
		if (!got_ || !strstr(got_, frag_))                                   \
			HWT_FAIL("%s == \"%s\", want it to contain \"%s\"", #got,        \
				 got_ ? got_ : "(null)", frag_);                             \
	} while (0)

#define RUN(test)                                                            \
	do {                                                                     \
		int before_ = hwt_test_failures;                                     \
		test();                                                              \
		fprintf(stderr, "%s %s\n",                                           \
			hwt_test_failures == before_ ? "ok  " : "FAIL", #test);          \
	} while (0)

/* A part of a test this run cannot do, left out with its reason printed
 * and counted in the summary (for the whole test, use a needs-* label). */
static int hwt_test_skipped_parts;

#define HWT_SKIP_PART(...)                                                   \
	do {                                                                     \
		fprintf(stderr, "SKIP part: ");                                      \
		fprintf(stderr, __VA_ARGS__);                                        \
		fputc('\n', stderr);                                                 \
		hwt_test_skipped_parts++;                                            \
	} while (0)

/* The emulator a cross build's tests run under (HWT_TARGET_RUN, e.g.
 * qemu-aarch64), or NULL when the test runs natively. */
static inline const char *hwt_test_emulator(void)
{
	const char *e = getenv("HWT_TARGET_RUN");

	return e && *e ? e : NULL;
}

static inline int hwt_test_summary(void)
{
	fprintf(stderr, "%d checks, %d failed, %d parts skipped\n",
		hwt_test_checks, hwt_test_failures, hwt_test_skipped_parts);
	return hwt_test_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
