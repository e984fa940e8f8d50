/* Test helper: writes a perf.data of per-CPU Intel PT trace on cpu 0 the
 * way perf record lays one out: an intel_pt attribute (id 1) and a dummy
 * sideband one (id 2, context_switch), the cpuid feature, TIME_CONV and
 * AUXTRACE_INFO in perf's intel_pt layout with perf time == TSC, CPU-wide
 * switch records (have_sched_switch 3) and per-CPU buffers. Sideband
 * records carry the sample_id TID, TIME, CPU (0), IDENTIFIER (2). */
#ifndef HWT_TESTS_UNIT_PT_PERCPU_CAPTURE_H
#define HWT_TESTS_UNIT_PT_PERCPU_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "hwtrace/perfdata.h"

static inline void pt_percpu_header(uint8_t *rec, uint32_t type, uint16_t misc,
				    size_t size)
{
	struct perf_event_header h = {type, misc, (uint16_t)size};
	memcpy(rec, &h, sizeof(h));
}

/* Opens @path for writing and writes the attributes, features, TIME_CONV
 * and AUXTRACE_INFO; @user_only: the trace leaves out the kernel. */
static inline int pt_percpu_open(const char *path, bool user_only,
				 struct hwt_pd_writer **out)
{
	struct hwt_pd_writer *w;
	int err = hwt_pd_writer_open(path, &w);
	if (err)
		return err;
	*out = w;
	const uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			    PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr pt = {
		.type = 8, .size = sizeof(pt), .config = 0x400 /* tsc */,
		.sample_type = st | PERF_SAMPLE_IP, .sample_id_all = 1,
		.exclude_kernel = user_only, .disabled = 1,
	};
	struct perf_event_attr dummy = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(dummy),
		.config = PERF_COUNT_SW_DUMMY, .sample_type = st,
		.sample_id_all = 1, .mmap = 1, .mmap2 = 1, .comm = 1, .task = 1,
		.context_switch = 1,
	};
	uint64_t id1 = 1, id2 = 2;
	err = hwt_pd_writer_add_attr(w, &pt, &id1, 1,
				     user_only ? "intel_pt//u" : "intel_pt//");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id2, 1, "dummy");
	if (!err)
		err = hwt_pd_writer_set_nr_cpus(w, 1, 1);
	if (!err)
		err = hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CPUID,
						"GenuineIntel,6,142,10",
						sizeof("GenuineIntel,6,142,10"));
	uint8_t rec[256];
	/* TIME_CONV: perf time = TSC. */
	uint64_t conv[3] = {0, 1, 0};
	memset(rec, 0, sizeof(rec));
	pt_percpu_header(rec, HWT_PD_RECORD_TIME_CONV, 0, 8 + sizeof(conv));
	memcpy(rec + 8, conv, sizeof(conv));
	if (!err)
		err = hwt_pd_writer_record(w, rec);
	/* intel_pt_info_fill's words: time shift 0, mult 1, zero 0 with
	 * cap_user_time_zero, so perf time == TSC; cpu-wide switch records
	 * (have_sched_switch 3) and per-CPU mmaps. */
	uint64_t priv[17] = {8, 0, 1, 0, 1, 0x400, 0x800, 3, 0, 1,
			     0x200, 0x3c000, 0, 0, 0x2, 0, 0};
	uint32_t type_res[2] = {1, 0};
	memset(rec, 0, sizeof(rec));
	pt_percpu_header(rec, HWT_PD_RECORD_AUXTRACE_INFO, 0, 16 + sizeof(priv));
	memcpy(rec + 8, type_res, 8);
	memcpy(rec + 16, priv, sizeof(priv));
	if (!err)
		err = hwt_pd_writer_record(w, rec);
	return err;
}

/* A sideband record of @type with @body (@len bytes, padded to 8) and the
 * sample_id of thread @tid of @pid at @time on cpu 0. */
static inline int pt_percpu_record(struct hwt_pd_writer *w, uint32_t type,
				   uint16_t misc, const void *body, size_t len,
				   uint32_t pid, uint32_t tid, uint64_t time)
{
	uint8_t rec[512];
	if (len > sizeof(rec) - 8 - 32 - 8)
		return -1;
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 8, body, len);
	size_t n = 8 + ((len + 7) & ~(size_t)7);
	uint32_t pt[2] = {pid, tid}, cpu[2] = {0, 0};
	uint64_t id = 2;
	memcpy(rec + n, pt, 8);
	memcpy(rec + n + 8, &time, 8);
	memcpy(rec + n + 16, cpu, 8);
	memcpy(rec + n + 24, &id, 8);
	pt_percpu_header(rec, type, misc, n + 32);
	return hwt_pd_writer_record(w, rec);
}

/* An executable MMAP2 of @file at @addr (@len bytes) in process @pid. */
static inline int pt_percpu_mmap2(struct hwt_pd_writer *w, uint32_t pid,
				  uint64_t addr, uint64_t len, const char *file)
{
	uint8_t body[400];
	size_t fn = strlen(file) + 1;
	if (fn > sizeof(body) - 64)
		return -1;
	memset(body, 0, sizeof(body));
	uint32_t pt[2] = {pid, pid};
	uint64_t mm[3] = {addr, len, 0};
	uint32_t prot_flags[2] = {PROT_READ | PROT_EXEC, MAP_PRIVATE};
	memcpy(body, pt, 8);
	memcpy(body + 8, mm, 24);
	memcpy(body + 56, prot_flags, 8);
	memcpy(body + 64, file, fn);
	return pt_percpu_record(w, PERF_RECORD_MMAP2, 0, body, 64 + fn, pid, pid, 1);
}

#endif
