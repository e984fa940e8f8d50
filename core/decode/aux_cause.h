/* The cause of each trace on and off: the samples of a capture's
 * aux_pause and aux_resume events (perf_event_attr aux_action, Linux
 * 6.13), gathered while its records are read, and a sink that names on
 * each TRACE_OFF the pause and on each TRACE_ON the resume that caused it
 * (the rule: docs/decode.md, "What paused or resumed the trace"). */
#ifndef HWT_CORE_AUX_CAUSE_H
#define HWT_CORE_AUX_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/element.h"
#include "hwtrace/perfdata.h"

struct aux_cause_key; /* aux_cause.c */

struct aux_cause_sample {
	uint64_t time, ip;
	int32_t tid, cpu; /* -1: the sample does not say */
	bool resume;      /* else a pause */
	bool taken;       /* an element named it already */
	const char *name; /* the event's, owned by the table */
};

struct aux_causes {
	struct aux_cause_sample *v;
	size_t n, cap;
	/* Indices of v ordered by (tid, kind, time) and by (cpu, kind,
	 * time), file order among equals: built by aux_causes_finish. */
	struct aux_cause_key *by_tid, *by_cpu;
	/* One name per event that has samples here (attr index). */
	struct aux_cause_name {
		size_t attr;
		char *name;
	} *names;
	size_t nnames, names_cap;
	/* For an element without a time (CoreSight without timestamps):
	 * the time of the AUX write that holds its trace offset, 0 when
	 * none does. */
	uint64_t (*time_of)(void *arg, const struct hwt_elem *e);
	void *time_arg;
	const struct hwt_elem_sink *next;
};

/* Keeps @rec when it is a sample of an event that pauses or resumes the
 * AUX trace; other records are passed over, and so is a sample too short
 * for its time. Errors: HWT_ERR_NOMEM. */
int aux_causes_add(struct aux_causes *c, struct hwt_pd_reader *reader,
		   const struct hwt_pd_record *rec);

/* Orders the samples for matching, once every record is read. Errors:
 * HWT_ERR_NOMEM. */
int aux_causes_finish(struct aux_causes *c);

/* Passes every element on to c->next, a TRACE_ON or TRACE_OFF with its
 * cause when a sample matches; valid while @c is. */
struct hwt_elem_sink aux_causes_sink(struct aux_causes *c);

void aux_causes_free(struct aux_causes *c);

#endif
