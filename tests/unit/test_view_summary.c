/* hwt_view_write_summary, the line `hwtrace view` ends with: a view of
 * four timed calls on one thread spanning 1000 ns, drawn 10 pixels wide
 * (a pixel is 100 ns), keeps the two calls of 1000 and 400 ns alone and
 * adds the two of 1 ns, both in pixel 0 at depth 1, up into one block;
 * a call without time is left out and counted, a timed gap is a mark and
 * an untimed one is not. The counts are those the page's JSON carries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/view.h"

static void call(const struct hwt_stack_ops *ops, uint64_t func, int depth,
		 bool timed, uint64_t from, uint64_t to)
{
	struct hwt_frame f = {
		.func = func, .has_time = timed, .call_time = from,
		.return_time = to, .depth = depth, .pid = 7, .tid = 7, .cpu = 0,
	};
	CHECK_INT(ops->on_enter(ops->arg, &f), 0);
	CHECK_INT(ops->on_exit(ops->arg, &f), 0);
}

static void gap(struct hwt_elem_sink *marks, bool timed, uint64_t time)
{
	struct hwt_elem e = {.type = HWT_ELEM_GAP};
	e.fields = HWT_FIELD_PID | HWT_FIELD_TID | (timed ? HWT_FIELD_TIME : 0);
	e.pid = e.tid = 7;
	e.time = time;
	e.u.gap.reason = HWT_GAP_LOST;
	CHECK_INT(marks->emit(marks->arg, &e), 0);
}

static char *summary_of(const struct hwt_view *v, const char *prefix,
			const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CHECK(out != NULL);
	if (out) {
		CHECK_INT(hwt_view_write_summary(v, out, prefix, name), 0);
		fclose(out);
	}
	return text;
}

static void timeline_counted(void)
{
	struct hwt_view_opts o = {.size = sizeof(o), .timeline_pixels = 10};
	struct hwt_view *v = NULL;
	CHECK_INT(hwt_view_new(&o, &v), 0);
	if (!v)
		return;
	struct hwt_stack_ops ops = hwt_view_ops(v);
	struct hwt_elem_sink marks = hwt_view_marks(v);
	call(&ops, 0x1000, 1, true, 10, 11);
	call(&ops, 0x1000, 1, true, 20, 21);
	call(&ops, 0x2000, 1, true, 500, 900);
	call(&ops, 0x3000, 0, true, 0, 1000);
	call(&ops, 0x4000, 1, false, 0, 0);
	gap(&marks, true, 600);
	gap(&marks, false, 0);

	char *page = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&page, &len);
	CHECK(out != NULL);
	if (out) {
		CHECK_INT(hwt_view_write(v, out), 0);
		fclose(out);
	}
	/* The page's own account of the same drawing. */
	if (page)
		CHECK_CONTAINS(page, "\"pixel\":100,\"short\":2,\"blocks\":1,"
			       "\"untimed\":1,\"marks_dropped\":0}");
	free(page);

	char *text = summary_of(v, "hwtrace view: ", "page.html");
	if (text)
		CHECK_STR(text, "hwtrace view: wrote page.html: a timeline of 2 "
			  "calls and 2 shorter than a pixel added up in 1 blocks "
			  "(1 without time left out), 1 marks\n");
	free(text);
	text = summary_of(v, NULL, NULL);
	if (text)
		CHECK_STR(text, "wrote the page: a timeline of 2 calls and 2 "
			  "shorter than a pixel added up in 1 blocks (1 without "
			  "time left out), 1 marks\n");
	free(text);

	/* A stream that fails: the error, not a silent loss. */
	FILE *ro = fopen(HWT_SOURCE_DIR "/tests/unit/test_view_summary.c", "r");
	CHECK(ro != NULL);
	if (ro) {
		CHECK_INT(hwt_view_write_summary(v, ro, "", "x"), HWT_ERR_IO);
		fclose(ro);
	}
	CHECK_INT(hwt_view_write_summary(NULL, stderr, "", "x"), HWT_ERR_INVAL);
	hwt_view_free(v);
}

int main(void)
{
	RUN(timeline_counted);
	return hwt_test_summary();
}
