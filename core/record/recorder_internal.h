/* The recorder's state, shared by its files in core/record/. */
#ifndef HWT_RECORDER_INTERNAL_H
#define HWT_RECORDER_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>

#include "hwtrace/brstack.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

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

/* branch_group.c: a branch recording's event group. */
struct branch_group_plan {
	bool active;                 /* a group was given */
	struct hwt_branch_group g;
	struct perf_event_attr members[HWT_BRANCH_GROUP_MAX - 1];
	const char *names[HWT_BRANCH_GROUP_MAX - 1]; /* into g */
};

/* The group @group (-e; NULL: the [branch] group of @rq's profile, else
 * none: plan->active false) parsed and checked against @hw with -j's
 * @mode. Errors: those of hwt_branch_group_parse and _check, and of
 * loading the profile (all HWT_ERR_CONFIG but the profile's I/O). */
int hwt_record_branch_group_of(const struct hwt_branch_request *rq,
			       const char *group, const struct hwt_branch_hw *hw,
			       uint64_t mode, struct branch_group_plan *plan);

/* Makes @leader (hwt_branch_attr_build's) the group's leader and fills
 * plan->members and plan->names from it. */
void hwt_record_branch_group_attrs(struct branch_group_plan *plan,
				   uint64_t mode, struct perf_event_attr *leader);

/* The GROUP_DESC feature: one group, its leader the writer's event
 * @leader (its index), its members after it. Errors: the writer's. */
int hwt_record_branch_group_desc(const struct branch_group_plan *plan,
				 size_t leader, struct hwt_pd_writer *w);

#endif
