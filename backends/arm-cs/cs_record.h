/* The cs_etm recording half: configure (cs_record.c) and the AUXTRACE_INFO
 * and snapshot hooks, which live in files of their own. */
#ifndef HWT_BACKENDS_ARM_CS_CS_RECORD_H
#define HWT_BACKENDS_ARM_CS_CS_RECORD_H

#include "hwtrace/backend.h"

/* Per-CPU sessions get perf's defaults (contextid and timestamp where the
 * trace units have them); every ETM option asked for is checked against
 * each traced CPU's TRCIDR registers. The sink is chosen by the core. */
int hwt_cs_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct hwt_profile *profile,
		     struct perf_event_attr *attr);

/* To be provided by cs_info.c; see struct hwt_record_ops. */
int hwt_cs_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			 uint64_t prev_head, uint64_t *start, uint64_t *len,
			 bool *wrapped);

#endif
