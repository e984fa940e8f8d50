/* hwtrace: record and decode CPU hardware traces through the perf AUX area. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/outfile.h"
#include "hwtrace/text.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"list", cmd_list, "show this machine's trace PMUs, sinks and trace units"},
	{"config", cmd_config, "check a profile and print the events it opens"},
	{"record", cmd_record, "capture a trace into a perf.data file"},
	{"decode", cmd_decode, "decode a capture, raw trace or snapshot directory"},
	{"dump", cmd_dump, "print every record of a perf.data file"},
	{"info", cmd_info, "summarise what a capture holds"},
	{"report", cmd_report, "functions by instructions and time; folded stacks"},
	{"annotate", cmd_annotate, "exact counts per instruction and source line"},
	{"timeline", cmd_timeline, "calls as a Perfetto or Chrome JSON timeline"},
	{"view", cmd_view, "one HTML page: flame graph, functions, timeline, facts"},
	{"export", cmd_export, "SQLite (perf's schema) or pprof profiles of a capture"},
	{"units", cmd_units, "the independent pieces of captures' decode (jsonl)"},
	{"merge", cmd_merge, "merge partial results into the final output"},
	{"cluster", cmd_cluster, "decode captures on a Dask cluster"},
};

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: hwtrace [--version] [--help] [--plugin FILE]... COMMAND [ARGS]\n\n"
		"Record and decode CPU hardware traces (Intel PT, Intel BTS, Arm "
		"CoreSight)\nthrough the Linux perf AUX area.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n  --plugin FILE  load an out-of-tree backend (a shared object whose\n"
		"                 hwt_plugin_init() registers it; docs/porting.md)\n");
	fprintf(out, "\nRun 'hwtrace COMMAND --help' or 'hwtrace help COMMAND' for a "
		"command's options.\n");
}

void cli_message(const char *prefix, const char *message)
{
	fputs(prefix, stderr);
	hwt_term_fwrite(stderr, message, strlen(message));
	fputc('\n', stderr);
}

int cli_report(int err)
{
	const char *msg = hwt_errmsg();
	cli_message("hwtrace: ", msg[0] ? msg : hwt_errstr(err));
	return EXIT_RUNTIME;
}

int cli_report_status(int err)
{
	cli_report(err);
	return err == HWT_ERR_CONFIG ? EXIT_USAGE : EXIT_RUNTIME;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hwtrace %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nRun 'hwtrace %s --help' for usage.\n", cmd);
	return EXIT_USAGE;
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* One command is one process: no output may replace a file it has
	 * read, and a signal that ends it leaves no temporary behind. */
	hwt_outfile_track_inputs(true);
	hwt_outfile_catch_signals();
	while (argc >= 2 && !strcmp(argv[1], "--plugin")) {
		int status;

		if (argc < 3) {
			fprintf(stderr, "hwtrace: --plugin needs a FILE\n");
			return EXIT_USAGE;
		}
		if ((status = cli_load_plugin(argv[2])) != EXIT_OK)
			return status;
		argv[2] = argv[0];
		argc -= 2;
		argv += 2;
	}
	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	/* `hwtrace help COMMAND` is `hwtrace COMMAND --help`. */
	if (!strcmp(argv[1], "help") && argc > 2) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				char *help[] = {argv[2], "--help", NULL};
				return commands[i].run(2, help);
			}
		fprintf(stderr, "hwtrace help: unknown command '%s'\n\n", argv[2]);
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		print_help(stdout);
		return cli_finish_stdout("--help", EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("hwtrace %s\n", hwt_version());
		return cli_finish_stdout("--version", EXIT_OK);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return cli_finish_stdout(commands[i].name,
						 commands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "hwtrace: unknown command '%s'\n\n", argv[1]);
	print_help(stderr);
	return EXIT_USAGE;
}
