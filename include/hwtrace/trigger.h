/* The call triggers' syntax, shared by sw_branch's flight recorder and
 * hwt_recorder (docs/record.md):
 *     symbol:FUNC[@BINARY]             FUNC is entered
 *     latency:FUNC[@BINARY]>DURATION   a call of FUNC took longer
 * DURATION is a number with a unit: ns, us, ms or s ("5ms", "1.5s"). */
#ifndef HWTRACE_TRIGGER_H
#define HWTRACE_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "5ms", "250us", "1.5s", "100ns" into *ns; -1 when malformed. */
HWT_API int hwt_trigger_parse_duration(const char *s, uint64_t *ns);
/* The same, with HWT_ERR_CONFIG saying what is wanted when @text is
 * none (a NULL @text too). */
HWT_API int hwt_trigger_duration_check(const char *text, uint64_t *ns);

/* Parses a symbol: or latency: trigger: FUNC[@BINARY] into @func (@size
 * bytes), *@latency and, for latency:, *@threshold_ns. Returns 1 when
 * @spec is one of them, 0 when it is neither (another kind), or
 * HWT_ERR_CONFIG saying what is wrong and what is valid. */
HWT_API int hwt_trigger_parse_call(const char *spec, char *func, size_t size,
				   bool *latency, uint64_t *threshold_ns);

#ifdef __cplusplus
}
#endif

#endif
