/* A profile checked against a machine without opening anything, as
 * `hwtrace config check` shows it: the event plan it builds (every
 * perf_event_attr, the CPUs, buffers, sink), its address filters
 * resolved as the kernel takes them and whether its PMU can pause and
 * resume (hwtrace/auxaction.h), gathered into one result, and the one
 * text printer of it. */
#ifndef HWTRACE_PROFILE_CHECK_H
#define HWTRACE_PROFILE_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/config.h"
#include "hwtrace/pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_os;

struct hwt_profile_check {
	struct hwt_pmu_list *pmus;  /* the sysfs scan the plan's pmu is of */
	struct hwt_event_plan plan; /* hwt_profile_build_attrs' */
	/* plan.filter as PERF_EVENT_IOC_SET_FILTER takes it (symbols
	 * resolved); "" when there is none. */
	char resolved_filter[4096];
	/* The backend drives a PMU: @aux_action says whether its AUX pause
	 * and resume (record --trigger resume:/pause:) work here. */
	bool have_aux_action;
	char aux_action[256];
};

/* Validates @profile against the PMUs of the sysfs @os reads and fills
 * *@out (free it with hwt_profile_check_free). Errors, each with the
 * message saying what is wrong: hwt_pmu_scan's, hwt_profile_build_attrs'
 * (HWT_ERR_CONFIG, HWT_ERR_NOENT, HWT_ERR_NOSUP) and
 * hwt_addr_filter_resolve's; HWT_ERR_NOMEM. */
HWT_API int hwt_profile_check(struct hwt_profile *profile,
			      const struct hwt_os *os,
			      struct hwt_profile_check **out);

/* NULL is a no-op. */
HWT_API void hwt_profile_check_free(struct hwt_profile_check *check);

/* The text of `hwtrace config check`: "profile: @file" (when not NULL),
 * the backend and mode, the CPUs traced, buffers, snapshot trigger,
 * sink, address filters and output, then each event's attribute as
 * perf -vv shows it, the AUX pause/resume sentence and "OK: ...", naming
 * @sysfs when the check was against another machine's tree (NULL: this
 * machine's). Returns 0, or HWT_ERR_IO when writing fails. */
HWT_API int hwt_profile_check_print(FILE *out,
				    const struct hwt_profile_check *check,
				    const char *file, const char *sysfs);

#ifdef __cplusplus
}
#endif

#endif
