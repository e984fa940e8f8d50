/* The outputs a merge of partials gives (`hwtrace merge --kind`): their
 * names, the partials each is made from, and how each is written. */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/partial.h"

/* In enum hwt_merge_kind's order. */
static const char *const merge_kind_names[] = {
	"report", "collapsed", "edges", "autofdo", "bolt", "bolt-preagg",
	"pprof", "sqlite", "branch-profile",
};

#define NKINDS (sizeof(merge_kind_names) / sizeof(merge_kind_names[0]))

int hwt_merge_kind_parse(const char *name, enum hwt_merge_kind *out)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(name, merge_kind_names[i])) {
			*out = (enum hwt_merge_kind)i;
			return 0;
		}
	return HWT_ERR_INVAL;
}

const char *hwt_merge_kind_name(enum hwt_merge_kind kind)
{
	return (size_t)kind < NKINDS ? merge_kind_names[kind] : "unknown";
}

enum hwt_partial_kind hwt_merge_kind_partial(enum hwt_merge_kind kind)
{
	switch (kind) {
	case HWT_MERGE_EDGES:
		return HWT_PARTIAL_EDGES;
	case HWT_MERGE_AUTOFDO:
		return HWT_PARTIAL_AUTOFDO;
	case HWT_MERGE_BOLT:
		return HWT_PARTIAL_BOLT;
	case HWT_MERGE_BOLT_PREAGG:
		return HWT_PARTIAL_BOLT_PREAGG;
	case HWT_MERGE_PPROF:
		return HWT_PARTIAL_PPROF;
	case HWT_MERGE_SQLITE:
		return HWT_PARTIAL_SQLITE;
	case HWT_MERGE_BRANCH_PROFILE:
		return HWT_PARTIAL_BRANCH_PROFILE;
	case HWT_MERGE_REPORT:
	case HWT_MERGE_COLLAPSED:
		break;
	}
	/* The table and the folded stacks both come from report partials. */
	return HWT_PARTIAL_REPORT;
}

bool hwt_merge_kind_per_binary(enum hwt_merge_kind kind)
{
	return kind == HWT_MERGE_AUTOFDO || kind == HWT_MERGE_BOLT ||
	       kind == HWT_MERGE_BOLT_PREAGG;
}

int hwt_partial_write_merged(const struct hwt_partial *p,
			     enum hwt_merge_kind kind,
			     const struct hwt_merge_write_opts *opts, FILE *out)
{
	switch (kind) {
	case HWT_MERGE_REPORT:
		return hwt_partial_write_report(p, out, opts->top);
	case HWT_MERGE_COLLAPSED:
		return hwt_partial_write_collapsed(p, out, opts->weight);
	case HWT_MERGE_EDGES:
		return hwt_partial_write_edges(p, out, opts->format);
	case HWT_MERGE_PPROF:
		return hwt_partial_write_pprof(p, out);
	case HWT_MERGE_BRANCH_PROFILE:
		return hwt_partial_write_branch_profile(p, out, opts->format);
	case HWT_MERGE_SQLITE:
		return hwt_error(HWT_ERR_INVAL, "a merged sqlite partial is a "
				 "database file: hwt_partial_write_sqlite "
				 "writes it");
	case HWT_MERGE_AUTOFDO:
	case HWT_MERGE_BOLT:
	case HWT_MERGE_BOLT_PREAGG:
		break;
	}
	return hwt_error(HWT_ERR_INVAL, "a merged %s partial is one file per "
			 "binary: hwt_partial_write_profiles writes them",
			 hwt_merge_kind_name(kind));
}
