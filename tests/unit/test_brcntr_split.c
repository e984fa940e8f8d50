/* hwt_brcntr_count splits a PERF_SAMPLE_BRANCH_COUNTERS word into the
 * counts of the group's events, field 0 in the lowest bits, and
 * hwt_brcntr_saturated names the kernel's saturated value. Words worked
 * out by hand first (the positive controls), then, for every width 1..8
 * and every number of events that fits, words built here field by field
 * with multiplication (not shifts and masks, the split's own way) from
 * counts that cover 0, 1, the saturated value and values in between. */
#include "harness.h"
#include "hwtrace/brcntr.h"

/* By hand: 2-bit counts 3, 1, 2 are 0b10'01'11 = 39 (Intel's width);
 * 3-bit 0, 1, 3, 5 are 0b101'011'001'000 = 0xac8. */
static void test_hand_controls(void)
{
	uint64_t c[HWT_BRCNTR_MAX_EVENTS] = {0};
	CHECK_INT(hwt_brcntr_count(39, 2, 3, c), 3);
	CHECK_U64(c[0], 3);
	CHECK_U64(c[1], 1);
	CHECK_U64(c[2], 2);
	CHECK_INT(hwt_brcntr_count(0xac8, 3, 4, c), 4);
	CHECK_U64(c[0], 0);
	CHECK_U64(c[1], 1);
	CHECK_U64(c[2], 3);
	CHECK_U64(c[3], 5);
	/* Bits above the last event's field are not any event's. */
	CHECK_INT(hwt_brcntr_count(0xffffffffffffff00ull | 39, 2, 3, c), 3);
	CHECK_U64(c[0], 3);
	CHECK_U64(c[1], 1);
	CHECK_U64(c[2], 2);
	/* Intel's 4 counters of 2 bits, all saturated: 0xff. */
	CHECK_INT(hwt_brcntr_count(0xff, 2, 4, c), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_U64(c[i], 3);
		CHECK(hwt_brcntr_saturated(c[i], 2));
	}
}

/* The value of counts @v[0..n) packed at @width bits each. */
static uint64_t pack(const uint64_t *v, unsigned n, unsigned width)
{
	uint64_t word = 0, place = 1, base = 1;
	for (unsigned b = 0; b < width; b++)
		base *= 2;
	for (unsigned i = 0; i < n; i++) {
		word += v[i] * place;
		place *= base; /* wraps to 0 past bit 63: nothing more fits */
	}
	return word;
}

static void test_widths_1_to_8(void)
{
	for (unsigned w = 1; w <= 8; w++) {
		uint64_t max = 1;
		for (unsigned b = 0; b < w; b++)
			max *= 2;
		max -= 1;
		unsigned most = 64 / w < HWT_BRCNTR_MAX_EVENTS ? 64 / w
							     : HWT_BRCNTR_MAX_EVENTS;
		for (unsigned n = 1; n <= most; n++) {
			for (unsigned pattern = 0; pattern < 4; pattern++) {
				uint64_t v[HWT_BRCNTR_MAX_EVENTS], got[HWT_BRCNTR_MAX_EVENTS];
				for (unsigned i = 0; i < n; i++) {
					switch (pattern) {
					case 0: v[i] = max; break;        /* saturated */
					case 1: v[i] = i % 2 ? max : 0; break;
					case 2: v[i] = (i * 7 + 1) % (max + 1); break;
					default: v[i] = (max + 1 - i % (max + 1)) % (max + 1);
					}
				}
				uint64_t word = pack(v, n, w);
				CHECK_INT(hwt_brcntr_count(word, w, n, got), n);
				for (unsigned i = 0; i < n; i++) {
					CHECK_U64(got[i], v[i]);
					CHECK_INT(hwt_brcntr_saturated(got[i], w),
						  v[i] == max);
				}
			}
		}
	}
}

/* More events than 64 bits hold: only the fields that fit; no width, or
 * one past 64 bits: none. A 64-bit width is one event, the whole word. */
static void test_limits(void)
{
	uint64_t c[HWT_BRCNTR_MAX_EVENTS] = {0};
	CHECK_INT(hwt_brcntr_count(~0ull, 8, 9, c), 8);
	CHECK_U64(c[7], 255);
	CHECK_INT(hwt_brcntr_count(~0ull, 33, 2, c), 1);
	CHECK_U64(c[0], 0x1ffffffffull);
	CHECK_INT(hwt_brcntr_count(~0ull, 0, 2, c), 0);
	CHECK_INT(hwt_brcntr_count(~0ull, 65, 1, c), 0);
	CHECK_INT(hwt_brcntr_count(0x8000000000000001ull, 64, 1, c), 1);
	CHECK_U64(c[0], 0x8000000000000001ull);
	CHECK(hwt_brcntr_saturated(~0ull, 64));
	CHECK(!hwt_brcntr_saturated(2, 2));
	CHECK(hwt_brcntr_saturated(1, 1));
	CHECK(!hwt_brcntr_saturated(1, 0));
	CHECK_INT(hwt_brcntr_count(5, 2, 0, c), 0);
}

int main(void)
{
	RUN(test_hand_controls);
	RUN(test_widths_1_to_8);
	RUN(test_limits);
	return hwt_test_summary();
}
