/* Typed views of perf.data record bodies: the fields of the kernel's
 * records (include/uapi/linux/perf_event.h) as structs, from one parser
 * that checks every field against the record's size. Strings point into
 * the record and are bounded by it (a name without its NUL ends at the
 * record's end). A view lives as long as the record it was made from. */
#ifndef HWTRACE_RECORDS_H
#define HWTRACE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A string field: @len bytes up to its NUL or the record's end. */
struct hwt_rec_str {
	const char *s;
	size_t len;
};

/* PERF_RECORD_MMAP. */
struct hwt_rec_mmap {
	int32_t pid, tid;
	uint64_t addr, len, pgoff;
	struct hwt_rec_str filename;
};

/* PERF_RECORD_MMAP2: with PERF_RECORD_MISC_MMAP_BUILD_ID in the misc
 * bits, a build id (@build_id_size bytes, at most 20) instead of the
 * device and inode. */
struct hwt_rec_mmap2 {
	int32_t pid, tid;
	uint64_t addr, len, pgoff;
	bool has_build_id;
	uint8_t build_id_size;
	const uint8_t *build_id;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	struct hwt_rec_str filename;
};

/* PERF_RECORD_COMM (exec: PERF_RECORD_MISC_COMM_EXEC). */
struct hwt_rec_comm {
	int32_t pid, tid;
	bool exec;
	struct hwt_rec_str comm;
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT. */
struct hwt_rec_fork {
	int32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/* PERF_RECORD_LOST (@id, @lost) and PERF_RECORD_LOST_SAMPLES (@lost). */
struct hwt_rec_lost {
	uint64_t id, lost;
};

/* PERF_RECORD_AUX. */
struct hwt_rec_aux {
	uint64_t aux_offset, aux_size, flags; /* PERF_AUX_FLAG_* */
};

/* PERF_RECORD_ITRACE_START. */
struct hwt_rec_itrace_start {
	int32_t pid, tid;
};

/* PERF_RECORD_SWITCH and PERF_RECORD_SWITCH_CPU_WIDE: the task of the
 * record's sample_id switched out (@out; @preempt when it was still
 * runnable) or in; CPU-wide: the task it switched to or from (-1 in
 * both for PERF_RECORD_SWITCH). */
struct hwt_rec_switch {
	bool out, preempt, cpu_wide;
	int32_t next_prev_pid, next_prev_tid;
};

/* PERF_RECORD_AUX_OUTPUT_HW_ID (CoreSight's trace ID of the CPU). */
struct hwt_rec_hw_id {
	uint64_t hw_id;
};

/* PERF_RECORD_AUXTRACE_ERROR (perf's, type 72): @ip 0 when the record
 * stops before it; @has_msg when it has a message. As perf reads it, a
 * record of @fmt 0 has no time and its message where the time is. */
struct hwt_rec_auxtrace_error {
	uint32_t type, code;
	int32_t cpu, pid, tid;
	uint32_t fmt;
	uint64_t ip;
	uint64_t time;                 /* 0 for fmt 0 */
	bool has_msg;
	struct hwt_rec_str msg;
};

/* PERF_RECORD_AUXTRACE_INFO (perf's, type 70): the PMU's kind
 * (PERF_AUXTRACE_*) and @npriv u64 words of its metadata (not aligned:
 * read them with memcpy). */
struct hwt_rec_auxtrace_info {
	uint32_t type;
	const uint8_t *priv;
	size_t npriv;
};

/* PERF_RECORD_TIME_CONV (perf's, type 79): the user page's conversion of
 * the trace clock to perf time; @extended when the record has perf
 * 5.12's cycles, mask and capability bytes too (56 bytes). */
struct hwt_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	bool extended;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

/* PERF_RECORD_HEADER_FEATURE (perf's, type 80, pipe mode): the feature
 * (HEADER_* bit number) the record carries. */
struct hwt_rec_header_feature {
	uint64_t feat_id;
};

/* One record's body, by its type. */
struct hwt_rec {
	uint32_t type;
	union {
		struct hwt_rec_mmap mmap;
		struct hwt_rec_mmap2 mmap2;
		struct hwt_rec_comm comm;
		struct hwt_rec_fork fork;          /* FORK, EXIT */
		struct hwt_rec_lost lost;          /* LOST, LOST_SAMPLES */
		struct hwt_rec_aux aux;
		struct hwt_rec_itrace_start itrace_start;
		struct hwt_rec_switch sw;          /* SWITCH, SWITCH_CPU_WIDE */
		struct hwt_rec_hw_id hw_id;
		struct hwt_rec_auxtrace_error auxtrace_error;
		struct hwt_rec_auxtrace_info auxtrace_info;
		struct hwt_rec_time_conv time_conv;
		struct hwt_rec_header_feature header_feature;
	} u;
};

/* Fills @out with the body of @rec: 1 when its type has a view and the
 * record holds all of it, 0 when the type has none (or @rec is shorter
 * than its fixed fields: nothing of it is read). */
HWT_API int hwt_rec_parse(const struct hwt_pd_record *rec, struct hwt_rec *out);

/* The leading fields of a PERF_RECORD_SAMPLE (those its event's
 * @sample_type puts before PERF_SAMPLE_READ, in the kernel's order), as
 * far as the record holds them; a field it does not hold is 0. */
struct hwt_rec_sample_head {
	uint64_t present;          /* the PERF_SAMPLE_* bits read */
	uint64_t id;               /* PERF_SAMPLE_IDENTIFIER or _ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, addr, stream_id;
	uint32_t cpu;
	uint64_t period;
};

/* Fills @out from the sample @rec of an event with @sample_type; 1 when
 * @rec is a PERF_RECORD_SAMPLE (whole or cut short), else 0. For every
 * field of a sample use hwt_aux_sample_parse (hwtrace/sample.h). */
HWT_API int hwt_rec_sample_head(const struct hwt_pd_record *rec,
				uint64_t sample_type,
				struct hwt_rec_sample_head *out);

#ifdef __cplusplus
}
#endif

#endif
