/* Where intel_bts's newest records start in an overwrite-mode AUX buffer.
 * As the driver runs it (arch/x86/events/intel/bts.c, snapshot mode): the
 * hardware writes 24-byte records from offset 0 and wraps at the last
 * whole record, so aux_size % 24 bytes at the end stay zero; the head is
 * an offset at a record boundary. find_snapshot uses intel_pt's rules, and
 * the record ops' alignment of 24 has the core drop the unwritten tail, as
 * perf's auxtrace_record.alignment does. */
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "backends/x86-bts/bts_meta.h"

#define SIZE 8192u              /* 341 * 24 + 8 */
#define REAL_SIZE (SIZE - SIZE % 24)

static uint8_t buf[SIZE];

/* The hardware writing records [first, last) of an endless stream. */
static void write_records(uint64_t first, uint64_t last)
{
	for (uint64_t r = first; r < last; r++) {
		uint64_t at = (r * 24) % REAL_SIZE;

		for (int i = 0; i < 24; i++)
			buf[at + i] = (uint8_t)(1 + (r + i) % 200);
	}
}

static void test_unwrapped(void)
{
	uint64_t start, len;
	bool wrapped = true;

	memset(buf, 0, SIZE);
	write_records(0, 10);
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 240, 0, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, 240);

	write_records(10, 20);
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 480, 240, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 240);
	CHECK_U64(len, 240);
}

static void test_wrapped_leaves_the_tail_to_alignment(void)
{
	const struct hwt_backend *be = hwt_backend_find("intel_bts");
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, SIZE);
	write_records(0, 341 + 20); /* a lap and 20 records: head at 480 */
	CHECK_INT(buf[SIZE - 1] | buf[SIZE - 8], 0); /* the unwritten tail */
	CHECK_INT(hwt_bts_find_snapshot(buf, SIZE, 480, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 480);
	CHECK_U64(len, SIZE);
	/* The part before the end is [480, 8192): alignment 24 cuts exactly
	 * the 8 unwritten bytes, leaving 321 whole records, then [0, 480). */
	CHECK(be && be->record);
	if (be && be->record) {
		CHECK_INT(be->record->alignment, 24);
		CHECK_U64((SIZE - start) % be->record->alignment, SIZE - REAL_SIZE);
		CHECK_U64((SIZE - start - (SIZE - start) % 24) / 24, 321);
	}
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
	RUN(test_wrapped_leaves_the_tail_to_alignment);
	RUN(test_bad_arguments);
	return hwt_test_summary();
}
