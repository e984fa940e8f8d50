/* hwtrace report */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/callgraph.h"
#include "hwtrace/error.h"
#include "hwtrace/report.h"
#include "stack_run.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace report FILE [options]\n\n"
		"Rebuilds every thread's call stacks from a capture (its CPUs merged\n"
		"by time) and prints the functions that ran, by the instructions\n"
		"executed in them (self) and in what they called (total), with\n"
		"calls and durations when the capture has time; with --srcline, the\n"
		"source lines that ran (and the functions inlined there), by the\n"
		"instructions executed at each. See docs/analysis.md.\n\n"
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
		STACK_RUN_USAGE
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 done, 1 failed, 2 usage.\n");
}

enum {
	OPT_COLLAPSED = 256, OPT_WEIGHT, OPT_TOP, OPT_CALLERS, OPT_CALLEES,
	OPT_CALL_GRAPH, OPT_PER_THREAD, OPT_CHILDREN, OPT_NO_CHILDREN,
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
	STACK_RUN_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct report_args {
	struct hwt_decode_opts opts;
	bool collapsed, per_cpu, call_graph, children;
	const char *peek;        /* --callers/--callees FUNC */
	bool peek_callees;
	struct hwt_callgraph_opts graph;
	enum hwt_report_weight weight;
	unsigned long top;
	const char *output, *file;
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
			if (!strcmp(optarg, "insns"))
				a->weight = HWT_WEIGHT_INSNS;
			else if (!strcmp(optarg, "time"))
				a->weight = HWT_WEIGHT_TIME;
			else if (!strcmp(optarg, "calls"))
				a->weight = HWT_WEIGHT_CALLS;
			else
				return cli_usage_error("report", "--weight %s: use "
						       "insns, time or calls", optarg);
			break;
		case OPT_TOP:
			if ((rc = cli_number_u64(&(struct cli_number){"report",
					"--top", 0, 1000000000,
					"a count from 0 (all) to 1000000000"},
					optarg, &v)))
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
	rc = cli_stack_run_file("report", argc, argv, &a->file);
	if (rc)
		return rc;
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
	return 0;
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
	const char *inputs[] = {a.file, a.opts.lookup.vmlinux};
	rc = cli_output_open("report", a.output, inputs, 2, &out, &of);
	if (rc)
		return rc;
	struct hwt_report *report = NULL;
	struct hwt_callgraph *graph = NULL;
	bool by_graph = a.peek || a.call_graph;
	a.symbols.capture = a.file;
	int err = decode_symbols_start(&a.symbols, &a.opts, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a.symbols);
	if (!err)
		err = hwt_report_new(&namer, &report);
	if (!err)
		hwt_report_set_children(report, a.children);
	const char *unit = NULL, *meaning;
	if (!err && cli_capture_clock(a.file, &unit, &meaning))
		err = hwt_report_set_time(report, unit, meaning);
	a.graph.time_unit = unit;
	if (!err && by_graph)
		err = hwt_callgraph_new(&namer, &a.graph, &graph);
	struct cli_stack_run run = {
		.file = a.file,
		.opts = &a.opts,
		.per_cpu = a.per_cpu,
		.namer = &namer,
	};
	/* By source line: one range per instruction, each at its line. */
	struct hwt_elem_sink by_line;
	if (!err && a.symbols.opts.srcline) {
		struct hwt_report_lines lines = decode_symbols_lines(&a.symbols);
		err = hwt_report_by_line(report, &lines);
		a.opts.disasm = true;
		by_line = hwt_report_elements(report);
		run.after = &by_line;
	}
	if (!err) {
		run.ops = graph ? hwt_callgraph_ops(graph) : hwt_report_ops(report);
		err = cli_stack_run(&run);
	}
	if (!err) {
		bool has_time = run.merge_stats.timed != 0;
		if (a.peek)
			err = hwt_callgraph_write_peek(graph, out, a.peek,
						       a.peek_callees, has_time);
		else if (graph)
			err = hwt_callgraph_write(graph, out, a.top, has_time);
		else if (a.collapsed)
			err = hwt_report_write_collapsed(report, out, a.weight);
		else
			err = hwt_report_write(report, out, a.top, has_time);
	}
	int wrc = cli_output_close("report", out, a.output, of, err < 0);
	if (!err && !wrc)
		cli_stack_run_summary(&run, "report");
	hwt_report_free(report);
	hwt_callgraph_free(graph);
	decode_symbols_end(&a.symbols);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
