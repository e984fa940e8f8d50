/* hwtrace annotate */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/annotate.h"
#include "hwtrace/error.h"
#include "stack_run.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace annotate [FUNC] FILE [options]\n\n"
		"Every instruction of FUNC (without FUNC: of every function that\n"
		"ran, most executed first) with its exact execution count from the\n"
		"trace, its share of the function's, its source line, and for\n"
		"conditional branches the taken and not-taken counts; then the\n"
		"function's source lines with theirs. See docs/analysis.md.\n\n"
		"  --format text|jsonl     output format (default text)\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"  --tid N, --cpu N        only that thread's or CPU's trace\n"
		"  --time START,END        only trace in this perf time range\n"
		"  --symfs DIR, --buildid-dir DIR, --vmlinux FILE, --kcore DIR\n"
		"                          where the traced code is (as decode)\n"
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 done, 1 failed, 2 usage.\n");
}

enum { OPT_FORMAT = 256 };

static const struct option long_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{NULL, 0, NULL, 0},
};

struct annotate_args {
	struct cli_stack_args s;
	enum hwt_output_format format;
	const char *func;
	struct hwt_annotate *annotate;
};

static int option(void *arg, int c, const char *value)
{
	struct annotate_args *a = arg;
	if (c != OPT_FORMAT)
		return CLI_STACK_NOT_MINE;
	if (hwt_output_format_parse(value, &a->format) < 0)
		return cli_usage_error("annotate", "--format %s: use "
				       "text or jsonl", value);
	return 0;
}

/* [FUNC] FILE */
static int positional(void *arg, int argc, char **argv)
{
	struct annotate_args *a = arg;
	if (a->s.symbols.off)
		return cli_usage_error("annotate", "--no-symbols: annotate names "
				       "functions and lines by their symbols");
	if (argc - optind == 2)
		a->func = argv[optind++];
	return 0;
}

static int check(void *arg)
{
	struct annotate_args *a = arg;
	a->s.symbols.opts.srcline = true;
	return 0;
}

static int start(void *arg, FILE *out, struct hwt_stack_decode_files *run)
{
	struct annotate_args *a = arg;
	(void)out;
	(void)run;
	struct hwt_annotate_opts ao = {sizeof(ao), a->s.symbols.sym, a->func};
	return hwt_annotate_new(&ao, &a->annotate);
}

/* Counts at every address: no stacks. */
static int decode(void *arg, struct hwt_stack_decode_files *run)
{
	struct annotate_args *a = arg;
	(void)run;
	return hwt_annotate_decode(a->annotate, a->s.file, &a->s.opts);
}

static int finish(void *arg, FILE *out,
		  const struct hwt_stack_decode_files *run)
{
	struct annotate_args *a = arg;
	(void)run;
	if (a->format == HWT_OUTPUT_JSONL)
		cli_jsonl_header(out, "annotate", hwt_version());
	return hwt_annotate_write(a->annotate, out, a->format);
}

static void free_annotate(void *arg)
{
	hwt_annotate_free(((struct annotate_args *)arg)->annotate);
}

int cmd_annotate(int argc, char **argv)
{
	static const struct cli_stack_cmd cmd = {
		.name = "annotate", .usage = usage, .options = long_opts,
		.one_thread = true, .option = option, .positional = positional,
		.check = check, .start = start, .decode = decode,
		.finish = finish, .free = free_annotate,
	};
	struct annotate_args a;
	memset(&a, 0, sizeof(a));
	return cli_stack_command(&cmd, &a.s, &a, argc, argv);
}
