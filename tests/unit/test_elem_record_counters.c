/* A sampled branch record's counters word (HWT_FIELD_BR_COUNTERS) goes
 * into struct hwt_elem_record's counters and comes back out whole, with
 * the record's other fields as they were; without the field bit the
 * record's counters are 0 and the element's stay 0. The words are
 * written here: all ones at a width of 4 counters x 2 bits (the
 * intel-lbr-counters caps), and all 64 bits set, so a narrower copy
 * would lose bits. */
#include <stddef.h>

#include "harness.h"
#include "hwtrace/capture.h"
#include "hwtrace/element.h"

static struct hwt_elem sampled_branch(uint64_t counters, uint32_t extra)
{
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_BRANCH);
	e.fields = HWT_FIELD_SAMPLED | HWT_FIELD_CYCLES | HWT_FIELD_TID | extra;
	e.tid = 42;
	e.u.branch.kind = HWT_BRANCH_CALL;
	e.u.branch.from = 0x401000;
	e.u.branch.to = 0x402000;
	e.u.branch.cycles = 0x1234;
	e.u.branch.depth = 3;
	e.u.branch.flags = HWT_BRANCH_MISPRED;
	e.u.branch.weight = 99;
	e.u.branch.counters = counters;
	return e;
}

static void round_trip(uint64_t word)
{
	struct hwt_elem e = sampled_branch(word, HWT_FIELD_BR_COUNTERS), back;
	struct hwt_elem_record r;
	hwt_elem_record_from_elem(&r, &e);
	CHECK_U64(r.counters, word);
	/* The other packed fields are untouched by the new one. */
	CHECK_U64(r.sync, 0x1234u | 3u << 16 | (uint64_t)HWT_BRANCH_MISPRED << 32);
	CHECK_U64(r.count, 99);
	hwt_elem_record_to_elem(&back, &r);
	CHECK_U64(back.fields, e.fields);
	CHECK_U64(back.u.branch.counters, word);
	CHECK_U64(back.u.branch.cycles, 0x1234);
	CHECK_U64(back.u.branch.weight, 99);
	CHECK_U64(back.u.branch.from, 0x401000);
	CHECK_U64(back.u.branch.to, 0x402000);
	CHECK_INT(back.tid, 42);
}

static void test_all_ones_at_the_width(void)
{
	/* 4 counters of 2 bits each, every one saturated. */
	round_trip((1u << (4 * 2)) - 1);
}

static void test_all_64_bits(void)
{
	round_trip(UINT64_MAX);
	round_trip(0x8000000000000001ull);
}

static void test_no_field_no_word(void)
{
	/* A stale value in an element without the bit is not the record's. */
	struct hwt_elem e = sampled_branch(0xff, 0), back;
	struct hwt_elem_record r;
	hwt_elem_record_from_elem(&r, &e);
	CHECK_U64(r.counters, 0);
	r.counters = 0xff; /* and a record's without the bit is not read */
	hwt_elem_record_to_elem(&back, &r);
	CHECK_U64(back.u.branch.counters, 0);
}

static void test_other_types_leave_it_zero(void)
{
	struct hwt_elem e;
	struct hwt_elem_record r;
	hwt_elem_clear(&e, HWT_ELEM_SAMPLE);
	e.fields = HWT_FIELD_BR_COUNTERS; /* meaningless on a sample */
	e.u.sample.ip = 0x401000;
	hwt_elem_record_from_elem(&r, &e);
	CHECK_U64(r.counters, 0);
	CHECK_U64(r.from, 0x401000);
}

/* The split's width and number of events go in sync's bits 48-55 and
 * 56-63 (capture.h), the other packed fields where they were: 2 bits
 * and 4 events is 0x0402 << 48; the widest, 64 bits and 255 events,
 * fills every bit of both. */
static void test_split_in_sync_bits_48_to_63(void)
{
	static const uint8_t cases[][2] = {{2, 4}, {64, 1}, {0xff, 0xff}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hwt_elem e = sampled_branch(39, HWT_FIELD_BR_COUNTERS), back;
		struct hwt_elem_record r;
		e.u.branch.priv = 1;
		e.u.branch.counter_width = cases[i][0];
		e.u.branch.counter_events = cases[i][1];
		hwt_elem_record_from_elem(&r, &e);
		CHECK_U64(r.sync, 0x1234u | 3u << 16 |
				  (uint64_t)HWT_BRANCH_MISPRED << 32 |
				  1ull << 40 | (uint64_t)cases[i][0] << 48 |
				  (uint64_t)cases[i][1] << 56);
		hwt_elem_record_to_elem(&back, &r);
		CHECK_INT(back.u.branch.counter_width, cases[i][0]);
		CHECK_INT(back.u.branch.counter_events, cases[i][1]);
		CHECK_INT(back.u.branch.priv, 1);
		CHECK_U64(back.u.branch.counters, 39);
	}
	CHECK_U64((uint64_t)2 << 48 | (uint64_t)4 << 56, 0x0402000000000000ull);
}

static void test_layout(void)
{
	/* Appended: the fields before it keep their offsets, no padding. */
	CHECK_U64(offsetof(struct hwt_elem_record, counters),
		  offsetof(struct hwt_elem_record, nbranches) + 8);
	CHECK_U64(sizeof(struct hwt_elem_record),
		  offsetof(struct hwt_elem_record, counters) + 8);
}

int main(void)
{
	RUN(test_all_ones_at_the_width);
	RUN(test_all_64_bits);
	RUN(test_no_field_no_word);
	RUN(test_other_types_leave_it_zero);
	RUN(test_split_in_sync_bits_48_to_63);
	RUN(test_layout);
	return hwt_test_summary();
}
