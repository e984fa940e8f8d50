/* What an export is asked for, in the terms of `hwtrace export`'s
 * options: which formats take which of --db, -o, --partial, --columns
 * and several captures, and what the format asks of the symbols. A
 * program offering the same options refuses the same requests with the
 * same words. */
#ifndef HWTRACE_EXPORT_REQUEST_H
#define HWTRACE_EXPORT_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/common.h"
#include "hwtrace/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An export as asked for. Strings are borrowed for the call. */
struct hwt_export_request {
	bool has_format;              /* --to given */
	enum hwt_export_format format;
	const char *conninfo;         /* --db (postgresql); NULL: none */
	const char *output;           /* -o; NULL: none */
	bool partial;                 /* --partial */
	size_t ncaptures;             /* the capture files */
	bool has_columns;             /* --columns given */
	bool no_symbols;              /* --no-symbols */
	bool replace;                 /* --replace */
};

/* --to NAME: the format named @name into rq->format, rq->has_format
 * set. Errors: HWT_ERR_INVAL ("--to NAME: use sqlite, pprof, ...", the
 * formats listed), @rq left as it was. */
HWT_API int hwt_export_request_format(struct hwt_export_request *rq,
				      const char *name);

/* Whether @rq's format and options go together: a format is given;
 * postgresql takes --db and neither -o, --partial nor several captures;
 * --db is postgresql's alone; the other formats take -o unless partial;
 * --columns is sqlite's; autofdo, bolt and bolt-preagg need the
 * symbols. Errors: HWT_ERR_INVAL, the message naming the options as
 * `hwtrace export` names them. */
HWT_API int hwt_export_request_check(const struct hwt_export_request *rq);

/* Before anything is written: a SQLite database (not a partial) is
 * refused without --replace when -o names something that is there
 * already, even a dangling link ("OUTPUT exists: give --replace to
 * replace the database, or another -o"); other requests pass. Errors:
 * HWT_ERR_CONFIG. */
HWT_API int hwt_export_request_output_check(
	const struct hwt_export_request *rq);

/* A checked @rq into the options of hwt_export_new: the format, --db's
 * connection string, --partial and --replace, and for autofdo, bolt and
 * bolt-preagg (not partial) the -o that names their files (out_prefix).
 * The other members of @opts are left as they are. */
HWT_API void hwt_export_request_apply(const struct hwt_export_request *rq,
				      struct hwt_export_opts *opts);

/* The samples table's columns named @name ("all" or "branches") into
 * *@all_columns. Errors: HWT_ERR_INVAL ("--columns NAME: use all or
 * branches"). */
HWT_API int hwt_export_columns_parse(const char *name, bool *all_columns);

/* Whether @format names functions as the binaries' symbol tables do
 * (mangled), so that the symbolizer must not demangle them: bolt's
 * fdata does; bolt-preagg gives addresses. */
HWT_API bool hwt_export_format_mangled_names(enum hwt_export_format format);

#ifdef __cplusplus
}
#endif

#endif
