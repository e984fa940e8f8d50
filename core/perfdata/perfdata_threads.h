/* The threads a capture's sideband names over time, its context switches
 * as perf's database export names their sides, and its build-id table
 * (perfdata_threads.c): gathered from the records one at a time, in file
 * order, for hwt_capture's accessors (hwtrace/capture.h). */
#ifndef HWT_CORE_PERFDATA_THREADS_H
#define HWT_CORE_PERFDATA_THREADS_H

#include <stddef.h>

#include "hwtrace/capture.h"
#include "hwtrace/perfdata.h"

struct pd_sw_event;
struct pd_last_name;

struct hwt_pd_threads {
	struct hwt_capture_task *tasks;       /* COMM (with a name) and FORK */
	size_t ntasks, tasks_cap;
	struct pd_sw_event *events;           /* COMM, FORK, SWITCH: for */
	size_t nevents, events_cap;           /* the switches, by time */
	struct hwt_capture_switch *switches;  /* after hwt_pd_threads_finish */
	size_t nswitches;
	struct pd_last_name *last;            /* by tid: its last name */
	size_t nlast;
	struct hwt_capture_build_id *ids;     /* the header's table */
	size_t nids;
	char **strs;                          /* every string above */
	size_t nstrs, strs_cap;
};

/* Takes @rec if it is a COMM, FORK, SWITCH or SWITCH_CPU_WIDE record (any
 * other is passed over). Returns 0 or HWT_ERR_NOMEM. */
int hwt_pd_threads_add(struct hwt_pd_threads *t, const struct hwt_pd_record *rec);

/* After the last record: puts the switches in time order and names their
 * sides, and copies @reader's build-id table (a malformed table is kept up
 * to the damage: its ids only label binaries). Returns 0 or
 * HWT_ERR_NOMEM. */
int hwt_pd_threads_finish(struct hwt_pd_threads *t,
			  const struct hwt_pd_reader *reader);

/* The name @tid took last, in file order; NULL when none. */
const char *hwt_pd_threads_last_name(const struct hwt_pd_threads *t,
				     int32_t tid);

void hwt_pd_threads_free(struct hwt_pd_threads *t);

#endif
