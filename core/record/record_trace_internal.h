/* hwt_recorder_record_trace's two halves (core/record/): the machine a
 * trace is recorded on, with the session options it gives
 * (record_trace_machine.c), and the file written from them
 * (record_trace.c). */
#ifndef HWT_RECORD_TRACE_INTERNAL_H
#define HWT_RECORD_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/config.h"
#include "hwtrace/emulator.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

/* Everything the session options borrow: zero it before trace_machine_open,
 * and close it after the session is freed. */
struct trace_machine {
	struct hwt_session_opts so;
	struct hwt_emu *emu;          /* the emulator; NULL: this kernel */
	struct hwt_profile *profile;  /* a live or emulated machine's */
	struct hwt_pmu_list *pmus;
	struct hwt_event_plan plan;   /* hwt_profile_build_attrs' */
	bool plan_built;
	const struct hwt_backend *backend; /* what the header describes */
	const struct hwt_pmu *pmu;
	struct hwt_workload *wl;      /* the command; NULL: none */
	uint8_t *trace;               /* --emulate-trace's bytes */
	size_t trace_len;
	int *online;                  /* every online CPU, when the plan has none */
	char filter[4096];            /* the plan's filters, resolved */
};

/* The session options of @rq's machine into @m->so (the command made but
 * not started), its warnings printed to the request's report. Errors:
 * those of the emulator, the profile, the plan, the filters, the
 * command. */
int trace_machine_open(const struct hwt_trace_request *rq,
		       struct trace_machine *m);
/* Frees what @m holds (a command still running is ended). */
void trace_machine_close(struct trace_machine *m);

/* "PREFIX: warning: WARN" on @rq's report, when @warn is not empty. */
void trace_warn(const struct hwt_trace_request *rq, const char *warn);

#endif
