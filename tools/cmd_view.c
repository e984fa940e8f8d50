/* hwtrace view */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
	{NULL, 0, NULL, 0},
};

struct view_args {
	struct cli_stack_args s;
	struct hwt_view_opts view;
	struct hwt_view *page;
	struct hwt_capture *cap;
	struct hwt_elem_sink marks;
};

static int option(void *arg, int c, const char *value)
{
	struct view_args *a = arg;
	uint64_t v;
	if (c != OPT_TIMELINE_PIXELS)
		return CLI_STACK_NOT_MINE;
	int rc = cli_number_u64(&(struct cli_number){"view",
			"--timeline-pixels", 100, 100000,
			"a count from 100 to 100000"}, value, &v);
	if (!rc)
		a->view.timeline_pixels = (uint32_t)v;
	return rc;
}

static int check(void *arg)
{
	const struct view_args *a = arg;
	if (!a->s.output)
		return cli_usage_error("view", "-o PAGE.html is required");
	/* The page is by function; lines are report's (report --srcline). */
	if (a->s.symbols.opts.srcline)
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
	co.lookup = a->s.opts.lookup;
	co.kcore = a->s.opts.kcore;
	struct hwt_capture *cap = NULL;
	if (hwt_capture_open(a->s.file, &co, &cap)) {
		char buf[512];
		fprintf(stderr, "hwtrace view: warning: the page has no facts "
			"of the capture: %s\n",
			cli_safe(hwt_errmsg(), buf, sizeof(buf)));
		return NULL;
	}
	return cap;
}

static int start(void *arg, FILE *out, struct hwt_stack_decode_files *run)
{
	struct view_args *a = arg;
	(void)out;
	a->view.size = sizeof(a->view);
	a->view.namer = run->each.namer;
	a->view.title = a->s.file;
	int err = hwt_view_new(&a->view, &a->page);
	if (!err) {
		a->cap = open_facts(a);
		hwt_view_set_capture(a->page, a->cap);
		run->each.ops = hwt_view_ops(a->page);
		a->marks = hwt_view_marks(a->page);
		run->each.elements = &a->marks;
	}
	return err;
}

static int finish(void *arg, FILE *out,
		  const struct hwt_stack_decode_files *run)
{
	struct view_args *a = arg;
	hwt_view_set_stack_stats(a->page, &run->results[0].stack);
	return hwt_view_write(a->page, out);
}

static void done(void *arg, const struct hwt_stack_decode_files *run,
		 int err, int wrc)
{
	struct view_args *a = arg;
	(void)run;
	if (err || wrc)
		return;
	(void)hwt_view_write_summary(a->page, stderr, "hwtrace view: ",
				     a->s.output);
}

static void free_view(void *arg)
{
	struct view_args *a = arg;
	hwt_view_free(a->page);
	hwt_capture_free(a->cap);
}

int cmd_view(int argc, char **argv)
{
	static const struct cli_stack_cmd cmd = {
		.name = "view", .usage = usage, .options = long_opts,
		.option = option, .check = check, .start = start,
		.finish = finish, .done = done, .free = free_view,
	};
	struct view_args a;
	memset(&a, 0, sizeof(a));
	return cli_stack_command(&cmd, &a.s, &a, argc, argv);
}
