/* hwtrace decode's time-ordered output on several threads: the merge's
 * read-back in slices (hwt_merge_finish_lanes), each lane formatting its
 * slices into memory with an output of its own, and writing them out in
 * its turn. With one thread a pipe (merge_piped.h) can only move the
 * formatting beside the merge; lanes share both. */
#ifndef HWT_TOOLS_DECODE_LANES_H
#define HWT_TOOLS_DECODE_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "decode_counts.h"
#include "hwtrace/merge.h"
#include "hwtrace/output.h"

struct decode_lanes_config {
	FILE *out;                       /* where the lines go */
	enum hwt_output_format format;
	/* The annotator of every lane's output, when has_annotator: its
	 * annotate is called under a lock, its cache_tag without one (see
	 * hwt_symbolizer_annotator). */
	bool has_annotator;
	struct hwt_output_annotator annotator;
	struct counts *counts;           /* counted into at each flush */
	size_t lanes;
};

/* Sends what @merge holds to the lanes and waits until it is all out.
 * Errors: as hwt_merge_finish_lanes, HWT_ERR_IO writing @out,
 * HWT_ERR_NOMEM. */
int decode_lanes_finish(struct hwt_merge *merge,
			const struct decode_lanes_config *config);

#endif
