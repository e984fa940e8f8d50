/* hwtrace timeline */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
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
	STACK_FILTER_LONG_OPTS,
	{NULL, 0, NULL, 0},
};

struct timeline_args {
	struct cli_stack_args s;
	struct hwt_timeline_opts tl;
	struct hwt_timeline *timeline;
	struct hwt_elem_sink marks;
};

static int option(void *arg, int c, const char *value)
{
	struct timeline_args *a = arg;
	int rc;
	uint64_t v;
	switch (c) {
	case OPT_FORMAT:
		if (hwt_timeline_format_parse(value, &a->tl.format))
			return cli_usage_error("timeline", "--format %s: "
					       "use perfetto, chrome or "
					       "speedscope", value);
		return 0;
	case OPT_MIN_DURATION:
		if ((rc = cli_number_u64(&(struct cli_number){"timeline",
				"--min-duration", 0, UINT64_MAX,
				"nanoseconds, from 0"}, value, &v)))
			return rc;
		a->tl.min_duration = v;
		return 0;
	case OPT_MAX_DEPTH:
		if ((rc = cli_number_u64(&(struct cli_number){"timeline",
				"--max-depth", 1, 1000000,
				"a depth from 1 to 1000000"}, value, &v)))
			return rc;
		a->tl.max_depth = (int)v;
		return 0;
	}
	return CLI_STACK_NOT_MINE;
}

static int check(void *arg)
{
	const struct timeline_args *a = arg;
	if (!a->s.output)
		return cli_usage_error("timeline", "-o OUT is required (the "
				       "timeline is a binary or large file)");
	return 0;
}

static int start(void *arg, FILE *out, struct hwt_stack_decode_files *run)
{
	struct timeline_args *a = arg;
	a->tl.size = sizeof(a->tl);
	a->tl.namer = run->each.namer;
	int err = hwt_timeline_new(out, &a->tl, &a->timeline);
	if (!err)
		err = hwt_timeline_name_capture_file(a->timeline, a->s.file);
	if (!err) {
		run->each.ops = hwt_timeline_ops(a->timeline);
		run->each.elements = &a->marks;
		a->marks = hwt_timeline_marks(a->timeline);
	}
	return err;
}

static int finish(void *arg, FILE *out,
		  const struct hwt_stack_decode_files *run)
{
	(void)out;
	(void)run;
	return hwt_timeline_finish(((struct timeline_args *)arg)->timeline);
}

static void done(void *arg, const struct hwt_stack_decode_files *run,
		 int err, int wrc)
{
	struct timeline_args *a = arg;
	(void)run;
	if (err || wrc)
		return;
	(void)hwt_timeline_write_summary(a->timeline, stderr,
					 "hwtrace timeline: ", a->s.output);
}

static void free_timeline(void *arg)
{
	hwt_timeline_free(((struct timeline_args *)arg)->timeline);
}

int cmd_timeline(int argc, char **argv)
{
	static const struct cli_stack_cmd cmd = {
		.name = "timeline", .usage = usage, .options = long_opts,
		.option = option, .check = check, .start = start,
		.finish = finish, .done = done, .free = free_timeline,
	};
	struct timeline_args a;
	memset(&a, 0, sizeof(a));
	return cli_stack_command(&cmd, &a.s, &a, argc, argv);
}
