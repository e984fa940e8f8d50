/* hwtrace info: what a capture holds, and what decoding it will need. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"
#include "hwtrace/sym_setup.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace info [--symfs DIR] FILE\n\n"
		"Summarise a perf.data capture: the trace backend, the CPUs and\n"
		"threads, the bytes of trace per CPU, the time span, lost data,\n"
		"the commands and binaries involved, and which binaries are missing\n"
		"on this machine for decoding.\n\n"
		"  --symfs DIR  look for the binaries under DIR as well\n"
		"  -h, --help   show this help\n\n"
		"Exit status: 0 when the whole file was read, 1 when it is corrupt\n"
		"or truncated (the summary covers the records before the damage),\n"
		"2 on a usage error.\n");
}

static void print_sym_warning(void *arg, const char *message)
{
	(void)arg;
	cli_message("hwtrace info: ", message);
}

/* The summary on stdout, each binary's symbols found as decoding would
 * find them (in @symfs too). */
static void print_info(struct hwt_pd_reader *r, const struct hwt_pd_summary *in,
		       const char *symfs)
{
	if (hwt_pd_summary_print_symbols(stdout, r, in, symfs,
					 print_sym_warning, NULL))
		hwt_error_clear(); /* stdout's own error shows at exit */
}

int cmd_info(int argc, char **argv)
{
	struct hwt_pd_summary *in = NULL;
	struct hwt_pd_reader *r;
	const char *path = NULL, *symfs = NULL, *warning;
	int err, n;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--symfs")) {
			if (++i == argc)
				return cli_usage_error("info", "--symfs needs a "
						       "directory");
			symfs = argv[i];
		} else if (!strncmp(argv[i], "--symfs=", 8)) {
			symfs = argv[i] + 8;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("info", "unknown option '%s'",
					       argv[i]);
		} else if (path) {
			return cli_usage_error("info", "one FILE only, got '%s' "
					       "and '%s'", path, argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return cli_usage_error("info", "a perf.data FILE is required");
	err = hwt_pd_reader_open(path, &r);
	if (err)
		return cli_report(err);
	n = hwt_pd_summarize(r, &in);
	if (!in) {
		hwt_pd_reader_free(r);
		return cli_report(n);
	}
	if (n < 0) {
		/* Keep the message: printing the summary may not touch it, but
		 * say it after the summary, where the user looks. */
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
		print_info(r, in, symfs);
		cli_message("hwtrace: ", msg);
	} else {
		print_info(r, in, symfs);
	}
	warning = hwt_pd_reader_warning(r);
	if (warning)
		cli_message("hwtrace: warning: ", warning);
	if (hwt_pd_reader_cut_short(r))
		fprintf(stderr, "hwtrace: warning: %s was cut short while it was "
			"recorded (the disk filled up): its trace ends early\n",
			path);
	hwt_pd_reader_free(r);
	hwt_pd_summary_free(in);
	return n < 0 ? EXIT_RUNTIME : EXIT_OK;
}
