/* decode --calls lines (hwt_calls_writer) from hand-made frames, against
 * the text docs/decode.md gives them, written out here: the time as
 * SECONDS.NANOSECONDS (nine digits), the CPU in three digits, pid/tid
 * (-1 when unknown), two spaces of indent per level (none below 0, at
 * most 400), names escaped for a terminal or as JSON strings; and a line
 * longer than any fixed buffer (a 3000-byte name) whole. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/calls.h"

static char long_name[3001];

static const char *fake_name(void *arg, int32_t pid, uint64_t addr,
			     uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = addr;
	switch (addr) {
	case 0x10: return "main";
	case 0x20: return "esc\x1b[0m\"q\"";
	case 0x30: return long_name;
	}
	return NULL;
}

static char *lines(enum hwt_output_format format,
		   void (*feed)(struct hwt_stack_ops *ops))
{
	const struct hwt_func_namer namer = {.name = fake_name};
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	struct hwt_calls_writer *w = NULL;
	CHECK_INT(hwt_calls_writer_new(out, format, &namer, &w), 0);
	struct hwt_stack_ops ops = hwt_calls_writer_ops(w);
	feed(&ops);
	hwt_calls_writer_free(w);
	fclose(out);
	return buf;
}

static void feed_timed(struct hwt_stack_ops *ops)
{
	struct hwt_frame m = {
		.func = 0x10, .call_site = 0x400, .has_time = true,
		.call_time = 5, .return_time = 12000000007ull, .depth = 1,
		.pid = 7, .tid = 8, .cpu = 1, .start = HWT_FRAME_CALLED,
		.end = HWT_FRAME_RETURNED, .insns_self = 3, .insns_total = 9,
		.branches_total = 2,
	};
	CHECK_INT(ops->on_enter(ops->arg, &m), 0);
	struct hwt_frame e = {
		.func = 0x20, .depth = -1, .pid = -1, .tid = -1, .cpu = -1,
		.start = HWT_FRAME_INFERRED, .end = HWT_FRAME_GAP,
		.insns_self = 1, .insns_total = 1,
	};
	CHECK_INT(ops->on_enter(ops->arg, &e), 0);
	CHECK_INT(ops->on_exit(ops->arg, &e), 0);
	CHECK_INT(ops->on_exit(ops->arg, &m), 0);
}

static void test_text_fields(void)
{
	char *got = lines(HWT_OUTPUT_TEXT, feed_timed);
	CHECK_STR(got, "0.000000005 [001] 7/8   -> main\n"
		       "- -1/-1 -> esc\\x1b[0m\"q\" [inferred]\n"
		       "- -1/-1 <- esc\\x1b[0m\"q\"  1 insns [gap]\n"
		       "12.000000007 [001] 7/8   <- main  9 insns\n");
	free(got);
}

static void test_json_fields(void)
{
	char *got = lines(HWT_OUTPUT_JSONL, feed_timed);
	CHECK_STR(got,
		  "{\"type\":\"call\",\"cpu\":1,\"pid\":7,\"tid\":8,\"time\":5,"
		  "\"depth\":1,\"addr\":\"0x10\",\"sym\":\"main\","
		  "\"from\":\"0x400\",\"start\":\"called\"}\n"
		  "{\"type\":\"call\",\"depth\":-1,\"addr\":\"0x20\","
		  "\"sym\":\"esc\\u001b[0m\\\"q\\\"\",\"start\":\"inferred\"}\n"
		  "{\"type\":\"return\",\"depth\":-1,\"addr\":\"0x20\","
		  "\"sym\":\"esc\\u001b[0m\\\"q\\\"\",\"end\":\"gap\","
		  "\"insns\":1,\"insns_self\":1,\"branches\":0}\n"
		  "{\"type\":\"return\",\"cpu\":1,\"pid\":7,\"tid\":8,"
		  "\"time\":12000000007,\"depth\":1,\"addr\":\"0x10\","
		  "\"sym\":\"main\",\"end\":\"returned\",\"insns\":9,"
		  "\"insns_self\":3,\"branches\":2,\"duration\":12000000002}\n");
	free(got);
}

static void feed_deep_long(struct hwt_stack_ops *ops)
{
	struct hwt_frame f = {
		.func = 0x30, .depth = 250, .pid = 1, .tid = 1, .cpu = -1,
		.start = HWT_FRAME_CALLED, .end = HWT_FRAME_RETURNED,
		.insns_total = 4,
	};
	CHECK_INT(ops->on_enter(ops->arg, &f), 0);
	CHECK_INT(ops->on_exit(ops->arg, &f), 0);
}

static void test_deep_and_long(void)
{
	memset(long_name, 'n', sizeof(long_name) - 1);
	char *got = lines(HWT_OUTPUT_TEXT, feed_deep_long);
	/* "- 1/1 " + 400 spaces + "-> " + name + "\n", then the return. */
	size_t call_len = 6 + 400 + 3 + 3000 + 1;
	CHECK(got && strlen(got) == call_len + 6 + 400 + 3 + 3000 + 9 + 1);
	if (got && strlen(got) > call_len) {
		CHECK(!strncmp(got, "- 1/1 ", 6));
		CHECK(strspn(got + 6, " ") == 400);
		CHECK(!strncmp(got + 406, "-> nnn", 6));
		CHECK(strspn(got + 409, "n") == 3000);
		CHECK(got[call_len - 1] == '\n');
		CHECK(!strcmp(got + call_len + 6 + 400 + 3 + 3000, "  4 insns\n"));
	}
	free(got);
}

int main(void)
{
	RUN(test_text_fields);
	RUN(test_json_fields);
	RUN(test_deep_and_long);
	return hwt_test_summary();
}
