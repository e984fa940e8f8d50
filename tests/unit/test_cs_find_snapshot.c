/* Where CoreSight's newest data starts in an overwrite-mode AUX buffer:
 * its head keeps increasing, so a head at or past the size means a wrap;
 * below it, a non-zero byte in the last 512 bytes past the head means the
 * count itself wrapped (perf's cs_etm_buffer_has_wrapped). */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "backends/arm-cs/cs_info.h"

#define SIZE 8192u

static uint8_t buf[SIZE];

/* Formatted ETR frames: 16-byte frames, never all zero. */
static void write_trace(uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++)
		buf[i % SIZE] = (uint8_t)(0x10 | (i & 0xf));
}

static void test_first_lap(void)
{
	uint64_t start = 1, len = 1;
	bool wrapped = true;

	memset(buf, 0, SIZE);
	write_trace(0, 3000);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, 3000, 0, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, 3000);

	write_trace(3000, 5008);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, 5008, 3000, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 3000);
	CHECK_U64(len, 2008);
}

/* The head inside the last 512 bytes: what lies before it was written in
 * this lap and does not count as a wrap. */
static void test_head_in_the_window_is_not_a_wrap(void)
{
	uint64_t start, len;
	bool wrapped = true;

	memset(buf, 0, SIZE);
	write_trace(0, SIZE - 16);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, SIZE - 16, 0, &start, &len,
				       &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, SIZE - 16);
}

static void test_head_past_size_is_a_wrap(void)
{
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, SIZE);
	write_trace(0, 3 * SIZE + 704);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, 3 * SIZE + 704, 2 * SIZE, &start,
				       &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 704);
	CHECK_U64(len, SIZE);

	/* Exactly one buffer: still a wrap, starting at offset 0. */
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, SIZE, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, SIZE);
}

/* The 64-bit count went round: the head looks small, but old frames lie
 * past it at the end of the buffer. */
static void test_count_wrapped_seen_in_the_tail(void)
{
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, SIZE);
	write_trace(0, SIZE);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, 640, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 640);
	CHECK_U64(len, SIZE);

	/* Old data only before the last 512 bytes is not looked at. */
	memset(buf, 0, SIZE);
	write_trace(0, SIZE - 512);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, 640, 0, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(len, 640);
}

static void test_bad_arguments(void)
{
	uint64_t start, len;
	bool wrapped;

	memset(buf, 0, SIZE);
	CHECK_INT(hwt_cs_find_snapshot(buf, SIZE, 100, 200, &start, &len, &wrapped),
		  HWT_ERR_INVAL);
	CHECK_CONTAINS(hwt_errmsg(), "behind the previous");
	CHECK_INT(hwt_cs_find_snapshot(NULL, SIZE, 0, 0, &start, &len, &wrapped),
		  HWT_ERR_INVAL);
	CHECK_INT(hwt_cs_find_snapshot(buf, 0, 0, 0, &start, &len, &wrapped),
		  HWT_ERR_INVAL);
}

int main(void)
{
	RUN(test_first_lap);
	RUN(test_head_in_the_window_is_not_a_wrap);
	RUN(test_head_past_size_is_a_wrap);
	RUN(test_count_wrapped_seen_in_the_tail);
	RUN(test_bad_arguments);
	return hwt_test_summary();
}
