/* hwtrace dump: the header, features and every record of a perf.data file,
 * in the spirit of `perf report -D`, as the library renders them
 * (hwtrace/pd_dump.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_dump.h"
#include "hwtrace/perfdata.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace dump [--hex] [--raw] [--header-only] FILE\n\n"
		"Print the header, the event attributes, the feature sections and\n"
		"every record of a perf.data file (perf's file or pipe mode, or a\n"
		"simpleperf file), with each record's byte offset and size as\n"
		"`perf report -D` shows them. FILE '-' reads pipe-mode data from\n"
		"standard input.\n\n"
		"  --hex          dump AUXTRACE payloads in hex (default: summarised)\n"
		"  --raw          dump every record's bytes too, as perf -D does\n"
		"  --header-only  stop after the header, events and features\n"
		"  -h, --help     show this help\n\n"
		"Exit status: 0 when the whole file was read, 1 when it is corrupt\n"
		"or truncated (the records before the damage are printed), 2 on a\n"
		"usage error.\n");
}

/* A failed write to standard output is reported as every command
 * reports it (with the system's reason); other errors as they come. */
static int dump_failed(int err)
{
	if (err == HWT_ERR_IO && ferror(stdout))
		return cli_stream_close("dump", stdout, NULL);
	return cli_report(err);
}

static int dump_records(struct hwt_pd_reader *r,
			const struct hwt_pd_dump_opts *o)
{
	struct hwt_pd_record rec;
	int n = 0, err = 0;

	while (err >= 0 && (n = hwt_pd_reader_next(r, &rec)) > 0)
		err = hwt_pd_dump_record(stdout, r, &rec, o);
	/* Pipe mode carried the events and features as records. */
	if (err >= 0 && hwt_pd_reader_is_pipe(r)) {
		fputc('\n', stdout);
		err = hwt_pd_dump_events(stdout, r);
	}
	if (err >= 0)
		err = hwt_pd_dump_counts(stdout, r);
	fflush(stdout);
	if (err < 0)
		return dump_failed(err);
	return n < 0 ? cli_report(n) : EXIT_OK;
}

int cmd_dump(int argc, char **argv)
{
	struct hwt_pd_dump_opts o = {.size = sizeof(o), .hex = false,
				     .raw = false};
	bool header_only = false;
	struct hwt_pd_reader *r;
	const char *path = NULL;
	int err, ret;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--hex"))
			o.hex = true;
		else if (!strcmp(argv[i], "--raw"))
			o.raw = true;
		else if (!strcmp(argv[i], "--header-only"))
			header_only = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("dump", "unknown option '%s'",
					       argv[i]);
		else if (path)
			return cli_usage_error("dump", "one FILE only, got '%s' "
					       "and '%s'", path, argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return cli_usage_error("dump", "a perf.data FILE is required");
	err = hwt_pd_reader_open(path, &r);
	if (err)
		return cli_report(err);
	err = hwt_pd_dump_header(stdout, r);
	if (err < 0)
		ret = dump_failed(err);
	else
		ret = header_only ? EXIT_OK : dump_records(r, &o);
	hwt_pd_reader_free(r);
	return ret;
}
