/* A machine's trace hardware as `hwtrace list` shows it: the trace PMUs
 * of a sysfs tree (hwt_pmu_scan) with the branch-record hardware of its
 * CPU PMU (hwt_branch_hw_probe), gathered once into one result, and the
 * one text printer of it. */
#ifndef HWTRACE_TRACE_HW_H
#define HWTRACE_TRACE_HW_H

#include <stdio.h>

#include "hwtrace/brstack.h"
#include "hwtrace/common.h"
#include "hwtrace/pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_os;

struct hwt_trace_hw {
	struct hwt_pmu_list *pmus; /* hwt_pmu_scan's: trace PMUs and all names */
	/* hwt_branch_hw_probe's result: 0 with @branch filled,
	 * HWT_ERR_NOENT when the CPU PMU has no branch records, or another
	 * error with @branch_error its message. */
	int branch_status;
	struct hwt_branch_hw branch;
	char branch_error[512];
};

/* Scans the sysfs @os reads into *@out (free it with hwt_trace_hw_free).
 * A failed branch-record probe is part of the result, not an error.
 * Errors: hwt_pmu_scan's (HWT_ERR_NOMEM, ...). */
HWT_API int hwt_trace_hw_scan(const struct hwt_os *os,
			      struct hwt_trace_hw **out);

/* NULL is a no-op. */
HWT_API void hwt_trace_hw_free(struct hwt_trace_hw *hw);

/* The text of `hwtrace list`: each trace PMU (type, what it is, format
 * terms, caps, address filters; CoreSight's sinks, per-CPU trace units
 * and sink path) under "Trace PMUs (sysfs at @sysfs):", or when there is
 * none why not and what still works; then the branch records and the
 * decoders of this build. Returns 0, or HWT_ERR_IO when writing fails. */
HWT_API int hwt_trace_hw_print(FILE *out, const struct hwt_trace_hw *hw,
			       const char *sysfs);

#ifdef __cplusplus
}
#endif

#endif
