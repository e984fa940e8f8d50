/* The intel_bts recording half: configure (bts_record.c) and the
 * AUXTRACE_INFO and snapshot hooks, which live in files of their own. */
#ifndef HWT_BACKENDS_X86_BTS_BTS_RECORD_H
#define HWT_BACKENDS_X86_BTS_BTS_RECORD_H

#include "hwtrace/backend.h"

/* BTS records per thread only: the kernel refuses per-CPU intel_bts
 * events. Type and the u/k bits are all the attr needs. */
int hwt_bts_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
		      const struct hwt_profile *profile,
		      struct perf_event_attr *attr);

/* To be provided by bts_info.c; see struct hwt_record_ops. */
int hwt_bts_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			  uint64_t prev_head, uint64_t *start, uint64_t *len,
			  bool *wrapped);

#endif
