/* Which merges of partial results `hwtrace merge` takes and where each
 * goes, kept with the merge so that every program offering its options
 * refuses the same requests with the same words. */
#include "hwtrace/error.h"
#include "hwtrace/merge_request.h"

#define KIND_NAMES "report, collapsed, edges, autofdo, bolt, bolt-preagg, " \
		   "pprof, sqlite or branch-profile"

int hwt_merge_request_kind(struct hwt_merge_request *rq, const char *name)
{
	if (hwt_merge_kind_parse(name, &rq->kind))
		return hwt_error(HWT_ERR_INVAL, "--kind %s: use %s", name,
				 KIND_NAMES);
	rq->has_kind = true;
	return 0;
}

enum hwt_merge_dest hwt_merge_request_dest(const struct hwt_merge_request *rq)
{
	if (rq->partial)
		return HWT_MERGE_TO_STREAM;
	if (hwt_merge_kind_per_binary(rq->kind))
		return HWT_MERGE_TO_PROFILES;
	return rq->kind == HWT_MERGE_SQLITE ? HWT_MERGE_TO_DATABASE
					    : HWT_MERGE_TO_STREAM;
}

int hwt_merge_request_check(const struct hwt_merge_request *rq)
{
	if (!rq->has_kind)
		return hwt_error(HWT_ERR_INVAL, "no --kind (%s)", KIND_NAMES);
	bool needs_o = !rq->partial && !rq->output;
	if (needs_o && hwt_merge_kind_per_binary(rq->kind))
		return hwt_error(HWT_ERR_INVAL, "--kind %s writes one file per "
				 "binary: -o PREFIX or DIRECTORY is required",
				 hwt_merge_kind_name(rq->kind));
	/* A compressed profile is not for a terminal or a pipe's reader
	 * to guess at: export --to pprof takes -o too. */
	if (needs_o && rq->kind == HWT_MERGE_PPROF)
		return hwt_error(HWT_ERR_INVAL, "--kind pprof writes a "
				 "compressed profile: -o FILE is required");
	if (needs_o && rq->kind == HWT_MERGE_SQLITE)
		return hwt_error(HWT_ERR_INVAL, "--kind sqlite writes a "
				 "database: -o FILE is required");
	if (!rq->nparts)
		return hwt_error(HWT_ERR_INVAL, "no partial result to merge");
	return 0;
}
