/* hwtrace timeline */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/error.h"
#include "hwtrace/timeline.h"
#include "stack_run.h"
#include "capture_names.h"

/* What a timeline of a capture without time shows. */
#define TIMELINE_NOTE                                                      \
	"the capture has no timestamps: its slices are in sequence order (1 us " \
	"per call and return), as the file's metadata says"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace timeline FILE -o OUT [options]\n\n"
		"Writes a capture's calls as a timeline: one track per thread under\n"
		"its process (named from the capture), a slice per call, and\n"
		"instants where trace was lost or went off and on. Open a Perfetto\n"
		"trace in ui.perfetto.dev; Chrome JSON in chrome://tracing or\n"
		"speedscope. See docs/analysis.md.\n\n"
		"  -o FILE                 the timeline file (required)\n"
		"  --format perfetto|chrome|speedscope\n"
		"                          Perfetto protobuf (default), Chrome JSON\n"
		"                          (slices with their instructions as args),\n"
		"                          or Chrome JSON without args for speedscope\n"
		"  --min-duration NS       leave out calls shorter than NS nanoseconds\n"
		"  --max-depth N           leave out calls deeper than N (1: outermost)\n"
		STACK_RUN_USAGE
		STACK_FILTER_USAGE
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 written, 1 failed, 2 usage.\n");
}

enum {
	OPT_FORMAT = 256, OPT_MIN_DURATION, OPT_MAX_DEPTH,
};

static const struct option long_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"min-duration", required_argument, NULL, OPT_MIN_DURATION},
	{"max-depth", required_argument, NULL, OPT_MAX_DEPTH},
	STACK_RUN_LONG_OPTS,
	STACK_FILTER_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct timeline_args {
	struct hwt_decode_opts opts;
	struct hwt_timeline_opts tl;
	bool per_cpu;
	const char *output, *file;
	struct decode_symbols symbols;
};

static int parse_args(int argc, char **argv, struct timeline_args *a)
{
	int c, rc;
	uint64_t v;
	a->opts.size = sizeof(a->opts);
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->opts.jobs = cli_online_cpus();
	a->tl.size = sizeof(a->tl);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:j:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "perfetto"))
				a->tl.format = HWT_TIMELINE_PERFETTO;
			else if (!strcmp(optarg, "chrome"))
				a->tl.format = HWT_TIMELINE_CHROME;
			else if (!strcmp(optarg, "speedscope"))
				a->tl.format = HWT_TIMELINE_SPEEDSCOPE;
			else
				return cli_usage_error("timeline", "--format %s: "
						       "use perfetto, chrome or "
						       "speedscope", optarg);
			break;
		case OPT_MIN_DURATION:
			if ((rc = cli_number_u64(&(struct cli_number){"timeline",
					"--min-duration", 0, UINT64_MAX,
					"nanoseconds, from 0"}, optarg, &v)))
				return rc;
			a->tl.min_duration = v;
			break;
		case OPT_MAX_DEPTH:
			if ((rc = cli_number_u64(&(struct cli_number){"timeline",
					"--max-depth", 1, 1000000,
					"a depth from 1 to 1000000"}, optarg, &v)))
				return rc;
			a->tl.max_depth = (int)v;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			rc = cli_stack_run_default("timeline", &a->opts, &a->per_cpu,
						   &a->symbols, c, optarg, argv);
			if (rc)
				return rc;
			break;
		}
	}
	rc = cli_stack_run_file("timeline", argc, argv, &a->file);
	if (rc)
		return rc;
	if (!a->output)
		return cli_usage_error("timeline", "-o OUT is required (the "
				       "timeline is a binary or large file)");
	return 0;
}

static int name_thread(void *arg, int32_t pid, int32_t tid, const char *comm)
{
	return hwt_timeline_name_thread(arg, pid, tid, comm);
}

int cmd_timeline(int argc, char **argv)
{
	struct timeline_args a;
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	a.symbols.cmd = "timeline";
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	FILE *out;
	struct hwt_outfile *of;
	const char *inputs[] = {a.file, a.opts.lookup.vmlinux};
	rc = cli_output_open("timeline", a.output, inputs, 2, &out, &of);
	if (rc)
		return rc;
	struct hwt_timeline *tl = NULL;
	a.symbols.capture = a.file;
	int err = decode_symbols_start(&a.symbols, &a.opts, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a.symbols);
	a.tl.namer = &namer;
	if (!err)
		err = hwt_timeline_new(out, &a.tl, &tl);
	if (!err)
		err = cli_thread_names(a.file, name_thread, tl);
	struct hwt_elem_sink marks;
	struct cli_stack_run run = {
		.file = a.file,
		.opts = &a.opts,
		.per_cpu = a.per_cpu,
		.namer = &namer,
		.symbols = &a.symbols,
	};
	if (!err) {
		run.ops = hwt_timeline_ops(tl);
		marks = hwt_timeline_marks(tl);
		run.elements = &marks;
		err = cli_stack_run(&run);
	}
	if (!err)
		err = hwt_timeline_finish(tl);
	int wrc = cli_output_close("timeline", out, a.output, of, err < 0);
	if (!err && !wrc) {
		struct hwt_timeline_stats st;
		hwt_timeline_get_stats(tl, &st);
		cli_stack_run_summary(&run, "timeline");
		fprintf(stderr,
			"hwtrace timeline: wrote %s: %" PRIu64 " slices on %"
			PRIu64 " threads of %" PRIu64 " processes, %" PRIu64
			" instants; left out %" PRIu64 " shorter than "
			"--min-duration, %" PRIu64 " deeper than --max-depth, %"
			PRIu64 " without time\n",
			a.output, st.slices, st.threads, st.processes,
			st.instants, st.dropped_short, st.dropped_deep,
			st.untimed);
		if (st.sequence)
			fprintf(stderr, "hwtrace timeline: %s\n", TIMELINE_NOTE);
	}
	hwt_timeline_free(tl);
	decode_symbols_end(&a.symbols);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
