/* The intel_pt recording half: configure (pt_record.c) and the AUXTRACE_INFO
 * and snapshot hooks, which live in files of their own. */
#ifndef HWT_BACKENDS_X86_PT_PT_RECORD_H
#define HWT_BACKENDS_X86_PT_PT_RECORD_H

#include "hwtrace/backend.h"

/* Applies perf's intel_pt defaults (intel_pt_default_config) to the terms
 * the profile leaves unset and checks every term against caps/. */
int hwt_pt_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct hwt_profile *profile,
		     struct perf_event_attr *attr);

/* To be provided by pt_info.c; see struct hwt_record_ops. */
int hwt_pt_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			 uint64_t prev_head, uint64_t *start, uint64_t *len,
			 bool *wrapped);

#endif
