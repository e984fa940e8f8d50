/* Where intel_pt's newest data starts in an overwrite-mode AUX buffer:
 * the head is an offset in the buffer, and the buffer counts as wrapped
 * once its last 4 KiB (perf's 512 words) hold a non-zero byte. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "backends/x86-pt/pt_meta.h"

#define SIZE 16384u

static uint8_t buf[SIZE];

/* PT-looking bytes: a PSB pattern repeated, never 0. */
static void write_trace(uint64_t from, uint64_t to)
{
	static const uint8_t psb[] = {0x02, 0x82};

	for (uint64_t i = from; i < to; i++)
		buf[i % SIZE] = psb[i & 1];
}

static void test_unwrapped_first_and_second_snapshot(void)
{
	uint64_t start = 99, len = 99;
	bool wrapped = true;

	memset(buf, 0, SIZE);
	write_trace(0, 3000);
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 3000, 0, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, 3000);

	/* The next snapshot takes only what came after the previous head. */
	write_trace(3000, 5000);
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 5000, 3000, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 3000);
	CHECK_U64(len, 2000);

	/* Nothing new: an empty snapshot. */
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 5000, 5000, &start, &len, &wrapped), 0);
	CHECK_U64(len, 0);
}

static void test_wrapped_takes_whole_buffer_from_head(void)
{
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, SIZE);
	write_trace(0, SIZE + 1000);
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 1000, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 1000);
	CHECK_U64(len, SIZE);

	/* A head given as a running count means the same offset. */
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 3 * SIZE + 1000, 0, &start, &len,
				       &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 1000);
	CHECK_U64(len, SIZE);

	/* One non-zero byte at the very end is enough. */
	memset(buf, 0, SIZE);
	buf[SIZE - 1] = 0x99;
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 10, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 10);
}

/* Old trace from an earlier lap fills the buffer past the head: it looks
 * like trace and cannot be told from new data, so once the buffer has
 * wrapped every snapshot is the whole buffer, oldest byte at the head
 * (perf's rule; the decoder synchronises at the first PSB). */
static void test_old_contents_that_look_like_trace(void)
{
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, SIZE);
	write_trace(0, 2 * SIZE + 1500); /* two laps, previous snapshot at 1500 */
	write_trace(1500, 2000);
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 2000, 1500, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 2000);
	CHECK_U64(len, SIZE);
}

/* Trace whose last 4 KiB are PAD packets (0x00) is not seen as wrapped;
 * a head behind the previous one still gives the bytes in between, across
 * the end of the buffer. */
static void test_pad_tail_with_head_behind_previous(void)
{
	uint64_t start, len;
	bool wrapped = true;

	memset(buf, 0, SIZE);
	write_trace(0, SIZE - 4096);
	write_trace(SIZE, SIZE + 100);
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 100, 8000, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	CHECK_U64(start, 8000);
	CHECK_U64(len, SIZE - 8000 + 100);

	/* The window is exactly 4096 bytes: one byte before it is outside. */
	memset(buf, 0, SIZE);
	buf[SIZE - 4097] = 1;
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 0, 0, &start, &len, &wrapped), 0);
	CHECK(!wrapped);
	buf[SIZE - 4096] = 1;
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 0, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
}

/* A buffer no larger than the window: any trace counts as a wrap, as in
 * perf (4 KiB is the smallest snapshot buffer it allows). */
static void test_small_buffer_is_all_window(void)
{
	uint64_t start, len;
	bool wrapped = false;

	memset(buf, 0, 4096);
	buf[0] = 0x02;
	CHECK_INT(hwt_pt_find_snapshot(buf, 4096, 1, 0, &start, &len, &wrapped), 0);
	CHECK(wrapped);
	CHECK_U64(start, 1);
	CHECK_U64(len, 4096);
}

static void test_bad_arguments(void)
{
	uint64_t start, len;
	bool wrapped;

	CHECK_INT(hwt_pt_find_snapshot(NULL, SIZE, 0, 0, &start, &len, &wrapped),
		  HWT_ERR_INVAL);
	CHECK_INT(hwt_pt_find_snapshot(buf, 0, 0, 0, &start, &len, &wrapped),
		  HWT_ERR_INVAL);
	CHECK_INT(hwt_pt_find_snapshot(buf, SIZE, 0, 0, NULL, &len, &wrapped),
		  HWT_ERR_INVAL);
}

int main(void)
{
	RUN(test_unwrapped_first_and_second_snapshot);
	RUN(test_wrapped_takes_whole_buffer_from_head);
	RUN(test_old_contents_that_look_like_trace);
	RUN(test_pad_tail_with_head_behind_previous);
	RUN(test_small_buffer_is_all_window);
	RUN(test_bad_arguments);
	return hwt_test_summary();
}
