/* Which of an export's formats and options go together: the rules of
 * `hwtrace export`, kept with the export so that every program offering
 * its options refuses the same requests with the same words. */
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/error.h"
#include "hwtrace/export_request.h"

#define FORMAT_NAMES "sqlite, pprof, postgresql, autofdo, bolt or bolt-preagg"

/* PostgreSQL writes to a server: a connection string, no file, one
 * capture, and no partial result to merge. */
static int check_postgresql(const struct hwt_export_request *rq)
{
	if (!rq->conninfo || rq->output)
		return hwt_error(HWT_ERR_INVAL, "--to postgresql takes --db "
				 "CONNINFO (a libpq connection string), not "
				 "-o");
	if (rq->partial)
		return hwt_error(HWT_ERR_INVAL, "--partial: only sqlite, "
				 "autofdo, bolt, bolt-preagg and pprof have "
				 "partial results");
	if (rq->ncaptures > 1)
		return hwt_error(HWT_ERR_INVAL, "several captures: only sqlite, "
				 "autofdo, bolt, bolt-preagg and pprof add up");
	return 0;
}

int hwt_export_request_check(const struct hwt_export_request *rq)
{
	if (!rq->has_format)
		return hwt_error(HWT_ERR_INVAL, "--to FORMAT is required (%s)",
				 FORMAT_NAMES);
	bool pg = rq->format == HWT_EXPORT_POSTGRESQL;
	int err = pg ? check_postgresql(rq) : 0;
	if (err)
		return err;
	if (!pg && rq->conninfo)
		return hwt_error(HWT_ERR_INVAL, "--db is for --to postgresql");
	if (!pg && !rq->output && !rq->partial)
		return hwt_error(HWT_ERR_INVAL, "-o OUT is required");
	if (rq->has_columns && rq->format != HWT_EXPORT_SQLITE)
		return hwt_error(HWT_ERR_INVAL, "--columns is for --to sqlite");
	/* A profile of a binary places its counts at the binary's own
	 * addresses, which only its symbols give. */
	if (hwt_export_format_per_binary(rq->format) && rq->no_symbols)
		return hwt_error(HWT_ERR_INVAL, "--to autofdo and bolt need the "
				 "binaries for their addresses: drop "
				 "--no-symbols");
	return 0;
}

int hwt_export_request_format(struct hwt_export_request *rq,
			      const char *name)
{
	if (hwt_export_format_parse(name, &rq->format))
		return hwt_error(HWT_ERR_INVAL, "--to %s: use %s", name,
				 FORMAT_NAMES);
	rq->has_format = true;
	return 0;
}

int hwt_export_columns_parse(const char *name, bool *all_columns)
{
	if (strcmp(name, "all") && strcmp(name, "branches"))
		return hwt_error(HWT_ERR_INVAL, "--columns %s: use all or "
				 "branches", name);
	*all_columns = !strcmp(name, "all");
	return 0;
}

bool hwt_export_format_mangled_names(enum hwt_export_format format)
{
	return format == HWT_EXPORT_BOLT;
}

int hwt_export_request_output_check(const struct hwt_export_request *rq)
{
	struct stat st;

	/* lstat: a link is not followed to the file it would replace. */
	if (rq->format == HWT_EXPORT_SQLITE && !rq->partial && !rq->replace &&
	    rq->output && lstat(rq->output, &st) == 0)
		return hwt_error(HWT_ERR_CONFIG, "%s exists: give --replace to "
				 "replace the database, or another -o",
				 rq->output);
	return 0;
}

void hwt_export_request_apply(const struct hwt_export_request *rq,
			      struct hwt_export_opts *opts)
{
	opts->format = rq->format;
	opts->conninfo = rq->conninfo;
	opts->partial = rq->partial;
	opts->replace = rq->replace;
	/* A partial is one stream; the files are named when it is merged. */
	if (hwt_export_format_per_binary(rq->format) && !rq->partial)
		opts->out_prefix = rq->output;
}
