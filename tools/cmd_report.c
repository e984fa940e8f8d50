/* hwtrace report */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/backend.h"
#include "hwtrace/callgraph.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/report.h"
#include "hwtrace/report_request.h"
#include "report_options.h"
#include "stack_usage.h"
#include "stack_run.h"

enum {
	OPT_COLLAPSED = 256, OPT_WEIGHT, OPT_TOP, OPT_CALLERS, OPT_CALLEES,
	OPT_CALL_GRAPH, OPT_PER_THREAD, OPT_CHILDREN, OPT_NO_CHILDREN,
	OPT_PARTIAL, OPT_UNIT, OPT_SORT,
};

static const struct option long_opts[] = {
	{"collapsed", no_argument, NULL, OPT_COLLAPSED},
	{"weight", required_argument, NULL, OPT_WEIGHT},
	{"top", required_argument, NULL, OPT_TOP},
	{"callers", required_argument, NULL, OPT_CALLERS},
	{"callees", required_argument, NULL, OPT_CALLEES},
	{"call-graph", no_argument, NULL, OPT_CALL_GRAPH},
	{"per-thread", no_argument, NULL, OPT_PER_THREAD},
	{"children", no_argument, NULL, OPT_CHILDREN},
	{"no-children", no_argument, NULL, OPT_NO_CHILDREN},
	{"partial", no_argument, NULL, OPT_PARTIAL},
	{"unit", required_argument, NULL, OPT_UNIT},
	{"sort", required_argument, NULL, OPT_SORT},
	STACK_FILTER_LONG_OPTS,
	{NULL, 0, NULL, 0},
};

struct report_args {
	struct cli_stack_args s;
	bool collapsed, call_graph, children, partial;
	const char *peek;        /* --callers/--callees FUNC */
	bool peek_callees;
	struct hwt_callgraph_opts graph;
	enum hwt_report_weight weight;
	unsigned long top;
	enum hwt_report_sort_key sort[HWT_REPORT_SORT_MAX]; /* --sort */
	size_t nsort;
	size_t unit;                /* --unit N; 0: whole captures */
	/* The clock of the first capture (all must have it): */
	const struct hwt_trace_clock *clock;
	struct hwt_report *report;
	struct hwt_callgraph *callgraph;
	struct hwt_elem_sink by_line, *after;  /* --srcline */
	struct hwt_stack_decode_result *results; /* the run's, one a capture */
	struct hwt_capture *names;  /* --sort tid/comm: the rows' threads */
	bool has_time;              /* some capture had time */
};

/* --sort KEY[,KEY...]: hwt_report_sort_parse's message says what is
 * wrong. */
static int parse_sort(struct report_args *a, const char *list)
{
	if (hwt_report_sort_parse(list, a->sort, &a->nsort,
				  &a->s.symbols.opts.srcline))
		return cli_usage_error("report", "%s", hwt_errmsg());
	return 0;
}

static int option(void *arg, int c, const char *value)
{
	struct report_args *a = arg;
	int rc;
	uint64_t v;
	switch (c) {
	case OPT_COLLAPSED:
		a->collapsed = true;
		return 0;
	case OPT_WEIGHT:
		return cli_report_weight("report", value, &a->weight);
	case OPT_TOP:
		if ((rc = cli_report_top("report", value, &v)))
			return rc;
		a->top = (unsigned long)v;
		return 0;
	case OPT_CALLERS:
	case OPT_CALLEES:
		a->peek = value;
		a->peek_callees = c == OPT_CALLEES;
		return 0;
	case OPT_CALL_GRAPH:
		a->call_graph = true;
		return 0;
	case OPT_PER_THREAD:
		a->graph.per_thread = true;
		return 0;
	case OPT_CHILDREN:
	case OPT_NO_CHILDREN:
		a->children = c == OPT_CHILDREN;
		return 0;
	case OPT_PARTIAL:
		a->partial = true;
		return 0;
	case OPT_SORT:
		return parse_sort(a, value);
	case OPT_UNIT:
		return cli_unit("report", value, &a->unit);
	}
	return CLI_STACK_NOT_MINE;
}

/* The request the options make, for its check and its answer. */
static struct hwt_report_request request_of(const struct report_args *a)
{
	return (struct hwt_report_request){
		.ncaptures = (size_t)a->s.nfiles,
		.collapsed = a->collapsed,
		.by_line = a->s.symbols.opts.srcline,
		.peek = a->peek,
		.call_graph = a->call_graph,
		.per_thread = a->graph.per_thread,
		.partial = a->partial,
		.unit = a->unit,
		.sort = a->sort,
		.nsort = a->nsort,
	};
}

static int check(void *arg)
{
	struct report_args *a = arg;
	const struct hwt_report_request rq = request_of(a);
	if (hwt_report_request_check(&rq))
		return cli_usage_error("report", "%s", hwt_errmsg());
	a->graph.size = sizeof(a->graph);
	a->graph.children = a->children;
	return 0;
}

/* Before capture @i: the first gives the report its clock's time (the
 * library checks that the others have it). */
static int report_begin(void *arg, size_t i, const char *file)
{
	struct report_args *a = arg;
	(void)file;
	return !i && a->clock ? hwt_report_set_time(a->report, a->clock->unit,
						    a->clock->meaning) : 0;
}

static int report_end(void *arg, size_t i, int err)
{
	struct report_args *a = arg;
	if (!err)
		a->has_time |= a->results[i].merge.timed != 0;
	hwt_report_end_capture(a->report);
	return 0;
}

static int start(void *arg, FILE *out, struct hwt_stack_decode_files *run)
{
	struct report_args *a = arg;
	(void)out;
	int err = hwt_report_new(run->each.namer, &a->report);
	if (!err)
		hwt_report_set_children(a->report, a->children);
	if (!err && a->nsort)
		err = hwt_report_set_sort(a->report, a->sort, a->nsort);
	if (!err && hwt_report_sorts_by_thread(a->sort, a->nsort)) {
		/* A pipe cannot be read ahead: it names no thread. */
		if (!a->names && strcmp(a->s.files[0], "-"))
			err = hwt_capture_open(a->s.files[0], NULL, &a->names);
		hwt_report_set_comm(a->report, hwt_capture_comm, a->names);
	}
	/* The first capture's clock: the call graph's time unit, and the
	 * one the others must have. */
	a->clock = hwt_capture_file_clock(a->s.files[0]);
	if (a->clock)
		a->graph.time_unit = a->clock->unit;
	if (!err && (a->peek || a->call_graph))
		err = hwt_callgraph_new(run->each.namer, &a->graph, &a->callgraph);
	/* By source line: one range per instruction, each at its line. */
	if (!err && a->s.symbols.opts.srcline) {
		struct hwt_report_lines lines = decode_symbols_lines(&a->s.symbols);
		err = hwt_report_by_line(a->report, &lines);
		a->s.opts.disasm = true;
		a->by_line = hwt_report_elements(a->report);
		a->after = &a->by_line;
	}
	/* Every capture into the report's stacks or the call graph's. */
	run->each.ops = a->callgraph ? hwt_callgraph_ops(a->callgraph)
				     : hwt_report_ops(a->report);
	run->each.unit = a->unit;
	run->each.after = a->after;
	run->each.dropped = hwt_report_hidden_ops(a->report);
	run->same_clock = true;
	run->begin = report_begin;
	run->end = report_end;
	run->arg = a;
	a->results = run->results;
	return err;
}

static int finish(void *arg, FILE *out,
		  const struct hwt_stack_decode_files *run)
{
	struct report_args *a = arg;
	(void)run;
	const struct hwt_report_request rq = request_of(a);
	const struct hwt_report_output o = {
		.report = a->report, .graph = a->callgraph,
		.has_time = a->has_time, .peek_callees = a->peek_callees,
		.top = a->top, .weight = a->weight,
	};
	return hwt_report_request_write(&rq, &o, out);
}

static void free_report(void *arg)
{
	struct report_args *a = arg;
	hwt_report_free(a->report);
	hwt_capture_free(a->names);
	hwt_callgraph_free(a->callgraph);
}

int cmd_report(int argc, char **argv)
{
	static const struct cli_stack_cmd cmd = {
		.name = "report", .usage = report_usage, .options = long_opts,
		.many_files = true, .option = option, .check = check,
		.start = start, .finish = finish, .free = free_report,
	};
	struct report_args a;
	memset(&a, 0, sizeof(a));
	a.top = 25;
	return cli_stack_command(&cmd, &a.s, &a, argc, argv);
}
