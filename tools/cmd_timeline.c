/* hwtrace timeline */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture_opts.h"
#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/timeline.h"
#include "stack_run.h"

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
		"  --format perfetto|chrome  Perfetto protobuf (default) or Chrome JSON\n"
		"  --min-duration NS       leave out calls shorter than NS nanoseconds\n"
		"  --max-depth N           leave out calls deeper than N (1: outermost)\n"
		CAPTURE_USAGE
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 written, 1 failed, 2 usage.\n");
}

enum { OPT_FORMAT = 256, OPT_MIN_DURATION, OPT_MAX_DEPTH };

static const struct option long_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"min-duration", required_argument, NULL, OPT_MIN_DURATION},
	{"max-depth", required_argument, NULL, OPT_MAX_DEPTH},
	CAPTURE_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct timeline_args {
	struct capture_opts cap;
	struct hwt_timeline_opts tl;
	const char *output, *file;
	struct decode_symbols symbols;
};

static int parse_args(int argc, char **argv, struct timeline_args *a)
{
	int c, rc;
	unsigned long long v;
	capture_opts_init(&a->cap);
	a->tl.size = sizeof(a->tl);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "perfetto"))
				a->tl.format = HWT_TIMELINE_PERFETTO;
			else if (!strcmp(optarg, "chrome"))
				a->tl.format = HWT_TIMELINE_CHROME;
			else
				return cli_usage_error("timeline", "--format %s: "
						       "use perfetto or chrome", optarg);
			break;
		case OPT_MIN_DURATION:
			if ((rc = capture_opts_number("timeline", "--min-duration",
						      optarg, 0, UINT64_MAX, &v)))
				return rc;
			a->tl.min_duration = v;
			break;
		case OPT_MAX_DEPTH:
			if ((rc = capture_opts_number("timeline", "--max-depth",
						      optarg, 1, 1000000, &v)))
				return rc;
			a->tl.max_depth = (int)v;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			rc = capture_opts_option(&a->cap, "timeline", c, optarg);
			if (rc > 1)
				return rc;
			if (rc == 1 || decode_symbols_option(&a->symbols, c, optarg))
				break;
			if (c == ':')
				return cli_usage_error("timeline", "%s needs a value",
						       argv[optind - 1]);
			return cli_usage_error("timeline", "unknown option %s",
					       argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("timeline", optind < argc
				       ? "give one capture file" : "no capture file");
	a->file = argv[optind];
	if (!a->output)
		return cli_usage_error("timeline", "-o OUT is required (the "
				       "timeline is a binary or large file)");
	return 0;
}

/* The names given so far, by thread, for FORK records to copy. */
struct thread_names {
	struct {
		int32_t tid;
		char name[64];
	} *v;
	size_t n, cap;
};

static const char *thread_names_find(const struct thread_names *tn,
				     int32_t tid)
{
	for (size_t i = tn->n; i-- > 0;)
		if (tn->v[i].tid == tid)
			return tn->v[i].name;
	return NULL;
}

static int thread_names_set(struct thread_names *tn, int32_t tid,
			    const char *name)
{
	if (tn->n == tn->cap) {
		size_t cap = tn->cap ? tn->cap * 2 : 16;
		void *v = realloc(tn->v, cap * sizeof(*tn->v));
		if (!v)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		tn->v = v;
		tn->cap = cap;
	}
	tn->v[tn->n].tid = tid;
	snprintf(tn->v[tn->n].name, sizeof(tn->v[tn->n].name), "%s", name);
	tn->n++;
	return 0;
}

/* Thread and process names from the capture's COMM records, and the
 * process of each thread from its FORK record: a new thread has no COMM
 * record of its own (the kernel writes one only at exec or a rename), so
 * it takes its parent's name until one comes, as perf shows it. The last
 * name of each thread (after exec) is the one shown. */
static int name_threads(const char *file, struct hwt_timeline *tl)
{
	struct hwt_pd_reader *r;
	int err = hwt_pd_reader_open(file, &r);
	if (err)
		return err;
	uint32_t types[] = {PERF_RECORD_COMM, PERF_RECORD_FORK};
	hwt_pd_reader_set_load_aux(r, false);
	hwt_pd_reader_select_types(r, types, 2);
	struct thread_names names = {0};
	struct hwt_pd_record rec;
	while ((err = hwt_pd_reader_next(r, &rec)) > 0) {
		const uint8_t *p = rec.data;
		int32_t ids[4];
		const char *name;
		char comm[64];
		if (rec.type == PERF_RECORD_FORK) {
			/* pid, ppid, tid, ptid */
			if (rec.size < 8 + 16)
				continue;
			memcpy(ids, p + 8, 16);
			name = thread_names_find(&names, ids[3]);
			if (name)
				snprintf(comm, sizeof(comm), "%s", name);
		} else {
			if (rec.size < 8 + 8 + 1)
				continue;
			memcpy(ids, p + 8, 8);
			ids[2] = ids[1];
			size_t room = (size_t)rec.size - 16;
			size_t max = room < sizeof(comm) - 1 ? room
							    : sizeof(comm) - 1;
			memcpy(comm, p + 16, max);
			comm[max] = 0;
			name = comm;
		}
		err = name ? thread_names_set(&names, ids[2], comm) : 0;
		if (!err)
			err = hwt_timeline_name_thread(tl, ids[0], ids[2],
						       name ? comm : NULL);
		if (err)
			break;
	}
	free(names.v);
	hwt_pd_reader_free(r);
	return err < 0 ? err : 0;
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
	const char *inputs[] = {a.file, a.cap.decode.lookup.vmlinux};
	rc = cli_output_open("timeline", a.output, inputs, 2, &out, &of);
	if (rc)
		return rc;
	struct hwt_timeline *tl = NULL;
	a.symbols.capture = a.file;
	int err = decode_symbols_start(&a.symbols, &a.cap.decode, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a.symbols);
	a.tl.namer = &namer;
	if (!err)
		err = hwt_timeline_new(out, &a.tl, &tl);
	if (!err)
		err = name_threads(a.file, tl);
	struct hwt_elem_sink marks;
	struct cli_stack_run run = {
		.file = a.file,
		.opts = &a.cap.decode,
		.per_cpu = a.cap.per_cpu,
		.namer = &namer,
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
	}
	hwt_timeline_free(tl);
	decode_symbols_end(&a.symbols);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
