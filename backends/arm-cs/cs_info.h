/* The cs_etm record-side metadata: the PERF_RECORD_AUXTRACE_INFO priv[]
 * words of perf's cs_etm_info_fill (layout in cs_meta.h) and where a
 * snapshot starts in an overwrite-mode buffer. */
#ifndef HWT_BACKENDS_ARM_CS_INFO_H
#define HWT_BACKENDS_ARM_CS_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"

/* The most CPUs a cs_etm session can describe. */
#define HWT_CS_MAX_CPUS 4096

/* The record ops. One block per CPU of @cpus (sorted, duplicates dropped),
 * or per online CPU when @cpus is NULL or empty (a per-thread session), as
 * perf does. Per-CPU registers come from @pmu's trace units, or when @pmu
 * is NULL from bus/event_source/devices/cs_etm/cpuN/{trcidr,mgmt}/ through
 * @os. A CPU is an ETE when its TRCDEVARCH says so, an ETMv4 when it has
 * trcidr/trcidr0, else an ETMv3/PTM (mgmt/etmidr). TRCCONFIGR (ETMCR for
 * ETMv3) is derived from @attr->config as perf derives it; trace IDs are
 * the kernel's legacy ones (header version 1). A missing
 * mgmt/trcauthstatus is recorded as 0, as perf does; every other register
 * is required. Errors: HWT_ERR_NOENT (a CPU without a trace unit or
 * register file: the message names it),
 * HWT_ERR_FORMAT, HWT_ERR_CONFIG (an offline CPU, a foreign attr type),
 * HWT_ERR_NOSPC (the words needed are in the message), HWT_ERR_NOMEM,
 * HWT_ERR_INVAL. */
int hwt_cs_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max);

/* TRCCONFIGR as perf records it for ETMv4/ETE, from cs_etm's attr.config. */
uint64_t hwt_cs_trcconfigr_from_config(uint64_t config);

/* CoreSight's aux_head keeps increasing in overwrite mode. The buffer has
 * wrapped once the head passed its size, or (after the count itself
 * wrapped) when its last 512 bytes past the head hold anything; then the
 * snapshot is the whole buffer ending at the head. Otherwise it is the
 * bytes from @prev_head to @head (HWT_ERR_INVAL if @prev_head > @head). */
int hwt_cs_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			 uint64_t prev_head, uint64_t *start, uint64_t *len,
			 bool *wrapped);

#endif
