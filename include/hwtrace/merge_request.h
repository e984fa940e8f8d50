/* What a merge of partial results is asked for, in the terms of
 * `hwtrace merge`'s options: which kinds need -o, where the merged
 * result goes, and the parts merged and written there. A program
 * offering the same options refuses the same requests with the same
 * words. */
#ifndef HWTRACE_MERGE_REQUEST_H
#define HWTRACE_MERGE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/common.h"
#include "hwtrace/partial.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A merge as asked for. Strings are borrowed for the call. */
struct hwt_merge_request {
	bool has_kind;              /* --kind given */
	enum hwt_merge_kind kind;
	bool partial;               /* --partial: the merged partial result */
	const char *output;         /* -o; NULL: standard output */
	size_t nparts;              /* the partial results named */
};

/* --kind NAME: the kind named @name into rq->kind, rq->has_kind set.
 * Errors: HWT_ERR_INVAL ("--kind NAME: use report, collapsed, ...",
 * the kinds listed), @rq left as it was. */
HWT_API int hwt_merge_request_kind(struct hwt_merge_request *rq,
				   const char *name);

/* Whether @rq can be merged: a kind is given; autofdo, bolt and
 * bolt-preagg (one file per binary), pprof (a compressed profile) and
 * sqlite (a database) take -o unless the result is a partial; there is
 * a part to merge. Errors: HWT_ERR_INVAL, the message naming the
 * options as `hwtrace merge` names them. */
HWT_API int hwt_merge_request_check(const struct hwt_merge_request *rq);

/* Where a checked request's merged result is written. */
enum hwt_merge_dest {
	HWT_MERGE_TO_STREAM,   /* -o or standard output:
				* hwt_partial_write_merged, or
				* hwt_partial_write for a partial */
	HWT_MERGE_TO_PROFILES, /* the files of each binary, named from -o:
				* hwt_partial_write_profiles */
	HWT_MERGE_TO_DATABASE, /* a new database file, -o:
				* hwt_partial_write_sqlite */
};

/* Where @rq's merged result goes. */
HWT_API enum hwt_merge_dest hwt_merge_request_dest(
	const struct hwt_merge_request *rq);

/* The rq->nparts partial results named by @parts read and merged
 * (hwt_partial_merge_files, each part of the kind rq->kind merges) into
 * *@out, free it with hwt_partial_free. Errors: those of
 * hwt_partial_merge_files, whose messages name the part. */
HWT_API int hwt_merge_request_merge(const struct hwt_merge_request *rq,
				    const char *const *parts,
				    struct hwt_partial **out);

/* Before anything is merged: a request whose result is a new database
 * (HWT_MERGE_TO_DATABASE) is refused when -o names something that is
 * there already, even a dangling link ("OUTPUT exists: give another -o
 * (the merge creates a database, it does not replace one)"); other
 * requests pass. Errors: HWT_ERR_CONFIG. */
HWT_API int hwt_merge_request_output_check(const struct hwt_merge_request *rq);

/* A request written to one stream (HWT_MERGE_TO_STREAM): the merged
 * partial result @sum when rq->partial (hwt_partial_write), else the
 * result rq->kind gives (hwt_partial_write_merged with @opts; an edges
 * jsonl stream's header line is the caller's). Errors: those of the
 * writers. */
HWT_API int hwt_merge_request_write(const struct hwt_merge_request *rq,
				    const struct hwt_partial *sum,
				    const struct hwt_merge_write_opts *opts,
				    FILE *out);

/* A request written as files, one per binary (HWT_MERGE_TO_PROFILES):
 * @sum's files named from rq->output (hwt_partial_write_profiles); once
 * all are in place, "@prefix" "N partial results merged into the files:"
 * (N rq->nparts) and the line of each file go to @report (NULL: none);
 * nothing goes there when a file cannot be written. Errors: those of
 * hwt_partial_write_profiles, HWT_ERR_NOMEM. */
HWT_API int hwt_merge_request_write_profiles(const struct hwt_merge_request *rq,
					     const struct hwt_partial *sum,
					     FILE *report, const char *prefix);

#ifdef __cplusplus
}
#endif

#endif
