/* The JSON-lines and text forms of each element type (DESIGN.md §3). */
#include "harness.h"
#include "hwtrace/output.h"

static void jsonl_range_matches_design_example(void)
{
	struct hwt_elem e = {.type = HWT_ELEM_RANGE,
			     .fields = HWT_FIELD_CPU | HWT_FIELD_PID |
				       HWT_FIELD_TID | HWT_FIELD_TIME,
			     .cpu = 2, .pid = 812, .tid = 815, .time = 1234567};
	char buf[256];

	e.u.range.start = 0x401000;
	e.u.range.end = 0x40101c;
	e.u.range.insns = 7;
	e.u.range.isa = HWT_ISA_X86_64;
	hwt_elem_format(&e, HWT_OUTPUT_JSONL, buf, sizeof(buf));
	CHECK_STR(buf, "{\"type\":\"range\",\"cpu\":2,\"pid\":812,\"tid\":815,"
		       "\"start\":\"0x401000\",\"end\":\"0x40101c\",\"insns\":7,"
		       "\"isa\":\"x86_64\",\"time\":1234567}");
}

static void jsonl_branch_gap_and_error(void)
{
	struct hwt_elem b = {.type = HWT_ELEM_BRANCH,
			     .fields = HWT_FIELD_CPU | HWT_FIELD_TID,
			     .cpu = 2, .tid = 815};
	struct hwt_elem g = {.type = HWT_ELEM_GAP,
			     .fields = HWT_FIELD_CPU | HWT_FIELD_GAP_BYTES,
			     .cpu = 2};
	struct hwt_elem r = {.type = HWT_ELEM_ERROR,
			     .fields = HWT_FIELD_CPU | HWT_FIELD_OFFSET,
			     .cpu = 2, .trace_offset = 81920};
	char buf[256];

	b.u.branch.from = 0x401018;
	b.u.branch.to = 0x402000;
	b.u.branch.kind = HWT_BRANCH_CALL;
	hwt_elem_format(&b, HWT_OUTPUT_JSONL, buf, sizeof(buf));
	CHECK_STR(buf, "{\"type\":\"branch\",\"cpu\":2,\"tid\":815,"
		       "\"from\":\"0x401018\",\"to\":\"0x402000\",\"kind\":\"call\"}");

	g.u.gap.reason = HWT_GAP_TRUNCATED;
	g.u.gap.bytes = 4096;
	hwt_elem_format(&g, HWT_OUTPUT_JSONL, buf, sizeof(buf));
	CHECK_STR(buf, "{\"type\":\"gap\",\"cpu\":2,\"reason\":\"truncated\","
		       "\"bytes\":4096}");

	r.u.error.message = "bad \"packet\"\n";
	hwt_elem_format(&r, HWT_OUTPUT_JSONL, buf, sizeof(buf));
	CHECK_STR(buf, "{\"type\":\"error\",\"cpu\":2,\"offset\":81920,"
		       "\"message\":\"bad \\\"packet\\\"\\n\"}");
}

static void format_reports_needed_length_when_buffer_is_short(void)
{
	struct hwt_elem e = {.type = HWT_ELEM_TRACE_ON, .fields = HWT_FIELD_AT};
	char buf[8];

	e.u.trace.at = 0x401000;
	int n = hwt_elem_format(&e, HWT_OUTPUT_JSONL, buf, sizeof(buf));
	CHECK_INT(n, (int)strlen("{\"type\":\"trace_on\",\"at\":\"0x401000\"}"));
	CHECK_STR(buf, "{\"type\"");
}

int main(void)
{
	RUN(jsonl_range_matches_design_example);
	RUN(jsonl_branch_gap_and_error);
	RUN(format_reports_needed_length_when_buffer_is_short);
	return hwt_test_summary();
}
