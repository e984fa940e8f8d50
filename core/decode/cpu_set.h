/* A set of CPU numbers, and the one way messages print it: ascending
 * ranges, "0-3, 7" (as Linux writes a CPU list, with a space after each
 * comma). The decode collects the CPUs a capture has trace or samples of
 * (AUX queues, branch-record samples, a snapshot's trace sources) to say
 * so when `--cpu N` names none of them. */
#ifndef HWT_CORE_DECODE_CPU_SET_H
#define HWT_CORE_DECODE_CPU_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Zero-initialised: the empty set. A CPU number comes from the capture,
 * any 32-bit value, so the set is a sorted array, not a bitmap. */
struct hwt_cpu_set {
	uint32_t *cpu; /* ascending, each once */
	size_t n, cap;
};

/* Adds @cpu (a no-op when it is there). Errors: HWT_ERR_NOMEM. */
int hwt_cpu_set_add(struct hwt_cpu_set *s, uint32_t cpu);

bool hwt_cpu_set_contains(const struct hwt_cpu_set *s, uint32_t cpu);

/* Writes @s into @buf (@size bytes; NUL-terminated when @size > 0) as
 * ascending ranges: "0-3, 7"; a run of two is a range too ("4-5"), the
 * empty set "". When the whole text does not fit, it is as many whole
 * ranges as fit, then ", ..." ("..." alone when none fits; "" when not
 * even that does). Returns whether the whole set was written. */
bool hwt_cpu_set_format(const struct hwt_cpu_set *s, char *buf, size_t size);

void hwt_cpu_set_free(struct hwt_cpu_set *s);

#endif
