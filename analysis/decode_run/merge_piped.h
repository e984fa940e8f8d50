/* The time-ordered merge of a decode (decode_merged.c), whose read-back runs beside its
 * consumer: with more than one thread (-j), once the decode is done the
 * merge reads its records back on the calling thread while a pipe's
 * thread (hwtrace/pipe.h) hands them on. The two would otherwise take
 * turns on one core while the others are idle. Worth it for a consumer
 * that costs more than the hand-over (decode's text and jsonl output),
 * not for the call stacks of report and timeline,
 * which merge without one: on a 4-CPU capture
 * of 48.9 M elements, `hwtrace report -j 2` took 4.48 s with a pipe in
 * front of the stacks and 4.03 s without (medians of 5, 2-core VM). */
#ifndef HWT_ANALYSIS_DECODE_RUN_MERGE_PIPED_H
#define HWT_ANALYSIS_DECODE_RUN_MERGE_PIPED_H

#include "hwtrace/merge.h"
#include "hwtrace/pipe.h"

struct merge_piped {
	struct hwt_merge *merge;
	struct hwt_pipe *pipe;     /* NULL with one thread */
	struct hwt_elem_sink piped;
};

/* A merge into @out (borrowed), through a pipe when @jobs > 1. Errors:
 * HWT_ERR_NOMEM. */
int merge_piped_new(struct merge_piped *m, const struct hwt_elem_sink *out,
		    unsigned int jobs);

/* Sends what the merge holds to @out (on the pipe's thread when there is
 * one) and waits until @out has it all. Returns the first error. */
int merge_piped_finish(struct merge_piped *m);

/* Frees both; a zeroed struct is a no-op. */
void merge_piped_free(struct merge_piped *m);

#endif
