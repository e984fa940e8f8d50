/* hwtrace view */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/view.h"
#include "stack_run.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace view FILE -o PAGE.html [options]\n\n"
		"Writes one self-contained HTML page of a capture, to open in a\n"
		"browser offline (file://; the page fetches nothing): a flame graph\n"
		"of its call stacks (click to zoom, search), the functions with\n"
		"their callers and callees, a timeline per thread with the places\n"
		"trace was lost or went off, and the capture's facts (backend, CPUs,\n"
		"losses, missing binaries). What is narrower than a pixel is added\n"
		"up, and the page says how much. See docs/analysis.md.\n\n"
		"  -o FILE                 the page (required)\n"
		"  --timeline-pixels N     a timeline keeps calls at least 1/N of the\n"
		"                          time traced long (100 to 100000; default 2000)\n"
		STACK_RUN_USAGE
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 written, 1 failed, 2 usage.\n");
}

enum { OPT_TIMELINE_PIXELS = 256 };

static const struct option long_opts[] = {
	{"timeline-pixels", required_argument, NULL, OPT_TIMELINE_PIXELS},
	STACK_RUN_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct view_args {
	struct hwt_decode_opts opts;
	struct hwt_view_opts view;
	bool per_cpu;
	const char *output, *file;
	struct decode_symbols symbols;
};

static int parse_args(int argc, char **argv, struct view_args *a)
{
	int c, rc;
	uint64_t v;
	a->opts.size = sizeof(a->opts);
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->opts.jobs = cli_online_cpus();
	a->view.size = sizeof(a->view);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:j:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_TIMELINE_PIXELS:
			if ((rc = cli_number_u64(&(struct cli_number){"view",
					"--timeline-pixels", 100, 100000,
					"a count from 100 to 100000"}, optarg, &v)))
				return rc;
			a->view.timeline_pixels = (uint32_t)v;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			rc = cli_stack_run_default("view", &a->opts, &a->per_cpu,
						   &a->symbols, c, optarg, argv);
			if (rc)
				return rc;
			break;
		}
	}
	rc = cli_stack_run_file("view", argc, argv, &a->file);
	if (rc)
		return rc;
	if (!a->output)
		return cli_usage_error("view", "-o PAGE.html is required");
	/* The page is by function; lines are report's (report --srcline). */
	if (a->symbols.opts.srcline)
		return cli_usage_error("view", "--srcline: the page shows "
				       "functions; for source lines use "
				       "hwtrace report --srcline");
	return 0;
}

/* The capture's facts for the page; the view goes without them (and
 * says so) when the file cannot be opened for them. */
static struct hwt_capture *open_facts(const struct view_args *a)
{
	struct hwt_capture_opts co = {.size = sizeof(co)};
	co.lookup = a->opts.lookup;
	co.kcore = a->opts.kcore;
	struct hwt_capture *cap = NULL;
	if (hwt_capture_open(a->file, &co, &cap)) {
		char buf[512];
		fprintf(stderr, "hwtrace view: warning: the page has no facts "
			"of the capture: %s\n",
			cli_safe(hwt_errmsg(), buf, sizeof(buf)));
		return NULL;
	}
	return cap;
}

int cmd_view(int argc, char **argv)
{
	struct view_args a;
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	a.symbols.cmd = "view";
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	FILE *out;
	struct hwt_outfile *of;
	const char *inputs[] = {a.file, a.opts.lookup.vmlinux};
	rc = cli_output_open("view", a.output, inputs, 2, &out, &of);
	if (rc)
		return rc;
	struct hwt_view *view = NULL;
	struct hwt_capture *cap = NULL;
	a.symbols.capture = a.file;
	int err = decode_symbols_start(&a.symbols, &a.opts, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a.symbols);
	a.view.namer = &namer;
	a.view.title = a.file;
	if (!err)
		err = hwt_view_new(&a.view, &view);
	struct hwt_elem_sink marks;
	struct cli_stack_run run = {
		.file = a.file,
		.opts = &a.opts,
		.per_cpu = a.per_cpu,
		.namer = &namer,
	};
	if (!err) {
		cap = open_facts(&a);
		hwt_view_set_capture(view, cap);
		run.ops = hwt_view_ops(view);
		marks = hwt_view_marks(view);
		run.elements = &marks;
		err = cli_stack_run(&run);
	}
	if (!err) {
		hwt_view_set_stack_stats(view, &run.stack_stats);
		err = hwt_view_write(view, out);
	}
	int wrc = cli_output_close("view", out, a.output, of, err < 0);
	if (!err && !wrc) {
		struct hwt_view_stats st;
		hwt_view_get_stats(view, &st);
		cli_stack_run_summary(&run, "view");
		fprintf(stderr,
			"hwtrace view: wrote %s: a timeline of %" PRIu64
			" calls and %" PRIu64 " shorter than a pixel added up "
			"in %" PRIu64 " blocks (%" PRIu64 " without time left "
			"out), %" PRIu64 " marks\n", a.output, st.slices,
			st.slices_short, st.blocks, st.untimed, st.marks);
	}
	hwt_view_free(view);
	hwt_capture_free(cap);
	decode_symbols_end(&a.symbols);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
