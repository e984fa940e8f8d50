/* Test helper: writes a perf.data around a raw Intel PT stream the way
 * `perf record -e intel_pt//u` lays one out for a single thread: an
 * intel_pt and a dummy sideband attribute, AUXTRACE_INFO in perf's
 * intel_pt layout, COMM, one MMAP2 of the code, and the AUXTRACE buffer
 * (or several: piece_size). */
#ifndef HWT_TESTS_UNIT_TEST_PT_CAPTURE_H
#define HWT_TESTS_UNIT_TEST_PT_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#include "dummy_attr.h"
#include "pt_psb_find.h"

#define PT_CAPTURE_PMU_TYPE 8 /* any number: perf matches it to priv[0] */
#define PT_CAPTURE_PID 4242

struct pt_capture {
	const char *code_path;    /* the MMAP2 filename */
	uint64_t code_addr, code_size;
	const uint8_t *build_id;  /* in MMAP2 itself when set */
	size_t build_id_size;
	const uint8_t *header_build_id; /* in the build id feature when set */
	const uint8_t *trace;
	size_t trace_size;
	/* Non-zero: @trace goes in AUXTRACE buffers of the thread, each cut
	 * at the first PSB at least @piece_size bytes after its start, as
	 * many pieces of a long recording. */
	size_t piece_size;
	/* Records written before the AUXTRACE one (headers included). */
	const void *const *extra;
	size_t nextra;
	/* Instead of @trace: AUXTRACE buffers of per-CPU streams, in this
	 * order (AUXTRACE_INFO then says per-CPU mmaps). */
	const struct pt_capture_buffer *buffers;
	size_t nbuffers;
	/* The intel_pt event's config (its TSC and no-return-compression
	 * bits, as the AUXTRACE_INFO numbers them); 0: none set. */
	uint64_t aux_config;
};

struct pt_capture_buffer {
	uint32_t cpu;
	uint64_t offset;          /* in the CPU's AUX stream */
	const uint8_t *data;
	size_t size;
};

static inline size_t pt_capture_sample_id(uint8_t *p, uint64_t time, uint64_t id)
{
	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID}, cpu[2] = {0, 0};
	memcpy(p, pidtid, 8);
	memcpy(p + 8, &time, 8);
	memcpy(p + 16, cpu, 8);
	memcpy(p + 24, &id, 8);
	return 32;
}

static inline void pt_capture_header(uint8_t *rec, uint32_t type, uint16_t misc,
				     size_t size)
{
	struct perf_event_header h = {type, misc, (uint16_t)size};
	memcpy(rec, &h, sizeof(h));
}

/* Writes AUXTRACE_INFO in perf's intel_pt priv[] layout
 * (intel_pt_info_fill: pmu type, time shift/mult/zero, cap_user_time_zero,
 * tsc bit, noretcomp bit, have_sched_switch, snapshot, per-cpu mmaps, mtc
 * bit, mtc freq bits, tsc:ctc n/d, cyc bit, max non-turbo ratio, filter
 * length), then the COMM of PT_CAPTURE_PID with the sample_id of the
 * dummy event @id_dummy. */
static inline int pt_capture_info_comm(struct hwt_pd_writer *w,
				       uint64_t id_dummy, bool per_cpu)
{
	uint8_t rec[256];
	uint64_t priv[17] = {PT_CAPTURE_PMU_TYPE, 0, 1, 0, 0, 0x400, 0x800, 0, 0,
			     per_cpu, 0x200, 0x3c000, 0, 0, 0x2, 0, 0};
	uint32_t type_res[2] = {1 /* PERF_AUXTRACE_INTEL_PT */, 0};
	memset(rec, 0, sizeof(rec));
	pt_capture_header(rec, HWT_PD_RECORD_AUXTRACE_INFO, 0, 16 + sizeof(priv));
	memcpy(rec + 8, type_res, 8);
	memcpy(rec + 16, priv, sizeof(priv));
	int err = hwt_pd_writer_record(w, rec);

	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 8, pidtid, 8);
	memcpy(rec + 16, "ptt", 4);
	size_t n = 24;
	n += pt_capture_sample_id(rec + n, 1, id_dummy);
	pt_capture_header(rec, PERF_RECORD_COMM, 0, n);
	if (!err)
		err = hwt_pd_writer_record(w, rec);
	return err;
}

/* An MMAP2 record of @size bytes of @path at @addr for PT_CAPTURE_PID
 * (the kernel's: no process), with @build_id in it when set, into @rec
 * (at least 512 bytes). */
static inline void pt_capture_mmap2(uint8_t *rec, const char *path,
				    uint64_t addr, uint64_t size,
				    const uint8_t *build_id,
				    size_t build_id_size, uint64_t id_dummy)
{
	memset(rec, 0, 512);
	/* The kernel's mapping belongs to no process (pid -1), as perf
	 * writes it. */
	uint32_t map_pid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	if (!strncmp(path, "[kernel", 7))
		map_pid[0] = map_pid[1] = UINT32_MAX;
	memcpy(rec + 8, map_pid, 8);
	uint64_t mm[3] = {addr, size, 0};
	memcpy(rec + 16, mm, sizeof(mm));
	uint16_t misc = 0;
	if (build_id) {
		/* PERF_RECORD_MISC_MMAP_BUILD_ID: size, 3 reserved, 20 bytes */
		misc = 1u << 14;
		rec[40] = (uint8_t)build_id_size;
		memcpy(rec + 44, build_id, build_id_size);
	}
	uint32_t prot_flags[2] = {PROT_READ | PROT_EXEC, MAP_PRIVATE};
	memcpy(rec + 64, prot_flags, 8);
	size_t fn = strlen(path) + 1;
	memcpy(rec + 72, path, fn);
	size_t n = 72 + ((fn + 7) & ~(size_t)7);
	n += pt_capture_sample_id(rec + n, 2, id_dummy);
	pt_capture_header(rec, PERF_RECORD_MMAP2, misc, n);
}

/* @c's trace as AUXTRACE buffers of its thread (c->piece_size). */
static inline int pt_capture_pieces(struct hwt_pd_writer *w,
				    const struct pt_capture *c)
{
	size_t at = 0;
	int err = 0;
	for (uint64_t ref = 0; at < c->trace_size && !err; ref++) {
		size_t end = pt_psb_find(c->trace, at + c->piece_size,
					 c->trace_size);
		struct hwt_pd_auxtrace aux = {
			.size = end - at, .offset = at, .reference = ref,
			.tid = PT_CAPTURE_PID, .cpu = UINT32_MAX};
		err = hwt_pd_writer_auxtrace(w, &aux, c->trace + at);
		at = end;
	}
	return err;
}

static inline int pt_capture_write(const char *path, const struct pt_capture *c)
{
	struct hwt_pd_writer *w;
	int err = hwt_pd_writer_open(path, &w);
	if (err)
		return err;

	const uint64_t sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr pt = {
		.type = PT_CAPTURE_PMU_TYPE,
		.size = sizeof(pt),
		.config = c->aux_config,
		/* perf script needs the IP to print branches. */
		.sample_type = sample_type | PERF_SAMPLE_IP,
		.sample_id_all = 1,
		.exclude_kernel = 1,
		.disabled = 1,
	};
	struct perf_event_attr dummy = hwt_test_dummy_attr(sample_type);

	dummy.exclude_kernel = 1;
	uint64_t id_pt = 1, id_dummy = 2;
	err = hwt_pd_writer_add_attr(w, &pt, &id_pt, 1, "intel_pt//u");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id_dummy, 1, "dummy:u");
	if (!err && c->header_build_id)
		err = hwt_pd_writer_add_build_id(w, -1, 2 /* MISC_USER */,
						 c->header_build_id, 20,
						 c->code_path);

	uint8_t rec[1024];
	if (!err)
		err = pt_capture_info_comm(w, id_dummy, c->nbuffers > 0);
	pt_capture_mmap2(rec, c->code_path, c->code_addr, c->code_size,
			 c->build_id, c->build_id_size, id_dummy);
	if (!err)
		err = hwt_pd_writer_record(w, rec);

	for (size_t i = 0; i < c->nextra && !err; i++)
		err = hwt_pd_writer_record(w, c->extra[i]);

	struct hwt_pd_auxtrace aux = {
		.size = c->trace_size,
		.tid = PT_CAPTURE_PID,
		.cpu = UINT32_MAX, /* per-thread */
	};
	if (!err && !c->nbuffers && c->piece_size)
		err = pt_capture_pieces(w, c);
	else if (!err && !c->nbuffers)
		err = hwt_pd_writer_auxtrace(w, &aux, c->trace);
	for (size_t i = 0; i < c->nbuffers && !err; i++) {
		const struct pt_capture_buffer *b = &c->buffers[i];
		aux = (struct hwt_pd_auxtrace){.size = b->size,
			.offset = b->offset, .reference = i, .idx = b->cpu,
			.tid = UINT32_MAX, .cpu = b->cpu};
		err = hwt_pd_writer_auxtrace(w, &aux, b->data);
	}
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

#endif
