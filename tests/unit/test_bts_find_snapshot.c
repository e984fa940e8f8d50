/* Where intel_bts's newest records start in an overwrite-mode AUX buffer:
 * intel_pt's rules (offset head, wrapped once the last 4 KiB hold
 * anything), and whole 24-byte records ending at the head. */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "backends/x86-bts/bts_meta.h"

#define SIZE 8192u /* not a multiple of 24: 8192 = 341 * 24 + 8 */

static uint8_t buf[SIZE];

static void write_records(uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++)
		buf[i % SIZE] = (uint8_t)(1 + i % 24);
}

static void test_unwrapped(void)
{
	uint64_t start, len;
	bool wrapped = true;

	memset(buf, 0, SIZE);
	write_records(0, 240);
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 240, 0, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, 240);

	/* 250 - 0 bytes: the 10 oldest are a partial record and are left out. */
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 250, 0, &start, &len, &wrapped), 0);
	CHECK_U64(start, 10);
	CHECK_U64(len, 240);

	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 480, 240, &start, &len, &wrapped), 0);
	CHECK_U64(start, 240);
	CHECK_U64(len, 240);
}

static void test_wrapped(void)
{
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, SIZE);
	write_records(0, SIZE + 480);
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 480, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	/* 8192 % 24 = 8 bytes dropped at the old end. */
	CHECK_U64(len, 8184);
	CHECK_U64(start, 488);
	CHECK_U64(len % 24, 0);
	CHECK_U64((start + len) % SIZE, 480);
}

static void test_bad_arguments(void)
{
	uint64_t start, len;
	bool wrapped;

	CHECK_INT(hwt_bts_find_snapshot(NULL, SIZE, 0, 0, &start, &len, &wrapped),
		  HWT_ERR_INVAL);
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 0, 0, &start, NULL, &wrapped),
		  HWT_ERR_INVAL);
}

int main(void)
{
	RUN(test_unwrapped);
	RUN(test_wrapped);
	RUN(test_bad_arguments);
	return hwt_test_summary();
}
