/* hwtrace report */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/callgraph.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"
#include "hwtrace/report.h"
#include "report_options.h"
#include "stack_run.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace report FILE... [options]\n\n"
		"Rebuilds every thread's call stacks from a capture (its CPUs merged\n"
		"by time) and prints the functions that ran, by the instructions\n"
		"executed in them (self) and in what they called (total), with\n"
		"calls and durations when the capture has time; with --srcline, the\n"
		"source lines that ran (and the functions inlined there), by the\n"
		"instructions executed at each. Several captures make one report\n"
		"(their threads apart, their totals and stacks added up). See\n"
		"docs/analysis.md.\n\n"
		"  --collapsed             folded stacks for flame graphs (a;b;c COUNT)\n"
		"  --weight insns|time|calls  what a folded stack counts (default insns)\n"
		"  --top N                 the N functions with most self instructions\n"
		"                          (default 25; 0 for all)\n"
		"  --callers FUNC          who called FUNC: calls, self and total\n"
		"                          instructions (and time) per caller\n"
		"  --callees FUNC          what FUNC called, the same per callee\n"
		"  --call-graph            every function with its callers and callees\n"
		"  --per-thread            callers, callees and call graph per thread\n"
		"  --children              order by total (inclusive) instructions, as\n"
		"                          perf's --children; --no-children: by self\n"
		"                          (the default)\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"  --partial               write a partial result for hwtrace merge\n"
		"                          (docs/scale-out.md) instead of the table\n"
		"  --unit N                with --partial: decode only unit N of the\n"
		"                          one FILE (hwtrace units lists them)\n"
		STACK_RUN_USAGE
		STACK_FILTER_USAGE
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 done, 1 failed, 2 usage.\n");
}

enum {
	OPT_COLLAPSED = 256, OPT_WEIGHT, OPT_TOP, OPT_CALLERS, OPT_CALLEES,
	OPT_CALL_GRAPH, OPT_PER_THREAD, OPT_CHILDREN, OPT_NO_CHILDREN,
	OPT_PARTIAL, OPT_UNIT,
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
	STACK_RUN_LONG_OPTS,
	STACK_FILTER_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct report_args {
	struct hwt_decode_opts opts;
	bool collapsed, per_cpu, call_graph, children, partial;
	const char *peek;        /* --callers/--callees FUNC */
	bool peek_callees;
	struct hwt_callgraph_opts graph;
	enum hwt_report_weight weight;
	unsigned long top;
	size_t unit;                /* --unit N; 0: whole captures */
	const char *output;
	const char **files;         /* in argv */
	int nfiles;
	struct decode_symbols symbols;
};

static int parse_args(int argc, char **argv, struct report_args *a)
{
	int c, rc;
	uint64_t v;
	a->opts.size = sizeof(a->opts);
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->opts.jobs = cli_online_cpus();
	a->top = 25;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:j:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_COLLAPSED:
			a->collapsed = true;
			break;
		case OPT_WEIGHT:
			if ((rc = cli_report_weight("report", optarg, &a->weight)))
				return rc;
			break;
		case OPT_TOP:
			if ((rc = cli_report_top("report", optarg, &v)))
				return rc;
			a->top = (unsigned long)v;
			break;
		case OPT_CALLERS:
		case OPT_CALLEES:
			a->peek = optarg;
			a->peek_callees = c == OPT_CALLEES;
			break;
		case OPT_CALL_GRAPH:
			a->call_graph = true;
			break;
		case OPT_PER_THREAD:
			a->graph.per_thread = true;
			break;
		case OPT_CHILDREN:
		case OPT_NO_CHILDREN:
			a->children = c == OPT_CHILDREN;
			break;
		case OPT_PARTIAL:
			a->partial = true;
			break;
		case OPT_UNIT:
			if ((rc = cli_number_u64(&(struct cli_number){"report",
					"--unit", 1, 1000000000,
					"a unit number from 1 (hwtrace units "
					"lists them)"}, optarg, &v)))
				return rc;
			a->unit = (size_t)v;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			rc = cli_stack_run_default("report", &a->opts, &a->per_cpu,
						   &a->symbols, c, optarg, argv);
			if (rc)
				return rc;
			break;
		}
	}
	if (optind >= argc)
		return cli_usage_error("report", "no capture file");
	a->files = (const char **)argv + optind;
	a->nfiles = argc - optind;
	if (a->unit && (!a->partial || a->nfiles != 1))
		return cli_usage_error("report", "--unit goes with --partial and "
				       "one capture file");
	if (a->partial && (a->collapsed || a->symbols.opts.srcline))
		return cli_usage_error("report", "--partial holds the table and "
				       "the stacks: it goes with neither "
				       "--collapsed nor --srcline");
	if (a->symbols.opts.srcline && a->nfiles != 1)
		return cli_usage_error("report", "--srcline reports one capture "
				       "file");
	if ((a->peek != NULL) + a->call_graph + a->collapsed > 1)
		return cli_usage_error("report", "--callers/--callees, --call-graph "
				       "and --collapsed are different views: "
				       "pick one");
	if ((a->peek || a->call_graph) && a->symbols.opts.srcline)
		return cli_usage_error("report", "--srcline counts by line: it "
				       "has no callers or callees");
	if (a->graph.per_thread && !a->peek && !a->call_graph)
		return cli_usage_error("report", "--per-thread goes with "
				       "--callers, --callees or --call-graph");
	a->graph.size = sizeof(a->graph);
	a->graph.children = a->children;
	if ((a->peek || a->call_graph) && (a->partial || a->nfiles != 1))
		return cli_usage_error("report", "--callers, --callees and "
				       "--call-graph report one capture file, "
				       "and no partial result");
	return 0;
}

/* The clock of every capture must be the first one's: one table has one
 * time unit. */
static int same_clock(const char *file, const char *unit, const char *meaning,
		      const struct report_args *a)
{
	const char *u0 = NULL, *m0 = NULL;
	cli_capture_clock(a->files[0], &u0, &m0);
	bool same = (!unit && !u0) || (unit && u0 && !strcmp(unit, u0) &&
				       !strcmp(meaning, m0));
	return same ? 0 : hwt_error(HWT_ERR_INVAL, "%s: its trace's time is "
				    "of another clock than %s's: report them "
				    "apart", file, a->files[0]);
}

/* Decodes every capture into @ops (the report's or the call graph's),
 * runs[i] the run of capture i: *has_time when any had time. */
static int report_captures(struct report_args *a, struct hwt_report *report,
			   struct hwt_stack_ops ops,
			   struct hwt_func_namer *namer,
			   struct hwt_elem_sink *by_line,
			   struct cli_stack_run *runs, bool *has_time)
{
	int err = 0;
	for (int i = 0; i < a->nfiles && !err; i++) {
		const char *file = a->files[i], *unit = NULL, *meaning = NULL;
		bool clock = cli_capture_clock(file, &unit, &meaning);
		err = i ? same_clock(file, clock ? unit : NULL, meaning, a)
			: clock ? hwt_report_set_time(report, unit, meaning) : 0;
		if (!err && i) {
			decode_symbols_end(&a->symbols);
			a->symbols.capture = file;
			err = decode_symbols_start(&a->symbols, &a->opts, NULL);
		}
		struct cli_stack_run *run = &runs[i];
		*run = (struct cli_stack_run){
			.file = file,
			.unit = a->unit,
			.opts = &a->opts,
			.per_cpu = a->per_cpu,
			.namer = namer,
			.after = by_line,
			.ops = ops,
			.symbols = &a->symbols,
			.dropped = hwt_report_hidden_ops(report),
		};
		if (!err)
			err = cli_stack_run(run);
		if (!err)
			*has_time |= run->merge_stats.timed != 0;
		hwt_report_end_capture(report);
	}
	return err;
}

/* The table, the folded stacks, the callers, callees or call graph, or
 * the partial result of the table and the stacks. */
static int write_result(const struct report_args *a,
			const struct hwt_report *report,
			const struct hwt_callgraph *graph, bool has_time,
			FILE *out)
{
	if (a->peek)
		return hwt_callgraph_write_peek(graph, out, a->peek,
						a->peek_callees, has_time);
	if (graph)
		return hwt_callgraph_write(graph, out, a->top, has_time);
	if (!a->partial)
		return a->collapsed
			       ? hwt_report_write_collapsed(report, out, a->weight)
			       : hwt_report_write(report, out, a->top, has_time);
	struct hwt_partial *p;
	int err = hwt_partial_from_report(report, has_time, &p);
	if (!err)
		err = hwt_partial_write(p, out);
	hwt_partial_free(p);
	return err;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	a.symbols.cmd = "report";
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	FILE *out;
	struct hwt_outfile *of;
	const char **inputs = calloc((size_t)a.nfiles + 1, sizeof(*inputs));
	if (!inputs)
		return cli_report(hwt_error(HWT_ERR_NOMEM, "out of memory"));
	memcpy(inputs, a.files, (size_t)a.nfiles * sizeof(*inputs));
	inputs[a.nfiles] = a.opts.lookup.vmlinux;
	rc = cli_output_open("report", a.output, inputs, (size_t)a.nfiles + 1,
			     &out, &of);
	free(inputs);
	if (rc)
		return rc;
	struct hwt_report *report = NULL;
	struct hwt_callgraph *graph = NULL;
	bool by_graph = a.peek || a.call_graph;
	a.symbols.capture = a.files[0];
	int err = decode_symbols_start(&a.symbols, &a.opts, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a.symbols);
	if (!err)
		err = hwt_report_new(&namer, &report);
	if (!err)
		hwt_report_set_children(report, a.children);
	const char *unit = NULL, *meaning;
	if (cli_capture_clock(a.files[0], &unit, &meaning))
		a.graph.time_unit = unit;
	if (!err && by_graph)
		err = hwt_callgraph_new(&namer, &a.graph, &graph);
	/* By source line: one range per instruction, each at its line. */
	struct hwt_elem_sink by_line, *after = NULL;
	if (!err && a.symbols.opts.srcline) {
		struct hwt_report_lines lines = decode_symbols_lines(&a.symbols);
		err = hwt_report_by_line(report, &lines);
		a.opts.disasm = true;
		by_line = hwt_report_elements(report);
		after = &by_line;
	}
	bool has_time = false;
	struct cli_stack_run *runs = calloc((size_t)a.nfiles, sizeof(*runs));
	if (!err && !runs)
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!err)
		err = report_captures(&a, report,
				      graph ? hwt_callgraph_ops(graph)
					    : hwt_report_ops(report),
				      &namer, after, runs, &has_time);
	if (!err)
		err = write_result(&a, report, graph, has_time, out);
	int wrc = cli_output_close("report", out, a.output, of, err < 0);
	/* What the stacks saw, once the answer is out (none for a failed
	 * one: its error is the message). */
	for (int i = 0; !err && !wrc && i < a.nfiles; i++)
		cli_stack_run_summary(&runs[i], "report");
	free(runs);
	hwt_report_free(report);
	hwt_callgraph_free(graph);
	decode_symbols_end(&a.symbols);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
