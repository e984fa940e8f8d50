/* Recording through the rvtrace PMU of the Linux RISC-V trace framework
 * (patch series v4, 2026-04, not merged): the AUXTRACE_INFO hwtrace
 * writes and reads (docs/riscv.md, "Recording: the rvtrace PMU"). */
#ifndef HWT_RVT_RECORD_H
#define HWT_RVT_RECORD_H

#include <stdbool.h>
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

/* The options a decoder of @p decodes with: a capture's from its
 * AUXTRACE_INFO, a raw stream's from --raw. */
int rvt_params_opts(const struct hwt_decode_params *p, struct rvt_opts *o);

/* Whether the @n bytes left at the end of a capture's stream, ending at
 * stream offset @end, are perf's padding of an AUXTRACE record: fewer
 * than 8 zero bytes up to a multiple of 8. No message ends in a zero
 * byte (its last byte has MSEO 11). */
bool rvt_perf_padding(const uint8_t *p, size_t n, uint64_t end);

#endif
