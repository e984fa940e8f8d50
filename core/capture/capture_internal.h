/* Internal parts of capture sessions. */
#ifndef HWT_CORE_CAPTURE_INTERNAL_H
#define HWT_CORE_CAPTURE_INTERNAL_H

#include <linux/perf_event.h>

#include "hwtrace/os.h"

/* Turns a refusal of perf_event_open (@what: "perf_event_open") or mmap
 * (-errno in @err) into a hwt_error that names the limit and its fix.
 * @pmu names the event; @bytes the size that was being mapped. */
int hwt_capture_explain(const struct hwt_os *os, int err, const char *what,
			const char *pmu, const struct perf_event_attr *attr,
			int cpu, unsigned long long bytes);

#endif
