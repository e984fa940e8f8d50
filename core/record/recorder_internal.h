/* The recorder's state, shared by its files in core/record/. */
#ifndef HWT_RECORDER_INTERNAL_H
#define HWT_RECORDER_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>

#include "hwtrace/recorder.h"

struct hwt_recorder {
	struct hwt_recorder_opts opts;
	struct hwt_session *s;     /* borrowed */
	struct hwt_pd_writer *w;   /* borrowed */
	/* Set by signal handlers and other threads: lock-free atomics are
	 * async-signal-safe. */
	atomic_int stop;
	atomic_int snapshot;
	/* The call trigger (recorder_trigger.c); NULL: none. */
	struct recorder_trigger *trig;
	uint64_t trigger_entries, trigger_calls, trigger_fired, trigger_windows;
};

/* recorder_trigger.c: set up before the loop (the session's probes and
 * the observer), told of each snapshot taken, and finished (the trigger
 * feature) after it. */
int hwt_recorder_trigger_start(struct hwt_recorder *r);
void hwt_recorder_trigger_taken(struct hwt_recorder *r);
int hwt_recorder_trigger_finish(struct hwt_recorder *r);
void hwt_recorder_trigger_free(struct hwt_recorder *r);

/* branch_caps.c: the CPU_PMU_CAPS feature of a branch-record recording on
 * the machine @os describes, every file of its cpu PMU's caps/ (none
 * written when the branch records are not the cpu PMU's). Errors:
 * HWT_ERR_NOMEM, those of hwt_pd_writer_copy_feature. */
int hwt_record_branch_caps(const struct hwt_os *os, struct hwt_pd_writer *w);

#endif
