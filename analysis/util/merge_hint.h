/* A decode's progress callback in front of the caller's that tells the
 * time-ordered merge when the decode has one stream only: nothing to
 * order, so nothing to keep (its elements go straight out). Shared by
 * the decodes that merge (hwt_decode_merged, hwt_stack_decode). */
#ifndef HWT_ANALYSIS_UTIL_MERGE_HINT_H
#define HWT_ANALYSIS_UTIL_MERGE_HINT_H

#include "hwtrace/decode.h"
#include "hwtrace/merge.h"

struct merge_hint {
	struct hwt_merge *merge;            /* NULL: tell nothing */
	const struct hwt_decode_opts *user; /* whose progress is called */
};

static inline void merge_hint_progress(void *arg,
				       const struct hwt_decode_progress *p)
{
	struct merge_hint *h = arg;
	if (!p->done && h->merge)
		hwt_merge_expect_streams(h->merge, p->streams);
	if (h->user->progress)
		h->user->progress(h->user->progress_arg, p);
}

#endif
