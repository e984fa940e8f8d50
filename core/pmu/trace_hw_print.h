/* What the parts of `hwtrace list`'s text share (trace_hw_print.c,
 * trace_hw_coresight.c). */
#ifndef HWT_CORE_PMU_TRACE_HW_PRINT_H
#define HWT_CORE_PMU_TRACE_HW_PRINT_H

#include <stdio.h>

#include "hwtrace/pmu.h"

/* A cs_etm PMU's sinks, trace units and sink path. */
void hwt_trace_hw_print_coresight(FILE *out, const struct hwt_pmu *pmu);

#endif
