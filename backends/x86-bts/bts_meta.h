/* The intel_bts record-side metadata: the PERF_RECORD_AUXTRACE_INFO priv[]
 * words in the layout of Linux perf's intel_bts_info_fill (tools/perf/util/
 * intel-bts.h), and where a snapshot starts in an overwrite-mode buffer. */
#ifndef HWT_BACKENDS_X86_BTS_META_H
#define HWT_BACKENDS_X86_BTS_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"

enum {
	HWT_BTS_PRIV_PMU_TYPE,
	HWT_BTS_PRIV_TIME_SHIFT,
	HWT_BTS_PRIV_TIME_MULT,
	HWT_BTS_PRIV_TIME_ZERO,
	HWT_BTS_PRIV_CAP_USER_TIME_ZERO,
	HWT_BTS_PRIV_SNAPSHOT_MODE,
	HWT_BTS_PRIV_WORDS, /* perf's INTEL_BTS_AUXTRACE_PRIV_SIZE / 8 */
};

/* One branch record: from, to, flags; 8 bytes each. */
#define HWT_BTS_RECORD_SIZE 24u

/* The record ops. The priv words do not depend on @cpus (intel_bts traces
 * per thread; refusing CPU-wide events is the configure op's job). @pmu may
 * be NULL: the type is then read from bus/event_source/devices/intel_bts. */
int hwt_bts_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct perf_event_attr *attr, const int *cpus,
		     int ncpus, bool snapshot,
		     const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		     size_t max);

/* As intel_pt: the head is an offset inside the buffer, and the buffer
 * counts as wrapped once its last 4 KiB hold anything. In snapshot mode
 * the hardware wraps at the last whole 24-byte record, leaving
 * aux_size % 24 bytes at the end unwritten; the record ops' alignment
 * (HWT_BTS_RECORD_SIZE) tells the core to leave them out, as perf does. */
int hwt_bts_find_snapshot(const uint8_t *aux, uint64_t aux_size,
			  uint64_t head, uint64_t prev_head, uint64_t *start,
			  uint64_t *len, bool *wrapped);

#endif
