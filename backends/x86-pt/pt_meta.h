/* The intel_pt record-side metadata: the PERF_RECORD_AUXTRACE_INFO priv[]
 * words in the layout of Linux perf's intel_pt_info_fill (tools/perf/util/
 * intel-pt.h), and where a snapshot starts in an overwrite-mode buffer. */
#ifndef HWT_BACKENDS_X86_PT_META_H
#define HWT_BACKENDS_X86_PT_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"

/* priv[] word indexes. The filter string (NUL-padded to 8 bytes, absent
 * when its length is 0) follows FILTER_STR_LEN, then one word with
 * caps/event_trace (perf 5.18 on). */
enum {
	HWT_PT_PRIV_PMU_TYPE,
	HWT_PT_PRIV_TIME_SHIFT,
	HWT_PT_PRIV_TIME_MULT,
	HWT_PT_PRIV_TIME_ZERO,
	HWT_PT_PRIV_CAP_USER_TIME_ZERO,
	HWT_PT_PRIV_TSC_BIT,
	HWT_PT_PRIV_NORETCOMP_BIT,
	HWT_PT_PRIV_HAVE_SCHED_SWITCH,
	HWT_PT_PRIV_SNAPSHOT_MODE,
	HWT_PT_PRIV_PER_CPU_MMAPS,
	HWT_PT_PRIV_MTC_BIT,
	HWT_PT_PRIV_MTC_FREQ_BITS,
	HWT_PT_PRIV_TSC_CTC_N,
	HWT_PT_PRIV_TSC_CTC_D,
	HWT_PT_PRIV_CYC_BIT,
	HWT_PT_PRIV_MAX_NONTURBO_RATIO,
	HWT_PT_PRIV_FILTER_STR_LEN,
	HWT_PT_PRIV_FIXED_WORDS, /* perf's INTEL_PT_AUXTRACE_PRIV_MAX */
};

/* Everything the priv words are made of, already gathered. */
struct hwt_pt_info_in {
	uint32_t pmu_type;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	bool cap_user_time_zero;
	uint64_t tsc_bit;       /* attr.config value of the term tsc=1 */
	uint64_t noretcomp_bit;
	uint64_t mtc_bit;
	uint64_t mtc_freq_bits; /* every bit of the mtc_period field */
	uint64_t cyc_bit;
	int have_sched_switch;
	bool snapshot;
	bool per_cpu_mmaps;
	uint32_t tsc_ctc_n;
	uint32_t tsc_ctc_d;
	uint64_t max_nonturbo_ratio;
	const char *filter;     /* NULL or "" for none; borrowed */
	bool cap_event_trace;
};

/* Number of priv words for @filter (NULL for none). */
size_t hwt_pt_info_words(const char *filter);

/* Writes the priv words of @in. Returns their number, or HWT_ERR_NOSPC
 * when @max is too small. */
int hwt_pt_info_fill(const struct hwt_pt_info_in *in, uint64_t *priv,
		     size_t max);

/* The record ops. @pmu may be NULL: the values are then read from
 * bus/event_source/devices/intel_pt through @os. */
int hwt_pt_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max);

/* CPUID leaf 0x15 of this CPU: TSC/crystal ratio numerator (EBX) and
 * denominator (EAX); both 0 where the leaf does not exist (as perf
 * records it then). */
void hwt_pt_cpuid_tsc_ctc(uint32_t *n, uint32_t *d);

/* intel_pt's aux_head in overwrite mode is an offset inside the buffer.
 * As perf does, the buffer counts as wrapped once anything is written in
 * its last 4 KiB (a fresh mapping is zeroed); then the snapshot is the
 * whole buffer, oldest byte at the head. Otherwise it is the bytes from
 * @prev_head to @head. */
int hwt_pt_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			 uint64_t prev_head, uint64_t *start, uint64_t *len,
			 bool *wrapped);

#endif
