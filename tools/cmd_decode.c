/* hwtrace decode: the decode run its command line asks for (element
 * listing, packets, branch profile, calls, edges), into its output. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "decode_args.h"
#include "decode_symbols.h"
#include "hwtrace/calls.h"
#include "hwtrace/capture.h"
#include "hwtrace/decode.h"
#include "hwtrace/decode_consumer.h"
#include "hwtrace/decode_edges.h"
#include "hwtrace/decode_input.h"
#include "hwtrace/decode_progress.h"
#include "hwtrace/decode_request.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/error.h"
#include "hwtrace/script.h"
#include "hwtrace/outfile.h"
#include "hwtrace/partial.h"
#include "hwtrace/output.h"

/* The decode's warnings: on standard error, never in the output. */
static void warn(void *arg, const char *message)
{
	struct decode_args *a = arg;
	hwt_progress_line_erase(&a->progress);
	cli_message("hwtrace decode: warning: ", message);
}

/* Before a symbol warning: the progress line goes first. */
static void erase_progress(void *arg)
{
	struct decode_args *a = arg;
	hwt_progress_line_erase(&a->progress);
}

/* The progress line on standard error when it is a terminal and not
 * --quiet, after HWTRACE_PROGRESS_AFTER seconds when set (tests cannot
 * wait for a long decode). */
static void start_progress(struct hwt_progress_line *line, bool quiet)
{
	struct hwt_progress_line_opts o = {
		.size = sizeof(o),
		.out = stderr,
		.terminal = !quiet && isatty(STDERR_FILENO),
		.after = HWT_PROGRESS_LINE_AFTER,
		.prefix = "hwtrace decode: ",
	};
	const char *env = getenv("HWTRACE_PROGRESS_AFTER");
	char *end;
	double v = env ? strtod(env, &end) : -1;
	if (env && end != env && !*end && v >= 0)
		o.after = v;
	hwt_progress_line_start(line, &o);
}

static int drop_emit(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

/* A capture's streams merged by time (the default order), into what the
 * counter hands its elements to; the counts are the library's. */
static int run_merged(struct decode_args *a)
{
	struct hwt_output_annotator annotator;
	/* -F and the filters write their lines themselves, in order: not
	 * the printer alone, so not through the library's lanes. */
	bool printer_alone = hwt_decode_request_printer_alone(&a->request);
	struct hwt_decode_merged run = {
		.size = sizeof(run),
		.file = a->file,
		.opts = &a->opts,
		.consumer = a->counter->next,
		.output = printer_alone ? a->lines : NULL,
		.out = a->out,
		.format = a->format,
		.annotator = decode_symbols_annotator(&a->symbols, &annotator)
				     ? &annotator : NULL,
		.written = hwt_progress_line_written,
		.written_arg = &a->progress,
	};
	struct hwt_decode_merged_result res;
	int err = hwt_decode_merged(&run, &res);
	a->counter->counts = res.counts;
	if (!err && res.streams > 1 && !res.timed)
		fprintf(stderr, "hwtrace decode: the capture has no timestamps: "
			"its %" PRIu64 " streams are in stream order, not "
			"merged by time\n", res.streams);
	return err;
}

/* --calls: the library's listing of the rebuilt stacks' calls and
 * returns instead of elements; the elements are still counted. */
static int run_calls(struct decode_args *a, FILE *out,
		     struct hwt_decode_counter *counter)
{
	struct hwt_func_namer namer = decode_symbols_namer(&a->symbols);
	counter->next.emit = drop_emit;
	struct hwt_elem_sink counted = hwt_decode_counter_sink(counter);
	struct hwt_stack_decode decode = {
		.size = sizeof(decode),
		.file = a->file,
		.opts = &a->opts,
		.per_cpu = a->per_cpu,
		.elements = &counted,
	};
	struct hwt_calls_decode run = {
		.size = sizeof(run),
		.out = out,
		.format = a->format,
		.namer = &namer,
		.decode = &decode,
	};
	struct hwt_stack_decode_result res;
	int err = hwt_calls_decode(&run, &res);
	if (!err)
		hwt_stack_decode_print_summary(stderr, "hwtrace decode: ", &res,
					       a->per_cpu);
	return err;
}

/* --unit (--edges or --branch-profile, the request checked) decodes
 * that unit alone, its profile as the options ask for it. */
static int run(struct decode_args *a, const struct hwt_elem_sink *sink)
{
	if (a->unit)
		return hwt_capture_decode_unit(a->file, a->unit, &a->opts, sink);
	if (hwt_decode_request_time_merged(&a->request))
		return run_merged(a);
	return hwt_decode_input(&a->input, &a->opts, sink);
}

/* --edges: the decode's taken branches counted into a map (through the
 * backend's edges op where it has one), then written as lines or as a
 * bitmap; the summary counts what was not a branch. */
static int run_edges(struct decode_args *a, FILE *out)
{
	struct hwt_edges *edges = hwt_edges_new();
	if (!edges)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	a->opts.edges = edges;
	struct hwt_elem_sink sink = hwt_edges_sink(edges);
	int err = run(a, &sink);
	struct hwt_decode_edges_out eo = {
		.size = sizeof(eo),
		.out = out,
		.out_name = a->output,
		.format = a->format,
		.bitmap = a->bitmap,
		.partial = a->partial,
	};
	if (err >= 0)
		err = hwt_decode_edges_write(edges, &eo);
	hwt_decode_edges_summary_print(stderr, "hwtrace decode: ", edges);
	hwt_edges_free(edges);
	return err;
}

/* -F's writer and the --comm, --dso, --sym filter in front of the
 * printer (neither asked: the printer alone, as it was). */
static int start_consumer(struct decode_args *a,
			  struct hwt_decode_counter *counter,
			  struct hwt_decode_consumer **consumer)
{
	if (hwt_decode_request_printer_alone(&a->request))
		return 0;
	struct hwt_decode_consumer_opts co = {
		.size = sizeof(co),
		.file = a->file,
		.script_fields = a->script_fields,
		.out = a->out,
		.comms = a->comms,
		.dsos = a->dsos,
		.syms = a->syms,
		.sym = a->symbols.sym,
		.next = counter->next,
	};
	int err = hwt_decode_consumer_new(&co, &a->opts, consumer);
	if (err >= 0)
		counter->next = hwt_decode_consumer_sink(*consumer);
	return err;
}

int cmd_decode(int argc, char **argv)
{
	struct decode_args a;

	if (cli_wants_help(argc, argv)) {
		decode_usage(stdout);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	int rc = decode_args_parse(argc, argv, &a);
	if (rc) {
		free(a.maps);
		free(a.elfs);
		return rc;
	}

	/* Written beside -o's path, renamed over it once complete. */
	FILE *out;
	struct hwt_outfile *of;
	const char *raw_file = a.raw ? a.input.path : NULL;
	const char *inputs[] = {a.file, raw_file, a.opts.lookup.vmlinux};
	rc = cli_output_open("decode", a.output, inputs, 3, &out, &of);
	if (rc) {
		free(a.maps);
		free(a.elfs);
		return rc;
	}

	struct hwt_output *output = NULL;
	struct hwt_decode_consumer *consumer = NULL;
	struct hwt_decode_counter counter;
	memset(&counter, 0, sizeof(counter));
	struct hwt_partial *bprof = NULL; /* --branch-profile --partial */
	int err;
	bool jsonl = a.format == HWT_OUTPUT_JSONL;
	a.opts.warn = warn;
	a.opts.warn_arg = &a;
	a.opts.progress = hwt_progress_line_decode;
	a.opts.progress_arg = &a.progress;
	a.out = out;
	/* Elements written to the terminal show the progress themselves. */
	start_progress(&a.progress, a.quiet ||
		       (!a.output && isatty(STDOUT_FILENO)));
	if (jsonl && !a.bitmap)
		cli_jsonl_header(out, hwt_decode_request_listing(&a.request),
				 hwt_version());
	/* --packets and --branch-profile come as records, which the
	 * library's printer for the format writes. */
	if (a.edges) {
		err = run_edges(&a, out);
	} else if (a.packets) {
		a.opts.packet_sink = (struct hwt_packet_sink){
			jsonl ? hwt_packet_print_jsonl : hwt_packet_print_text,
			out};
		err = run(&a, NULL);
	} else {
		output = hwt_output_new(out, a.format);
		if (!output) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		} else {
			counter.next = hwt_output_sink(output);
			a.lines = output;
			a.counter = &counter;
			if (a.profile) {
				/* The profile replaces the element listing. */
				a.opts.branch_count_sink =
					(struct hwt_branch_count_sink){
						jsonl ? hwt_branch_count_print_jsonl
						      : hwt_branch_count_print_text,
						out};
				counter.next.emit = drop_emit;
			}
			struct hwt_elem_sink sink = hwt_decode_counter_sink(&counter);
			a.symbols.capture = a.file;
			a.symbols.before_warning = erase_progress;
			a.symbols.before_warning_arg = &a;
			if (a.script_fields & HWT_SCRIPT_SRCLINE)
				a.symbols.opts.srcline = true;
			err = decode_symbols_start(&a.symbols, &a.opts,
						   a.script_fields ? NULL : output);
			if (err >= 0)
				err = start_consumer(&a, &counter, &consumer);
			/* Once the symbols are set up: whether it has names. */
			if (err >= 0 && a.profile && a.partial)
				err = hwt_partial_new_branch_profile(
					a.opts.name_addr != NULL, &bprof);
			if (bprof)
				a.opts.branch_count_sink = (struct hwt_branch_count_sink){
					hwt_partial_branch_count, bprof};
			if (err >= 0)
				err = a.calls ? run_calls(&a, out, &counter)
					      : run(&a, &sink);
			if (err >= 0 && bprof)
				err = hwt_partial_write(bprof, out);
			hwt_partial_free(bprof);
		}
	}
	hwt_progress_line_erase(&a.progress);
	hwt_output_free(output);
	hwt_decode_consumer_free(consumer);
	decode_symbols_end(&a.symbols);
	/* A lost write is the error to report, whatever the decoder said
	 * after it. */
	int wrc = cli_output_close("decode", out, a.output, of, err < 0);
	free(a.maps);
	free(a.elfs);
	if (wrc)
		return wrc;
	/* The counts describe a decode: none when it failed before the
	 * first element (a missing file, a file that is no capture). */
	if (!a.packets && !a.edges && (err >= 0 || counter.counts.elems))
		hwt_decode_counts_print(stderr, "hwtrace decode: ",
					&counter.counts);
	/* A wrong option value found by the decoder (a raw stream's
	 * options, a --map that overlaps another) is a usage error. */
	return err < 0 ? cli_report_status(err) : EXIT_OK;
}
