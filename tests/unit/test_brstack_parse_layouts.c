/* PERF_SAMPLE_BRANCH_STACK as include/uapi/linux/perf_event.h lays it
 * out: { nr; hw_idx if PERF_SAMPLE_BRANCH_HW_INDEX; perf_branch_entry
 * lbr[nr]; u64 cntr[nr] if PERF_SAMPLE_BRANCH_COUNTERS }, in every
 * combination, with the fields after it still found. The flags word is
 * built through the kernel header's own bitfields (the compiler's layout
 * of struct perf_branch_entry is the kernel's), so the bit positions the
 * parser uses are checked against an independent source. Records cut
 * short are refused. */
#include "core/perfdata/perfdata_format.h"
#include "harness.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/sample.h"
#include "sample_rec.h"

/* Entry @i of the test stack: every field a different value. */
static struct perf_branch_entry entry(unsigned i)
{
	struct perf_branch_entry e;
	memset(&e, 0, sizeof(e));
	e.from = 0x401000 + 0x10 * i;
	e.to = 0x402000 + 0x20 * i;
	e.mispred = i & 1;
	e.predicted = !(i & 1);
	e.in_tx = i == 2;
	e.abort = i == 3;
	e.cycles = (uint16_t)(0xfff0 + i);
	e.type = (uint8_t)(i == 3 ? 15 : i + 1); /* 15: EXTEND_ABI */
	e.spec = (uint8_t)(i & 3);
	e.new_type = (uint8_t)(i == 3 ? 3 : 0);  /* arm64 FIQ */
	e.priv = (uint8_t)(1 + i % 3);
	return e;
}

/* A sample of IP, TID, BRANCH_STACK and WEIGHT (a field after the stack)
 * with @nr entries, for @bst; checks what the parser found. */
static void one_layout(uint64_t bst, unsigned nr)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_WEIGHT;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | bst;
	len = 8;
	u64(0x401234);
	pd_put32(rec + len, 7), pd_put32(rec + len + 4, 8), len += 8;
	u64(4000);
	u64(nr);
	if (bst & PERF_SAMPLE_BRANCH_HW_INDEX)
		u64(0x1f);
	for (unsigned i = 0; i < nr; i++) {
		struct perf_branch_entry e = entry(i);
		memcpy(rec + len, &e, sizeof(e));
		len += sizeof(e);
	}
	if (bst & HWT_SAMPLE_BRANCH_COUNTERS)
		for (unsigned i = 0; i < nr; i++)
			u64(0xc0 + i);
	u64(0x77); /* weight */
	finish();

	struct hwt_aux_sample s;
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), 0);
	CHECK_U64(s.ip, 0x401234);
	CHECK_U64(s.period, 4000);
	CHECK_U64(s.br_nr, nr);
	CHECK_INT(s.has_hw_idx, !!(bst & PERF_SAMPLE_BRANCH_HW_INDEX));
	if (s.has_hw_idx)
		CHECK_U64(s.br_hw_idx, 0x1f);
	CHECK(nr ? s.br != NULL : s.br == NULL);
	CHECK(nr && (bst & HWT_SAMPLE_BRANCH_COUNTERS) ? s.br_cntr != NULL
						       : s.br_cntr == NULL);
	for (unsigned i = 0; i < nr; i++) {
		struct perf_branch_entry want = entry(i);
		struct hwt_brstack_entry got;
		hwt_brstack_entry_get(&s, i, &got);
		CHECK_U64(got.from, want.from);
		CHECK_U64(got.to, want.to);
		CHECK_INT(got.mispred, want.mispred);
		CHECK_INT(got.predicted, want.predicted);
		CHECK_INT(got.in_tx, want.in_tx);
		CHECK_INT(got.abort, want.abort);
		CHECK_INT(got.cycles, want.cycles);
		CHECK_INT(got.type, want.type);
		CHECK_INT(got.spec, want.spec);
		CHECK_INT(got.new_type, want.new_type);
		CHECK_INT(got.priv, want.priv);
		CHECK_U64(got.counters,
			  bst & HWT_SAMPLE_BRANCH_COUNTERS ? 0xc0 + i : 0);
	}

	/* Cut anywhere before its end: refused, nothing left pointing. */
	size_t full = len;
	for (size_t cut = 8; cut < full; cut += 8) {
		len = cut;
		finish();
		if (hwt_aux_sample_parse(rec, &a, &s) != HWT_ERR_FORMAT ||
		    s.br || s.br_nr)
			HWT_FAIL("bst 0x%llx nr %u: a record cut at %zu bytes "
				 "was accepted", (unsigned long long)bst, nr, cut);
	}
}

static void every_stack_layout_is_read(void)
{
	static const uint64_t layouts[] = {
		0,
		PERF_SAMPLE_BRANCH_HW_INDEX,
		HWT_SAMPLE_BRANCH_COUNTERS,
		PERF_SAMPLE_BRANCH_HW_INDEX | HWT_SAMPLE_BRANCH_COUNTERS,
		PERF_SAMPLE_BRANCH_TYPE_SAVE | HWT_SAMPLE_BRANCH_PRIV_SAVE,
	};
	for (size_t l = 0; l < sizeof(layouts) / sizeof(*layouts); l++)
		for (unsigned nr = 0; nr <= 4; nr++)
			one_layout(layouts[l], nr);
}

static void types_name_kinds(void)
{
	struct hwt_brstack_entry e;
	enum hwt_branch_kind k = HWT_BRANCH_ERET;
	memset(&e, 0, sizeof(e));
	/* No type saved: no kind, and the out value is left alone. */
	CHECK(!hwt_brstack_kind(&e, &k));
	CHECK_INT(k, HWT_BRANCH_ERET);
	static const struct {
		uint8_t type, new_type;
		enum hwt_branch_kind kind;
	} t[] = {
		{HWT_BR_COND, 0, HWT_BRANCH_COND},
		{HWT_BR_UNCOND, 0, HWT_BRANCH_JUMP},
		{HWT_BR_IND, 0, HWT_BRANCH_INDIRECT},
		{HWT_BR_CALL, 0, HWT_BRANCH_CALL},
		{HWT_BR_IND_CALL, 0, HWT_BRANCH_CALL},
		{HWT_BR_RET, 0, HWT_BRANCH_RETURN},
		{HWT_BR_SYSCALL, 0, HWT_BRANCH_SYSCALL},
		{HWT_BR_SYSRET, 0, HWT_BRANCH_SYSRET},
		{HWT_BR_COND_CALL, 0, HWT_BRANCH_CALL},
		{HWT_BR_COND_RET, 0, HWT_BRANCH_RETURN},
		{HWT_BR_ERET, 0, HWT_BRANCH_ERET},
		{HWT_BR_IRQ, 0, HWT_BRANCH_INTERRUPT},
		{HWT_BR_SERROR, 0, HWT_BRANCH_EXCEPTION},
		{HWT_BR_EXTEND_ABI, HWT_BR_NEW_FAULT_DATA, HWT_BRANCH_EXCEPTION},
		{HWT_BR_EXTEND_ABI, HWT_BR_NEW_ARCH_1, HWT_BRANCH_INTERRUPT},
		{HWT_BR_EXTEND_ABI, HWT_BR_NEW_ARCH_5, HWT_BRANCH_EXCEPTION},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		e.type = t[i].type;
		e.new_type = t[i].new_type;
		CHECK(hwt_brstack_kind(&e, &k));
		CHECK_INT(k, t[i].kind);
	}
	e.type = HWT_BR_NO_TX;
	CHECK(!hwt_brstack_kind(&e, &k));
	e.type = HWT_BR_EXTEND_ABI;
	e.new_type = 8;
	CHECK(!hwt_brstack_kind(&e, &k));
}

static void stack_lengths_past_the_end_are_refused(void)
{
	struct perf_event_attr a;
	struct hwt_aux_sample s;
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = HWT_SAMPLE_BRANCH_COUNTERS;
	/* nr that would wrap nr * 24 and nr * 8. */
	len = 8;
	u64(UINT64_MAX / 8 + 1);
	u64(0);
	finish();
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), HWT_ERR_FORMAT);
	/* One entry but no room for its counter word. */
	len = 8;
	u64(1), u64(1), u64(2), u64(3);
	finish();
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), HWT_ERR_FORMAT);
	u64(9);
	finish();
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), 0);
	CHECK_U64(s.br_nr, 1);
	CHECK_U64(pd_u64(s.br_cntr), 9);
}

int main(void)
{
	RUN(every_stack_layout_is_read);
	RUN(types_name_kinds);
	RUN(stack_lengths_past_the_end_are_refused);
	return hwt_test_summary();
}
