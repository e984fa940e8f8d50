/* The output's own number and string formatting (no printf per field)
 * writes what printf writes: every element type, text and jsonl, with the
 * edge values of each field, against lines built here with snprintf. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/output.h"

static const uint64_t u64s[] = {0, 1, 9, 10, 15, 16, 99, 100, 0xfff, 0x1000,
				999999, 1000000, 0x7fffffffffffffffull,
				UINT64_MAX};
static const int32_t i32s[] = {0, 1, -1, 7, 42, 99, 100, 999, 1000, 123456,
			       -123456, INT32_MAX, INT32_MIN};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static char want[8192], got[8192];

static void check(const struct hwt_elem *e, enum hwt_output_format f)
{
	int n = hwt_elem_format(e, f, got, sizeof(got));
	CHECK_STR(got, want);
	CHECK_INT(n, (int)strlen(want));
}

/* The common prefix of a text line. */
static int text_head(const struct hwt_elem *e, char *p, size_t size)
{
	int n = 0;
	if (e->fields & HWT_FIELD_CPU)
		n += snprintf(p + n, size - n, "[%03" PRId32 "] ", e->cpu);
	if (e->fields & HWT_FIELD_TID)
		n += snprintf(p + n, size - n, "%6" PRId32 " ", e->tid);
	if (e->fields & HWT_FIELD_TIME)
		n += snprintf(p + n, size - n, "%" PRIu64 ": ", e->time);
	return n;
}

static void ranges_and_branches_with_edge_numbers(void)
{
	for (size_t i = 0; i < N(i32s); i++) {
		for (size_t j = 0; j < N(u64s); j++) {
			uint64_t v = u64s[j], w = u64s[N(u64s) - 1 - j];
			struct hwt_elem e = {
				.type = HWT_ELEM_RANGE,
				.fields = HWT_FIELD_CPU | HWT_FIELD_PID |
					  HWT_FIELD_TID | HWT_FIELD_TIME,
				.cpu = i32s[i], .pid = i32s[N(i32s) - 1 - i],
				.tid = i32s[i], .time = w,
			};
			e.u.range.start = v;
			e.u.range.end = w;
			e.u.range.insns = v;
			e.u.range.isa = HWT_ISA_X86_64;
			int n = text_head(&e, want, sizeof(want));
			snprintf(want + n, sizeof(want) - n, "range     0x%" PRIx64
				 "..0x%" PRIx64 " %" PRIu64 " insns x86_64", v, w, v);
			check(&e, HWT_OUTPUT_TEXT);
			snprintf(want, sizeof(want), "{\"type\":\"range\",\"cpu\":%"
				 PRId32 ",\"pid\":%" PRId32 ",\"tid\":%" PRId32
				 ",\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64
				 "\",\"insns\":%" PRIu64 ",\"isa\":\"x86_64\","
				 "\"time\":%" PRIu64 "}", e.cpu, e.pid, e.tid, v, w,
				 v, w);
			check(&e, HWT_OUTPUT_JSONL);

			e.type = HWT_ELEM_BRANCH;
			e.fields = HWT_FIELD_TID | HWT_FIELD_EXC_NUM;
			e.u.branch.from = w;
			e.u.branch.to = v;
			e.u.branch.kind = HWT_BRANCH_INTERRUPT;
			e.u.branch.exception = (uint32_t)v;
			n = text_head(&e, want, sizeof(want));
			snprintf(want + n, sizeof(want) - n, "branch    0x%" PRIx64
				 " -> 0x%" PRIx64 " interrupt #%" PRIu32, w, v,
				 (uint32_t)v);
			check(&e, HWT_OUTPUT_TEXT);
			snprintf(want, sizeof(want), "{\"type\":\"branch\",\"tid\":%"
				 PRId32 ",\"from\":\"0x%" PRIx64 "\",\"to\":\"0x%"
				 PRIx64 "\",\"kind\":\"interrupt\",\"exception\":%"
				 PRIu32 "}", e.tid, w, v, (uint32_t)v);
			check(&e, HWT_OUTPUT_JSONL);
		}
	}
}

static void samples_gaps_errors_and_context(void)
{
	struct hwt_branch_entry br[3] = {
		{0x401000, 0x402000, HWT_BRANCH_CALL},
		{0xffffffff81000000ull, 0x10, HWT_BRANCH_RETURN},
		{0, UINT64_MAX, HWT_BRANCH_COND},
	};
	struct hwt_elem s = {.type = HWT_ELEM_SAMPLE, .fields = HWT_FIELD_CPU,
			     .cpu = 3};
	s.u.sample.ip = 0x401234;
	s.u.sample.period = 100003;
	s.u.sample.window = 4096;
	s.u.sample.sync = 17;
	s.u.sample.branches = br;
	s.u.sample.nbranches = 3;
	snprintf(want, sizeof(want), "[003] sample    ip 0x401234 period 100003 "
		 "window 4096 bytes (sync at 17) 3 branches: 0x401000->0x402000 "
		 "call, 0xffffffff81000000->0x10 return, 0x0->0x%" PRIx64 " cond",
		 UINT64_MAX);
	check(&s, HWT_OUTPUT_TEXT);
	snprintf(want, sizeof(want), "{\"type\":\"sample\",\"cpu\":3,\"ip\":"
		 "\"0x401234\",\"period\":100003,\"window\":4096,\"sync\":17,"
		 "\"branches\":[{\"from\":\"0x401000\",\"to\":\"0x402000\","
		 "\"kind\":\"call\"},{\"from\":\"0xffffffff81000000\",\"to\":"
		 "\"0x10\",\"kind\":\"return\"},{\"from\":\"0x0\",\"to\":\"0x%"
		 PRIx64 "\",\"kind\":\"cond\"}]}", UINT64_MAX);
	check(&s, HWT_OUTPUT_JSONL);
	s.u.sample.period = 0;
	s.u.sample.sync = 4096;
	s.u.sample.nbranches = 0;
	snprintf(want, sizeof(want), "[003] sample    ip 0x401234 window 4096 "
		 "bytes (no sync point) 0 branches");
	check(&s, HWT_OUTPUT_TEXT);

	struct hwt_elem g = {.type = HWT_ELEM_GAP,
			     .fields = HWT_FIELD_GAP_BYTES | HWT_FIELD_OFFSET,
			     .trace_offset = 8192};
	g.u.gap.reason = HWT_GAP_NO_IMAGE;
	g.u.gap.bytes = 12;
	g.u.gap.detail = "tab\there \"quoted\" back\\slash \x01";
	/* Text shows the control characters escaped (hwt_term_escape). */
	snprintf(want, sizeof(want), "gap       no_image 12 bytes: tab\\x09here "
		 "\"quoted\" back\\slash \\x01");
	check(&g, HWT_OUTPUT_TEXT);
	snprintf(want, sizeof(want), "{\"type\":\"gap\",\"reason\":\"no_image\","
		 "\"bytes\":12,\"offset\":8192,\"detail\":\"tab\\there "
		 "\\\"quoted\\\" back\\\\slash \\u0001\"}");
	check(&g, HWT_OUTPUT_JSONL);

	struct hwt_elem c = {.type = HWT_ELEM_CONTEXT,
			     .fields = HWT_FIELD_PID | HWT_FIELD_EL |
				       HWT_FIELD_VMID | HWT_FIELD_CPU,
			     .cpu = 1234, .pid = -1};
	c.u.context.el = 2;
	c.u.context.vmid = 4294967295u;
	snprintf(want, sizeof(want), "[1234] context   pid -1 el2 vmid 4294967295");
	check(&c, HWT_OUTPUT_TEXT);

	struct hwt_elem t = {.type = HWT_ELEM_TRACE_OFF, .fields = HWT_FIELD_AT};
	t.u.trace.at = 0xabcdef;
	snprintf(want, sizeof(want), "trace off at 0xabcdef");
	check(&t, HWT_OUTPUT_TEXT);
	t.type = HWT_ELEM_TRACE_ON;
	snprintf(want, sizeof(want), "{\"type\":\"trace_on\",\"at\":\"0xabcdef\"}");
	check(&t, HWT_OUTPUT_JSONL);

	struct hwt_elem r = {.type = HWT_ELEM_ERROR, .fields = HWT_FIELD_OFFSET,
			     .trace_offset = UINT64_MAX};
	r.u.error.message = "no memory mapped at this address";
	snprintf(want, sizeof(want), "error     at offset %" PRIu64 ": %s",
		 UINT64_MAX, r.u.error.message);
	check(&r, HWT_OUTPUT_TEXT);
}

/* Cut short at every length, the buffer holds what snprintf would. */
static void truncated_at_every_length(void)
{
	struct hwt_elem e = {.type = HWT_ELEM_BRANCH,
			     .fields = HWT_FIELD_CPU | HWT_FIELD_TID,
			     .cpu = 5, .tid = 31337};
	e.u.branch.from = 0x7fffdeadbeef;
	e.u.branch.to = 0x401000;
	e.u.branch.kind = HWT_BRANCH_RETURN;
	char full[256], cut[256], ref[256];
	int len = hwt_elem_format(&e, HWT_OUTPUT_TEXT, full, sizeof(full));
	for (int size = 1; size <= len + 1; size++) {
		memset(cut, 'x', sizeof(cut));
		int n = hwt_elem_format(&e, HWT_OUTPUT_TEXT, cut, (size_t)size);
		snprintf(ref, (size_t)size, "%s", full);
		CHECK_INT(n, len);
		CHECK_STR(cut, ref);
		CHECK_INT(cut[size], 'x');
	}
}

int main(void)
{
	RUN(ranges_and_branches_with_edge_numbers);
	RUN(samples_gaps_errors_and_context);
	RUN(truncated_at_every_length);
	return hwt_test_summary();
}
