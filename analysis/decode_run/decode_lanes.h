/* A merged decode's output on several threads (decode_merged.c): the
 * merge's read-back in slices (hwt_merge_finish_lanes), each lane
 * formatting its slices into memory with a printer of its own, and
 * writing them out in its turn. With one thread a pipe (merge_piped.h)
 * can only move the formatting beside the merge; lanes share both. */
#ifndef HWT_ANALYSIS_DECODE_RUN_DECODE_LANES_H
#define HWT_ANALYSIS_DECODE_RUN_DECODE_LANES_H

#include <stddef.h>
#include <stdio.h>

#include "hwtrace/decode.h"
#include "hwtrace/merge.h"
#include "hwtrace/output.h"

struct decode_lanes_config {
	FILE *out;                       /* where the lines go */
	enum hwt_output_format format;
	/* The annotator of every lane's printer, NULL for none: its
	 * annotate is called under a lock, its cache_tag without one (see
	 * hwt_symbolizer_annotator). */
	const struct hwt_output_annotator *annotator;
	size_t lanes;
	/* Given each slice's counts once its lines are out, in order. */
	void (*add_counts)(void *arg, const struct hwt_decode_counts *slice);
	void *add_counts_arg;
};

/* Sends what @merge holds to the lanes and waits until it is all out.
 * Errors: as hwt_merge_finish_lanes, HWT_ERR_IO writing the output,
 * HWT_ERR_NOMEM. */
int decode_lanes_finish(struct hwt_merge *merge,
			const struct decode_lanes_config *config);

#endif
