/* What a merge of partial results is asked for, in the terms of
 * `hwtrace merge`'s options: which kinds need -o, and where the merged
 * result goes. A program offering the same options refuses the same
 * requests with the same words. */
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

#ifdef __cplusplus
}
#endif

#endif
