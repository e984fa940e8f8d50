/* hwt_aux_record_start (core/perfdata/aux_record_start.h): where a
 * PERF_RECORD_AUX's data starts. Normal mode (the positive control): the
 * record's aux_offset itself, for every PMU. Overwrite mode: a CoreSight
 * sink reports the head after the write, so the start is aux_offset -
 * aux_size, as perf's cs-etm reader computes it, and a record whose size
 * exceeds its offset is refused (-1, *start untouched: perf finds it no
 * buffer). intel_pt and intel_bts report the in-buffer end with the
 * whole buffer's size: their offset stays as written, and the same
 * numbers are no underflow there. */
#include "harness.h"
#include "core/perfdata/aux_record_start.h"
#include "hwtrace/backend.h"

static void normal_mode_offset_is_the_start(void)
{
	uint64_t start = 7;
	CHECK_INT(hwt_aux_record_start(0x3000, 0x1000, 0, true, &start), 0);
	CHECK_U64(start, 0x3000);
	CHECK_INT(hwt_aux_record_start(0x3000, 0x1000, 0, false, &start), 0);
	CHECK_U64(start, 0x3000);
	/* TRUNCATED alone changes nothing; nor does size > offset. */
	CHECK_INT(hwt_aux_record_start(0x10, 0x4000, HWT_AUX_FLAG_TRUNCATED,
				       true, &start), 0);
	CHECK_U64(start, 0x10);
}

static void coresight_overwrite_offset_is_the_end(void)
{
	uint64_t start = 7;
	/* ETR's free-running head: a 0x1000-byte write ending at 0x3000
	 * started at 0x2000. */
	CHECK_INT(hwt_aux_record_start(0x3000, 0x1000, HWT_AUX_FLAG_OVERWRITE,
				       true, &start), 0);
	CHECK_U64(start, 0x2000);
	/* With the PMU format bits and PARTIAL set too. */
	CHECK_INT(hwt_aux_record_start(0x123456, 0x456,
				       HWT_AUX_FLAG_OVERWRITE |
					       HWT_AUX_FLAG_PARTIAL |
					       HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW,
				       true, &start), 0);
	CHECK_U64(start, 0x123000);
	/* The first write of a buffer: size == offset starts at 0. */
	CHECK_INT(hwt_aux_record_start(0x4000, 0x4000, HWT_AUX_FLAG_OVERWRITE,
				       true, &start), 0);
	CHECK_U64(start, 0);
}

static void coresight_overwrite_underflow_refused(void)
{
	uint64_t start = 7;
	CHECK_INT(hwt_aux_record_start(0x3fff, 0x4000, HWT_AUX_FLAG_OVERWRITE,
				       true, &start), -1);
	CHECK_INT(hwt_aux_record_start(0, 1, HWT_AUX_FLAG_OVERWRITE, true,
				       &start), -1);
	CHECK_INT(hwt_aux_record_start(0, UINT64_MAX, HWT_AUX_FLAG_OVERWRITE,
				       true, &start), -1);
	CHECK_U64(start, 7);
}

static void in_buffer_drivers_keep_their_offset(void)
{
	uint64_t start = 7;
	/* intel_pt's snapshot record: the write ended at 0x1230 inside a
	 * 0x4000-byte buffer, reported with the buffer's size. */
	CHECK_INT(hwt_aux_record_start(0x1230, 0x4000, HWT_AUX_FLAG_OVERWRITE,
				       false, &start), 0);
	CHECK_U64(start, 0x1230);
	CHECK_INT(hwt_aux_record_start(0x3000, 0x1000, HWT_AUX_FLAG_OVERWRITE,
				       false, &start), 0);
	CHECK_U64(start, 0x3000);
}

int main(void)
{
	RUN(normal_mode_offset_is_the_start);
	RUN(coresight_overwrite_offset_is_the_end);
	RUN(coresight_overwrite_underflow_refused);
	RUN(in_buffer_drivers_keep_their_offset);
	return hwt_test_summary();
}
