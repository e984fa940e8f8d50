/* hwt_annot_records: records equal in what an annotation depends on share
 * one id and one call of the annotator; records that differ in any of it
 * get their own; records it does not annotate are HWT_ANNOT_NONE. The
 * oracle is a counting annotator that writes the addresses it was given,
 * so every id's text says which record it was made for. */
#include <stdio.h>

#include "harness.h"
#include "hwtrace/annotation_table.h"
#include "hwtrace/element.h"
#include "hwtrace/error.h"

struct counter {
	int calls;
	uint64_t tag;
};

static int annotate_addrs(void *arg, const struct hwt_elem *e,
			  enum hwt_output_format format, FILE *out, char *buf,
			  size_t size)
{
	(void)out;
	struct counter *c = arg;
	c->calls++;
	if (format != HWT_OUTPUT_JSONL)
		return hwt_error(HWT_ERR_INVAL, "jsonl expected");
	if (e->type == HWT_ELEM_BRANCH && e->u.branch.to == 0)
		return 0; /* nothing known: an empty annotation */
	if (e->type == HWT_ELEM_RANGE && e->pid == 7)
		return snprintf(buf, size, ",\"long\":\"%0300d\"", 7);
	if (e->type == HWT_ELEM_RANGE)
		return snprintf(buf, size, ",\"r\":\"%llx-%llx\",\"pid\":%d",
				(unsigned long long)e->u.range.start,
				(unsigned long long)e->u.range.end, (int)e->pid);
	if (e->type == HWT_ELEM_TRACE_ON || e->type == HWT_ELEM_TRACE_OFF)
		return snprintf(buf, size, ",\"t\":\"%llx\"",
				(unsigned long long)e->u.trace.at);
	return snprintf(buf, size, ",\"b\":\"%llx>%llx\"",
			(unsigned long long)e->u.branch.from,
			(unsigned long long)e->u.branch.to);
}

static uint64_t tag_of(void *arg, const struct hwt_elem *e)
{
	(void)e;
	return ((struct counter *)arg)->tag;
}

static struct hwt_elem_record range(uint64_t start, uint64_t end, int pid,
				    int cpu, uint64_t time)
{
	return (struct hwt_elem_record){
		.type = HWT_ELEM_RANGE, .from = start, .to = end, .count = 3,
		.fields = HWT_FIELD_PID | HWT_FIELD_CPU | HWT_FIELD_TIME,
		.pid = pid, .cpu = cpu, .time = time};
}

static void equal_records_share_one_call(void)
{
	struct counter c = {0};
	struct hwt_output_annotator a = {annotate_addrs, &c, tag_of};
	struct hwt_annot_table *t;
	CHECK_INT(hwt_annot_table_new(&a, HWT_OUTPUT_JSONL, &t), 0);
	struct hwt_elem_record r[7] = {
		range(0x1000, 0x1010, 5, 0, 10),
		range(0x1000, 0x1010, 5, 1, 99), /* other CPU and time: same */
		range(0x1000, 0x1010, 6, 0, 10), /* other process */
		range(0x1000, 0x1020, 5, 0, 10), /* other end */
		{.type = HWT_ELEM_BRANCH, .from = 0x1010, .to = 0x2000},
		{.type = HWT_ELEM_BRANCH, .from = 0x1010, .to = 0},
		{.type = HWT_ELEM_TIMESTAMP, .time = 5},
	};
	uint32_t ids[7];
	CHECK_INT(hwt_annot_records(t, r, 7, ids), 7);
	CHECK_INT(c.calls, 5);
	CHECK_INT(ids[0], 1);
	CHECK_INT(ids[1], 1);
	CHECK_INT(ids[2], 2);
	CHECK_INT(ids[3], 3);
	CHECK_INT(ids[4], 4);
	CHECK_INT(ids[5], 5); /* an empty text, an id of its own */
	CHECK_U64(ids[6], HWT_ANNOT_NONE);
	size_t len = 0;
	CHECK_STR(hwt_annot_text(t, ids[0], &len), ",\"r\":\"1000-1010\",\"pid\":5");
	CHECK_INT(len, 24);
	CHECK_STR(hwt_annot_text(t, ids[2], NULL), ",\"r\":\"1000-1010\",\"pid\":6");
	CHECK_STR(hwt_annot_text(t, ids[3], NULL), ",\"r\":\"1000-1020\",\"pid\":5");
	CHECK_STR(hwt_annot_text(t, ids[4], &len), ",\"b\":\"1010>2000\"");
	CHECK_INT(len, 16);
	CHECK_STR(hwt_annot_text(t, ids[5], &len), "");
	CHECK_INT(len, 0);
	CHECK(hwt_annot_text(t, 6, NULL) == NULL);
	/* A later batch: known records cost no call; a new tag (other
	 * mappings at that time) does. */
	CHECK_INT(hwt_annot_records(t, r, 2, ids), 2);
	CHECK_INT(c.calls, 5);
	c.tag = 7;
	CHECK_INT(hwt_annot_records(t, r, 1, ids), 1);
	CHECK_INT(c.calls, 6);
	CHECK_INT(ids[0], 6);
	size_t texts;
	uint64_t calls;
	hwt_annot_table_stats(t, &texts, &calls);
	CHECK_INT(texts, 7);
	CHECK_U64(calls, 6);
	hwt_annot_table_free(t);
}

static void trace_on_and_off_are_annotated_each_time_and_share_texts(void)
{
	/* No cache_tag promise covers them: two equal trace_ons are two
	 * calls, and share the id of their equal text; a trace_off of the
	 * same text and a trace_on of another get ids of their own. */
	struct counter c = {0};
	struct hwt_output_annotator a = {annotate_addrs, &c, NULL};
	struct hwt_annot_table *t;
	CHECK_INT(hwt_annot_table_new(&a, HWT_OUTPUT_JSONL, &t), 0);
	struct hwt_elem_record r[4] = {
		{.type = HWT_ELEM_TRACE_ON, .from = 0x3000,
		 .fields = HWT_FIELD_AT},
		{.type = HWT_ELEM_TRACE_ON, .from = 0x3000,
		 .fields = HWT_FIELD_AT},
		{.type = HWT_ELEM_TRACE_OFF, .from = 0x3000,
		 .fields = HWT_FIELD_AT},
		{.type = HWT_ELEM_TRACE_ON, .from = 0x4000,
		 .fields = HWT_FIELD_AT},
	};
	uint32_t ids[4];
	CHECK_INT(hwt_annot_records(t, r, 4, ids), 4);
	CHECK_INT(c.calls, 4);
	CHECK_INT(ids[0], 1);
	CHECK_INT(ids[1], 1);
	CHECK_INT(ids[2], 2);
	CHECK_INT(ids[3], 3);
	CHECK_STR(hwt_annot_text(t, ids[1], NULL), ",\"t\":\"3000\"");
	CHECK_STR(hwt_annot_text(t, ids[2], NULL), ",\"t\":\"3000\"");
	CHECK_STR(hwt_annot_text(t, ids[3], NULL), ",\"t\":\"4000\"");
	/* Equal texts of many trace_ons past the text slots' growth: one
	 * id each text, still. */
	struct hwt_elem_record m[300];
	uint32_t mid[300];
	for (int i = 0; i < 300; i++)
		m[i] = (struct hwt_elem_record){.type = HWT_ELEM_TRACE_ON,
			.from = 0x5000 + (uint64_t)(i % 100),
			.fields = HWT_FIELD_AT};
	CHECK_INT(hwt_annot_records(t, m, 300, mid), 300);
	for (int i = 0; i < 300; i++)
		CHECK_INT(mid[i], 4 + i % 100);
	size_t texts;
	hwt_annot_table_stats(t, &texts, NULL);
	CHECK_INT(texts, 104);
	hwt_annot_table_free(t);
}

static void many_distinct_records_survive_growth(void)
{
	/* More keys than the first slots hold: every id still names its
	 * own record's text after the table grew. */
	struct counter c = {0};
	struct hwt_output_annotator a = {annotate_addrs, &c, NULL};
	struct hwt_annot_table *t;
	CHECK_INT(hwt_annot_table_new(&a, HWT_OUTPUT_JSONL, &t), 0);
	enum { N = 5000 };
	static struct hwt_elem_record r[N];
	static uint32_t ids[N];
	for (int i = 0; i < N; i++)
		r[i] = range(0x400000 + 16 * (uint64_t)i, 0x400008 + 16 * (uint64_t)i,
			     1, 0, 0);
	CHECK_INT(hwt_annot_records(t, r, N, ids), N);
	CHECK_INT(hwt_annot_records(t, r, N, ids), N);
	CHECK_INT(c.calls, N);
	int wrong = 0;
	for (int i = 0; i < N; i++) {
		char want[64];
		snprintf(want, sizeof(want), ",\"r\":\"%llx-%llx\",\"pid\":1",
			 (unsigned long long)r[i].from, (unsigned long long)r[i].to);
		const char *got = hwt_annot_text(t, ids[i], NULL);
		wrong += !got || strcmp(got, want) != 0;
	}
	CHECK_INT(wrong, 0);
	hwt_annot_table_free(t);
}

static void a_long_annotation_is_kept_whole(void)
{
	struct counter c = {0};
	struct hwt_output_annotator a = {annotate_addrs, &c, NULL};
	struct hwt_annot_table *t;
	CHECK_INT(hwt_annot_table_new(&a, HWT_OUTPUT_JSONL, &t), 0);
	struct hwt_elem_record r = range(UINT64_MAX - 1, UINT64_MAX, 7, 0, 0);
	uint32_t id;
	CHECK_INT(hwt_annot_records(t, &r, 1, &id), 1);
	size_t len = 0;
	const char *s = hwt_annot_text(t, id, &len);
	CHECK_INT(len, 310);
	CHECK(s && strlen(s) == 310 && s[309] == '"' && s[308] == '7' &&
	      s[9] == '0');
	/* The first call asked how long the text is, the second wrote it. */
	CHECK_INT(c.calls, 2);
	hwt_annot_table_free(t);
}

static void bad_arguments_are_refused(void)
{
	struct hwt_annot_table *t = NULL;
	CHECK_INT(hwt_annot_table_new(NULL, HWT_OUTPUT_JSONL, &t), HWT_ERR_INVAL);
	CHECK(t == NULL);
	CHECK_INT(hwt_annot_records(NULL, NULL, 0, NULL), HWT_ERR_INVAL);
	CHECK(hwt_annot_text(NULL, 0, NULL) == NULL);
	hwt_annot_table_free(NULL);
}

int main(void)
{
	RUN(equal_records_share_one_call);
	RUN(trace_on_and_off_are_annotated_each_time_and_share_texts);
	RUN(many_distinct_records_survive_growth);
	RUN(a_long_annotation_is_kept_whole);
	RUN(bad_arguments_are_refused);
	return hwt_test_summary();
}
