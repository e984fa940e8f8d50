/* The flight recorder's part of hwtrace record -e sw_branch
 * (tools/record_swb_recorder.c): its options from the command line and
 * the profile, and what it reports. */
#ifndef HWT_TOOLS_RECORD_SWB_RECORDER_H
#define HWT_TOOLS_RECORD_SWB_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/config.h"
#include "hwtrace/swbranch.h"

/* --snapshot=SIZE: a number of records, or bytes with a K, M or G suffix
 * (whole 24-byte records). 0, or the usage error's exit status. */
int swb_snapshot_size(const char *text, uint64_t *records);

/* -c FILE: [snapshot] trigger, trigger_count and size, for what the
 * command line left unset; *snapshot is set by a trigger. The profile
 * stays loaded (*pp, which the caller frees) while o->trigger points
 * into it. 0, or the exit status of the error it printed. */
int swb_profile_options(const char *path, struct hwt_profile **pp,
			struct hwt_swb_opts *o, bool *snapshot);

/* hwt_swb_opts.window_written: says which file a window went to. */
void swb_show_window(void *arg, const char *path, int tid);

/* The trigger's counts, the windows, and how the program ended. */
void swb_print_trigger_summary(const struct hwt_swb_opts *o,
			       const struct hwt_swb_stats *st);

/* -p: the program attached to was let go and runs on. */
void swb_print_detached(const struct hwt_swb_opts *o);

#endif
