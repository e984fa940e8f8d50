/* What hwtrace decode counts of the elements it writes (the summary on
 * standard error), as a sink in front of the output. */
#ifndef HWT_TOOLS_DECODE_COUNTS_H
#define HWT_TOOLS_DECODE_COUNTS_H

#include <stdint.h>

#include "decode_progress.h"
#include "hwtrace/element.h"

struct counts {
	struct hwt_elem_sink next;
	/* While the merge writes its elements: the progress line, and the
	 * count when it started and the number it writes. */
	struct cli_progress *progress;
	uint64_t written_base, written_total;
	uint64_t elems, ranges, insns, branches, errors, gaps;
	/* Branches whose source the trace does not give (read from the
	 * packets where the code was missing). */
	uint64_t branches_no_from;
	uint64_t samples, sample_branches, samples_nosync;
	uint64_t gap_by[HWT_GAP_NO_IMAGE + 1];
	uint64_t gap_bytes;
};

/* Counts @e into @arg (struct counts) and hands it to its next sink. */
int count_emit(void *arg, const struct hwt_elem *e);

/* Adds @part's counts to @total and shows the progress, as if @total had
 * counted those elements itself; @part's counts start again from 0. */
void counts_add(struct counts *total, struct counts *part);

/* hwtrace decode's summary of @c, on standard error. */
void counts_print(const struct counts *c);

#endif
