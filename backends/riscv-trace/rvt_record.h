/* Recording through the rvtrace PMU of the Linux RISC-V trace framework
 * (patch series v4, 2026-04, not merged): the AUXTRACE_INFO hwtrace
 * writes and reads (docs/riscv.md, "Recording: the rvtrace PMU"). */
#ifndef HWT_RVT_RECORD_H
#define HWT_RVT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "backends/riscv-trace/rvt_options.h"
#include "hwtrace/backend.h"

/* priv[0], as the series' perf tool writes it (RVTRACE_AUXTRACE_PRIV_SIZE
 * is one u64): the PMU's type. */
#define RVT_INFO_PMU_TYPE 0
/* hwtrace's words after it, since the series' layout does not say how the
 * encoder was set up: a version word, then the decoder's options. */
#define RVT_INFO_VERSION 1
#define RVT_INFO_XLEN 2
#define RVT_INFO_CALLSTACK 3
#define RVT_INFO_SRC_BITS 4
#define RVT_INFO_TS 5
#define RVT_INFO_EXTADDR 6
#define RVT_INFO_WORDS 7
/* "HWRV" and the layout's version (1: the words above). */
#define RVT_INFO_MAGIC 0x48575256u
#define RVT_INFO_V1 ((uint64_t)RVT_INFO_MAGIC << 32 | 1u)

extern const struct hwt_record_ops rvt_record_ops;

/* The encoder settings in an AUXTRACE_INFO @priv of @n words: hwtrace's
 * version 1 words, or the defaults for the series' one-word layout.
 * Errors (HWT_ERR_FORMAT) name the word that is wrong. */
int rvt_info_opts(const uint64_t *priv, size_t n, struct rvt_opts *o);

#endif
