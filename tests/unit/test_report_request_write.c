/* hwt_report_request_write: the one view a request asks for, written by
 * that view's own writer.
 *  - Hand-made frames (main, self 4, calling leaf twice, 3 each) fed to a
 *    report and a call graph: the folded stacks are exactly the text
 *    worked out here; the table, the call graph, leaf's callers, main's
 *    callees and the partial result are byte for byte what their writers
 *    (hwt_report_write, hwt_callgraph_write, hwt_callgraph_write_peek,
 *    hwt_partial_write) give on their own, and differ from each other,
 *    so a view sent to the wrong writer shows.
 *  - Refused: a graph view without the graph, no report (HWT_ERR_INVAL,
 *    nothing written); a peek at a function no edge names
 *    (HWT_ERR_NOENT). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/callgraph.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"
#include "hwtrace/report.h"
#include "hwtrace/report_request.h"

static const char *fake_name(void *arg, int32_t pid, uint64_t addr,
			     uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = addr;
	return addr == 1 ? "main" : addr == 2 ? "leaf" : NULL;
}

static const char *fake_dso(void *arg, int32_t pid, uint64_t addr)
{
	(void)arg;
	(void)pid;
	(void)addr;
	return "prog";
}

static const struct hwt_func_namer namer = {
	.name = fake_name, .dso = fake_dso,
};

static struct hwt_frame frame(uint64_t func, int depth, uint64_t self,
			      uint64_t total)
{
	struct hwt_frame f = {
		.func = func, .depth = depth, .pid = 1, .tid = 1, .cpu = -1,
		.start = HWT_FRAME_CALLED, .insns_self = self,
		.insns_total = total,
	};
	return f;
}

/* A consumer may want only the ended frames (the call graph). */
static void enter(struct hwt_stack_ops ops, const struct hwt_frame *f)
{
	if (ops.on_enter)
		CHECK_INT(ops.on_enter(ops.arg, f), 0);
}

/* main (self 4) calls leaf twice (3 instructions each). */
static void feed(struct hwt_stack_ops ops)
{
	struct hwt_frame m = frame(1, 0, 4, 10);
	enter(ops, &m);
	for (int i = 0; i < 2; i++) {
		struct hwt_frame l = frame(2, 1, 3, 3);
		l.caller = &m;
		enter(ops, &l);
		CHECK_INT(ops.on_exit(ops.arg, &l), 0);
	}
	CHECK_INT(ops.on_exit(ops.arg, &m), 0);
}

struct fixture {
	struct hwt_report *report;
	struct hwt_callgraph *graph;
};

/* What hwt_report_request_write writes for @rq; *@err its return. */
static char *via_request(const struct hwt_report_request *rq,
			 const struct hwt_report_output *o, int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	*err = hwt_report_request_write(rq, o, out);
	fclose(out);
	return buf;
}

enum direct { TABLE, GRAPH, CALLERS, CALLEES, PARTIAL };

/* What the view's own writer writes. */
static char *direct(const struct fixture *f, enum direct which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	struct hwt_partial *p = NULL;
	switch (which) {
	case TABLE:
		CHECK_INT(hwt_report_write(f->report, out, 25, false), 0);
		break;
	case GRAPH:
		CHECK_INT(hwt_callgraph_write(f->graph, out, 25, false), 0);
		break;
	case CALLERS:
	case CALLEES:
		CHECK_INT(hwt_callgraph_write_peek(f->graph, out,
						   which == CALLEES ? "main"
								    : "leaf",
						   which == CALLEES, false), 0);
		break;
	case PARTIAL:
		CHECK_INT(hwt_partial_from_report(f->report, false, &p), 0);
		CHECK_INT(hwt_partial_write(p, out), 0);
		hwt_partial_free(p);
		break;
	}
	fclose(out);
	return buf;
}

static void check_view(const struct fixture *f,
		       const struct hwt_report_request *rq, bool callees,
		       enum direct which)
{
	const struct hwt_report_output o = {
		.report = f->report, .graph = f->graph, .peek_callees = callees,
		.top = 25, .weight = HWT_WEIGHT_INSNS,
	};
	int err;
	char *got = via_request(rq, &o, &err);
	char *want = direct(f, which);
	CHECK_INT(err, 0);
	CHECK(want != NULL && want[0] != '\0');
	CHECK_STR(got, want);
	free(got);
	free(want);
}

static void test_views_and_refusals(void)
{
	struct fixture f;
	CHECK_INT(hwt_report_new(&namer, &f.report), 0);
	struct hwt_callgraph_opts gopts = { .size = sizeof(gopts),
					    .per_thread = false,
					    .children = false,
					    .time_unit = NULL };
	CHECK_INT(hwt_callgraph_new(&namer, &gopts, &f.graph), 0);
	feed(hwt_report_ops(f.report));
	feed(hwt_callgraph_ops(f.graph));

	/* The folded stacks, worked out from the frames. */
	const struct hwt_report_request collapsed = { .ncaptures = 1,
						      .collapsed = true };
	const struct hwt_report_output o = {
		.report = f.report, .weight = HWT_WEIGHT_INSNS,
	};
	int err;
	char *got = via_request(&collapsed, &o, &err);
	CHECK_INT(err, 0);
	CHECK_STR(got, "main 4\nmain;leaf 6\n");
	free(got);

	const struct hwt_report_request table = { .ncaptures = 1 };
	const struct hwt_report_request graph = { .ncaptures = 1,
						  .call_graph = true };
	const struct hwt_report_request callers = { .ncaptures = 1,
						    .peek = "leaf" };
	const struct hwt_report_request callees = { .ncaptures = 1,
						    .peek = "main" };
	const struct hwt_report_request partial = { .ncaptures = 1,
						    .partial = true };
	check_view(&f, &table, false, TABLE);
	check_view(&f, &graph, false, GRAPH);
	check_view(&f, &callers, false, CALLERS);
	check_view(&f, &callees, true, CALLEES);
	check_view(&f, &partial, false, PARTIAL);
	/* The views differ, so each comparison above can fail. */
	char *views[] = { direct(&f, TABLE), direct(&f, GRAPH),
			  direct(&f, CALLERS), direct(&f, CALLEES),
			  direct(&f, PARTIAL) };
	for (int i = 0; i < 5; i++)
		for (int j = i + 1; j < 5; j++)
			CHECK(strcmp(views[i], views[j]) != 0);
	for (int i = 0; i < 5; i++)
		free(views[i]);

	/* A graph view without its graph; no report. */
	got = via_request(&graph, &o, &err);
	CHECK_INT(err, HWT_ERR_INVAL);
	CHECK_STR(got, "");
	free(got);
	const struct hwt_report_output none = { .graph = f.graph };
	got = via_request(&table, &none, &err);
	CHECK_INT(err, HWT_ERR_INVAL);
	CHECK_STR(got, "");
	free(got);
	/* A peek at a function no edge names. */
	const struct hwt_report_request unknown = { .ncaptures = 1,
						    .peek = "nowhere" };
	const struct hwt_report_output with_graph = { .report = f.report,
						      .graph = f.graph };
	got = via_request(&unknown, &with_graph, &err);
	CHECK_INT(err, HWT_ERR_NOENT);
	free(got);

	hwt_callgraph_free(f.graph);
	hwt_report_free(f.report);
}

int main(void)
{
	RUN(test_views_and_refusals);
	return hwt_test_summary();
}
