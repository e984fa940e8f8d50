/* The buffered output (hwt_output) writes, for a stream of elements, the
 * lines hwt_elem_format gives one element at a time with the annotation
 * appended, in text and jsonl: repeated ranges and branches whose time,
 * CPU and thread change, other element types between them, a task that
 * changes part way. Its cache of bodies and annotations calls the
 * annotator once per distinct (element, process), and a line too long
 * for the buffer is written whole, as before. Held, it writes to its
 * FILE only what it cannot hold, and the rest where it is told. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/output.h"

static int calls;

/* Names the process and address, as a symbolizer would. */
static int annotate(void *arg, const struct hwt_elem *e,
		    enum hwt_output_format f, FILE *out, char *buf, size_t size)
{
	(void)arg;
	(void)out;
	calls++;
	int32_t pid = (e->fields & HWT_FIELD_PID) ? e->pid : e->tid;
	uint64_t a = e->type == HWT_ELEM_BRANCH ? e->u.branch.to
		     : e->type == HWT_ELEM_RANGE ? e->u.range.start : 0;
	if (f == HWT_OUTPUT_JSONL)
		return snprintf(buf, size, ",\"sym\":\"p%" PRId32 "_%" PRIx64 "\"",
				pid, a);
	return snprintf(buf, size, "  p%" PRId32 "_%" PRIx64, pid, a);
}

#define NELEMS 4000

static struct hwt_elem elems[NELEMS];
static char long_detail[9000];

static void make_elements(void)
{
	memset(long_detail, 'x', sizeof(long_detail) - 1);
	for (int i = 0; i < NELEMS; i++) {
		struct hwt_elem *e = &elems[i];
		memset(e, 0, sizeof(*e));
		e->fields = HWT_FIELD_CPU | HWT_FIELD_TID | HWT_FIELD_TIME;
		e->cpu = i < NELEMS / 2 ? 1 : 2;
		e->tid = 100 + (i / 1000);
		if (i % 3 == 0) {
			e->fields |= HWT_FIELD_PID;
			e->pid = 7 + (i / 1500);
		}
		/* Times repeat in runs, as between time stamps, and a few
		 * elements have none. */
		e->time = 1000000 + (uint64_t)(i / 4) * 37;
		if (i % 13 == 0)
			e->fields &= ~(uint32_t)HWT_FIELD_TIME;
		switch (i % 7) {
		case 0: case 1: case 2:
			e->type = HWT_ELEM_RANGE;
			e->u.range.start = 0x401000 + (i % 5) * 16;
			e->u.range.end = e->u.range.start + 12;
			e->u.range.insns = 3;
			e->u.range.isa = HWT_ISA_X86_64;
			break;
		case 3: case 4:
			e->type = HWT_ELEM_BRANCH;
			e->u.branch.from = 0x40100b + (i % 4);
			e->u.branch.to = 0x401000;
			e->u.branch.kind = i % 2 ? HWT_BRANCH_COND : HWT_BRANCH_CALL;
			if (i % 11 == 0) {
				e->fields |= HWT_FIELD_EXC_NUM;
				e->u.branch.exception = 14;
			}
			break;
		case 5:
			e->type = HWT_ELEM_GAP;
			e->u.gap.reason = HWT_GAP_OVERFLOW;
			e->u.gap.detail = i == 999 ? long_detail : "dropped";
			break;
		default:
			e->type = HWT_ELEM_TRACE_ON;
			e->fields |= HWT_FIELD_AT;
			e->u.trace.at = 0x401000;
			break;
		}
	}
}

/* The lines one element at a time: hwt_elem_format, then the
 * annotation (none on a line of 4096 bytes or more). */
static char *expected(enum hwt_output_format f, size_t *len)
{
	char *text;
	FILE *m = open_memstream(&text, len);
	static char line[16384], extra[4096];
	for (int i = 0; i < NELEMS; i++) {
		int n = hwt_elem_format(&elems[i], f, line, sizeof(line));
		if (n >= 4096) {
			fprintf(m, "%s\n", line);
			continue;
		}
		annotate(NULL, &elems[i], f, NULL, extra, sizeof(extra));
		if (f == HWT_OUTPUT_JSONL)
			fprintf(m, "%.*s%s}\n", n - 1, line, extra);
		else
			fprintf(m, "%s%s\n", line, extra);
	}
	fclose(m);
	return text;
}

static void check_format(enum hwt_output_format f)
{
	size_t want_len, got_len;
	char *want = expected(f, &want_len), *got;
	FILE *m = open_memstream(&got, &got_len);
	struct hwt_output *o = hwt_output_new(m, f);
	struct hwt_output_annotator a = {annotate, NULL, NULL};
	hwt_output_set_annotator(o, &a);
	struct hwt_elem_sink sink = hwt_output_sink(o);
	calls = 0;
	for (int i = 0; i < NELEMS; i++)
		CHECK_INT(sink.emit(sink.arg, &elems[i]), 0);
	CHECK_INT(hwt_output_flush(o), 0);
	hwt_output_free(o);
	fclose(m);
	CHECK_U64(got_len, want_len);
	CHECK(!strcmp(got, want));
	/* Gaps and trace_ons are annotated each time; ranges and branches
	 * (a few distinct ones per process: 5 range starts, 8 branch
	 * shapes) once each, give or take cache collisions: well under a
	 * tenth of their number. */
	int gaps_on = 0, cached_kinds = 0;
	for (int i = 0; i < NELEMS; i++) {
		if (elems[i].type == HWT_ELEM_GAP && i != 999)
			gaps_on++;
		else if (elems[i].type == HWT_ELEM_TRACE_ON)
			gaps_on++;
		else if (elems[i].type != HWT_ELEM_GAP)
			cached_kinds++;
	}
	CHECK(calls >= gaps_on);
	CHECK(calls < gaps_on + cached_kinds / 10);
	free(want);
	free(got);
}

/* Held (hwt_output_hold), the output writes to its FILE only what it
 * cannot hold, everything up to the long line, and keeps the rest, more
 * than its buffer's 256 KiB, for hwt_output_flush_to: the two together
 * are the stream's lines. */
static void check_held(enum hwt_output_format f)
{
	size_t want_len, own_len, to_len;
	char *want = expected(f, &want_len), *own, *to;
	FILE *m = open_memstream(&own, &own_len);
	FILE *t = open_memstream(&to, &to_len);
	struct hwt_output *o = hwt_output_new(m, f);
	struct hwt_output_annotator a = {annotate, NULL, NULL};
	hwt_output_set_annotator(o, &a);
	hwt_output_hold(o, true);
	struct hwt_elem_sink sink = hwt_output_sink(o);
	for (int i = 0; i < NELEMS; i++)
		CHECK_INT(sink.emit(sink.arg, &elems[i]), 0);
	for (int i = 1000; i < NELEMS; i++) /* its lines again */
		CHECK_INT(sink.emit(sink.arg, &elems[i]), 0);
	fflush(m);
	/* The long line is element 999's: its own FILE ends with it. */
	CHECK(own_len > 9000 && own[own_len - 1] == '\n');
	CHECK(own_len < want_len / 2);
	CHECK_INT(hwt_output_flush_to(o, t), 0);
	fflush(t);
	CHECK(to_len > 256u * 1024);
	hwt_output_free(o);
	fclose(m);
	fclose(t);
	/* own + to: the stream, then elements 1000.. once more. */
	size_t tail_at = own_len;
	CHECK_U64(own_len + to_len, want_len + (want_len - tail_at));
	CHECK(!memcmp(own, want, own_len));
	CHECK(!memcmp(to, want + own_len, want_len - own_len));
	CHECK(!memcmp(to + (want_len - own_len), want + tail_at,
		      want_len - tail_at));
	free(want);
	free(own);
	free(to);
}

static void held_stream(void)
{
	check_held(HWT_OUTPUT_TEXT);
	check_held(HWT_OUTPUT_JSONL);
}

static void text_stream(void)
{
	check_format(HWT_OUTPUT_TEXT);
}

static void jsonl_stream(void)
{
	check_format(HWT_OUTPUT_JSONL);
}

int main(void)
{
	make_elements();
	RUN(text_stream);
	RUN(held_stream);
	RUN(jsonl_stream);
	return hwt_test_summary();
}
