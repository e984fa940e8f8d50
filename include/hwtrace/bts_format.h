/* Backend-author header (see docs/architecture.md).
 * The Intel BTS record and AUXTRACE_INFO layouts, as the kernel's intel_bts
 * driver writes the first and Linux perf's intel_bts_info_fill the second. */
#ifndef HWTRACE_BTS_FORMAT_H
#define HWTRACE_BTS_FORMAT_H

#include "hwtrace/common.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One branch record: three little-endian u64 {from, to, flags}. A record
 * with from == 0 starts tracing at `to`; one with to == 0 ends it after
 * `from` (perf's TRACE_BEGIN / TRACE_END); all-zero records are padding. */
#define HWT_BTS_RECORD_SIZE 24
/* flags bit 4: the branch was predicted (perf prints "pred" / "miss"). */
#define HWT_BTS_FLAG_PREDICTED 0x10u
/* The PMU type sw_branch writes into AUXTRACE_INFO (priv[0]). Its records
 * come from stepping, not a branch predictor, so their flags say nothing
 * about prediction: instead they hold the tracer's clock (CLOCK_MONOTONIC,
 * ns) at the branch in bits 63:8, its low 56 bits, with bit 0 set to say
 * so. Hardware BTS leaves those bits 0, and perf reads only bit 4. */
#define HWT_BTS_SW_BRANCH_PMU_TYPE 0x5357u
#define HWT_BTS_FLAG_SWB_TIME 0x1u
#define HWT_BTS_SWB_TIME_SHIFT 8

struct hwt_bts_record {
	uint64_t from, to, flags;
};

/* AUXTRACE_INFO priv[] word indices. */
enum {
	HWT_BTS_INFO_PMU_TYPE,
	HWT_BTS_INFO_TIME_SHIFT,
	HWT_BTS_INFO_TIME_MULT,
	HWT_BTS_INFO_TIME_ZERO,
	HWT_BTS_INFO_CAP_USER_TIME_ZERO,
	HWT_BTS_INFO_SNAPSHOT_MODE,
	HWT_BTS_INFO_WORDS,
};

static inline uint64_t hwt_bts_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline void hwt_bts_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static inline void hwt_bts_record_read(const uint8_t *p,
				       struct hwt_bts_record *rec)
{
	rec->from = hwt_bts_le64(p);
	rec->to = hwt_bts_le64(p + 8);
	rec->flags = hwt_bts_le64(p + 16);
}

static inline void hwt_bts_record_write(uint8_t *p,
					const struct hwt_bts_record *rec)
{
	hwt_bts_put_le64(p, rec->from);
	hwt_bts_put_le64(p + 8, rec->to);
	hwt_bts_put_le64(p + 16, rec->flags);
}

#ifdef __cplusplus
}
#endif

#endif
