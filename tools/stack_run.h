/* What `decode --calls`, `report` and `timeline` share: a capture decoded
 * in time order (streams merged) into per-thread call stacks. */
#ifndef HWT_TOOLS_STACK_RUN_H
#define HWT_TOOLS_STACK_RUN_H

#include <stdbool.h>

#include "hwtrace/decode.h"
#include "hwtrace/merge.h"
#include "hwtrace/stack.h"

struct cli_stack_run {
	const char *file;                 /* the perf.data capture */
	const struct hwt_decode_opts *opts;
	bool per_cpu;                     /* stream order: no merge */
	struct hwt_stack_ops ops;         /* where frames go */
	/* Names functions; its starts make jumps to them tail calls. May be
	 * NULL. */
	const struct hwt_func_namer *namer;
	/* Optional: every element, in the same order, before the stacks
	 * see it (timelines mark gaps and trace on/off). */
	const struct hwt_elem_sink *elements;
	/* Filled by cli_stack_run: */
	struct hwt_stack_stats stack_stats;
	struct hwt_merge_stats merge_stats;
	bool merged;
};

/* Decodes, merges, rebuilds stacks, and closes every open frame at the
 * end. Returns 0 or a negative hwt error (the library's message set). */
int cli_stack_run(struct cli_stack_run *run);

/* One stderr line of what the stacks saw, prefixed "hwtrace CMD: ", and
 * the note that an untimed capture is in stream order. */
void cli_stack_run_summary(const struct cli_stack_run *run, const char *cmd);

#endif
