/* hwtrace export */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/export.h"
#include "hwtrace/export_request.h"
#include "hwtrace/outfile.h"
#include "hwtrace/partial.h"
#include "stack_run.h"
#include "stack_usage.h"

enum {
	OPT_TO = 256, OPT_REPLACE, OPT_NO_LABELS, OPT_DB, OPT_PARTIAL, OPT_COLUMNS,
};

static const struct option long_opts[] = {
	{"to", required_argument, NULL, OPT_TO},
	{"replace", no_argument, NULL, OPT_REPLACE},
	{"no-labels", no_argument, NULL, OPT_NO_LABELS},
	{"db", required_argument, NULL, OPT_DB},
	{"partial", no_argument, NULL, OPT_PARTIAL},
	{"columns", required_argument, NULL, OPT_COLUMNS},
	STACK_FILTER_LONG_OPTS,
	{NULL, 0, NULL, 0},
};

struct export_args {
	struct cli_stack_args s;
	struct hwt_export_request rq;
	struct hwt_export_opts ex;
	struct hwt_export *export;
	struct hwt_elem_sink elements;
	bool has_time;                /* a capture's elements carried times */
	struct hwt_stack_decode_result *results; /* the run's, one a capture */
};

static int option(void *arg, int c, const char *value)
{
	struct export_args *a = arg;
	switch (c) {
	case OPT_TO:
		if (hwt_export_request_format(&a->rq, value))
			return cli_usage_error("export", "%s", hwt_errmsg());
		return 0;
	case OPT_REPLACE:
		a->rq.replace = true;
		return 0;
	case OPT_DB:
		a->rq.conninfo = value;
		return 0;
	case OPT_NO_LABELS:
		a->ex.no_labels = true;
		return 0;
	case OPT_PARTIAL:
		a->rq.partial = true;
		return 0;
	case OPT_COLUMNS:
		if (hwt_export_columns_parse(value, &a->ex.all_columns))
			return cli_usage_error("export", "%s", hwt_errmsg());
		a->rq.has_columns = true;
		return 0;
	}
	return CLI_STACK_NOT_MINE;
}

static int check(void *arg)
{
	struct export_args *a = arg;
	/* -j (the stack commands' option) also sets the rows' thread. */
	a->ex.jobs = a->s.opts.jobs;
	a->rq.output = a->s.output;
	a->rq.ncaptures = (size_t)a->s.nfiles;
	a->rq.no_symbols = a->s.symbols.off;
	if (hwt_export_request_check(&a->rq))
		return cli_usage_error("export", "%s", hwt_errmsg());
	hwt_export_request_apply(&a->rq, &a->ex);
	if (hwt_export_format_mangled_names(a->ex.format))
		a->s.symbols.opts.no_demangle = true;
	return 0;
}

/* A database is a regular file: even /dev/null is refused for it, and
 * what cannot be replaced is refused before --replace is suggested;
 * postgresql writes no file, autofdo and bolt name theirs. */
static int open_output(void *arg, FILE **out, struct hwt_outfile **of)
{
	struct export_args *a = arg;
	const char *inputs[] = {a->s.file, a->s.opts.lookup.vmlinux};
	bool pg = a->ex.format == HWT_EXPORT_POSTGRESQL;
	int rc = 0;
	if (a->ex.format == HWT_EXPORT_SQLITE && !a->ex.partial &&
	    (rc = cli_output_check("export", a->s.output, inputs, 2)))
		return rc;
	if (hwt_export_request_output_check(&a->rq)) {
		fprintf(stderr, "hwtrace export: %s\n", hwt_errmsg());
		return EXIT_USAGE;
	}
	if (a->ex.partial)
		return cli_output_open("export", a->s.output, a->s.files,
				       (size_t)a->s.nfiles, out, of);
	/* pprof of several captures: none of them is the output either. */
	bool one_file = !pg && !hwt_export_format_per_binary(a->ex.format);
	if (one_file && a->s.nfiles > 1)
		rc = cli_output_check("export", a->s.output, a->s.files,
				      (size_t)a->s.nfiles);
	if (!rc && one_file)
		rc = cli_output_open("export", a->s.output, inputs, 2, out, of);
	if (rc)
		return rc;
	/* The check above was at the start: another export may create the
	 * file by the end, and without --replace it stays. */
	if (a->ex.format == HWT_EXPORT_SQLITE && !a->ex.replace && *of)
		hwt_outfile_set_no_replace(*of);
	a->ex.out = *out;
	a->ex.db_path = *of ? hwt_outfile_temp_path(*of) : NULL;
	a->ex.db_name = a->s.output;
	return 0;
}

/* Capture @i after the first: the export's binaries and symbols are
 * its own. */
static int export_begin(void *arg, size_t i, const char *file)
{
	struct export_args *a = arg;
	if (!i)
		return 0;
	hwt_export_set_symbolizer(a->export, a->s.symbols.sym);
	return hwt_export_capture_file(a->export, file, true);
}

static int export_end(void *arg, size_t i, int err)
{
	struct export_args *a = arg;
	a->has_time |= a->results[i].merge.timed != 0;
	return !err && i + 1 < (size_t)a->s.nfiles
		       ? hwt_export_end_capture(a->export) : 0;
}

static int start(void *arg, FILE *out, struct hwt_stack_decode_files *run)
{
	struct export_args *a = arg;
	(void)out;
	a->ex.sym = a->s.symbols.sym;
	/* This process uses SQLite for the export alone: its memory
	 * statistics are not read (and a failure changes nothing). */
	if (a->ex.format == HWT_EXPORT_SQLITE)
		(void)hwt_export_sqlite_quiet_memory();
	/* Whether the capture has time is known after the decode; pprof
	 * asks at the end. */
	int err = hwt_export_new(&a->ex, &a->export);
	if (!err)
		err = hwt_export_capture_file(a->export, a->s.file, false);
	if (!err) {
		run->each.ops = hwt_export_ops(a->export);
		a->elements = hwt_export_elements(a->export);
		run->each.elements = &a->elements;
	}
	/* The captures one after the other into the one export: each one's
	 * counts placed in their binaries with its own symbols (AutoFDO,
	 * BOLT), or its samples added to the profile (pprof), or its rows
	 * to a database of its own (sqlite, put together at the end);
	 * postgresql takes one capture. */
	run->begin = export_begin;
	run->end = export_end;
	run->arg = a;
	a->results = run->results;
	return err;
}

static int finish(void *arg, FILE *out,
		  const struct hwt_stack_decode_files *run)
{
	struct export_args *a = arg;
	(void)run;
	int err = hwt_export_finish(a->export, a->has_time);
	if (err || !a->ex.partial)
		return err;
	struct hwt_partial *p;
	err = hwt_partial_from_export(a->export, &p);
	if (!err)
		err = hwt_partial_write(p, out);
	hwt_partial_free(p);
	return err;
}

static void done(void *arg, const struct hwt_stack_decode_files *run,
		 int err, int wrc)
{
	struct export_args *a = arg;
	(void)run;
	if (wrc == EXIT_USAGE && a->ex.format == HWT_EXPORT_SQLITE && !a->ex.replace)
		fprintf(stderr, "hwtrace export: give --replace to replace %s, "
			"or another -o\n", a->s.output);
	if (!err && !wrc && !a->ex.partial)
		(void)hwt_export_write_summary(a->export, stderr,
					       "hwtrace export: ");
}

static void free_export(void *arg)
{
	hwt_export_free(((struct export_args *)arg)->export);
}

int cmd_export(int argc, char **argv)
{
	/* A database that has the tables already is a usage error, as an
	 * existing -o without --replace. */
	static const struct cli_stack_cmd cmd = {
		.name = "export", .usage = export_usage, .options = long_opts,
		.usage_status = true, .many_files = true, .option = option,
		.check = check, .open = open_output, .start = start,
		.first_summary = true, .finish = finish,
		.done = done, .free = free_export,
	};
	struct export_args a;
	memset(&a, 0, sizeof(a));
	a.ex.size = sizeof(a.ex);
	return cli_stack_command(&cmd, &a.s, &a, argc, argv);
}
