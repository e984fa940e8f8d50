/* hwtrace annotate */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_jsonl.h"
#include "decode_symbols.h"
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
	STACK_RUN_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct annotate_args {
	struct hwt_decode_opts opts;
	enum hwt_output_format format;
	bool per_cpu;
	const char *output, *file, *func;
	struct decode_symbols symbols;
	struct hwt_annotate *annotate;
	void (*next_on_image)(void *arg, struct hwt_image *image);
	void *next_on_image_arg;
};

static int parse_args(int argc, char **argv, struct annotate_args *a)
{
	int c, rc;
	a->opts.size = sizeof(a->opts);
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->opts.jobs = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (hwt_output_format_parse(optarg, &a->format) < 0)
				return cli_usage_error("annotate", "--format %s: use "
						       "text or jsonl", optarg);
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			rc = cli_stack_run_default("annotate", &a->opts, &a->per_cpu,
						   &a->symbols, c, optarg, argv);
			if (rc)
				return rc;
			break;
		}
	}
	if (a->symbols.off)
		return cli_usage_error("annotate", "--no-symbols: annotate names "
				       "functions and lines by their symbols");
	/* [FUNC] FILE */
	if (argc - optind == 2)
		a->func = argv[optind++];
	return cli_stack_run_file("annotate", argc, argv, &a->file);
}

/* The symbolizer's image hook first, then the annotation's. */
static void on_image(void *arg, struct hwt_image *image)
{
	struct annotate_args *a = arg;
	a->next_on_image(a->next_on_image_arg, image);
	hwt_annotate_set_image(a->annotate, image);
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_args a;
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	a.symbols.cmd = "annotate";
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	FILE *out;
	struct hwt_outfile *of;
	const char *inputs[] = {a.file, a.opts.lookup.vmlinux};
	rc = cli_output_open("annotate", a.output, inputs, 2, &out, &of);
	if (rc)
		return rc;
	a.symbols.capture = a.file;
	a.symbols.opts.srcline = true;
	/* One range per instruction: each counts once at its address. */
	a.opts.disasm = true;
	int err = decode_symbols_start(&a.symbols, &a.opts, NULL);
	struct hwt_annotate_opts ao = {sizeof(ao), a.symbols.sym, a.func};
	if (!err)
		err = hwt_annotate_new(&ao, &a.annotate);
	if (!err) {
		a.next_on_image = a.opts.on_image;
		a.next_on_image_arg = a.opts.on_image_arg;
		a.opts.on_image = on_image;
		a.opts.on_image_arg = &a;
		struct hwt_elem_sink sink = hwt_annotate_sink(a.annotate);
		err = hwt_decode_file(a.file, &a.opts, &sink);
	}
	if (!err && a.format == HWT_OUTPUT_JSONL)
		cli_jsonl_header(out, "annotate", hwt_version());
	if (!err)
		err = hwt_annotate_write(a.annotate, out, a.format);
	int wrc = cli_output_close("annotate", out, a.output, of, err < 0);
	hwt_annotate_free(a.annotate);
	decode_symbols_end(&a.symbols);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
