/* What a perf.data file's records say, counted in one pass: the numbers
 * and lists of a summary such as `hwtrace info` prints. Unlike
 * hwt_capture (hwtrace/capture.h), which opens captures it can decode,
 * this reads any perf.data file: one with no trace at all, or one damaged
 * part way (then up to the damage). */
#ifndef HWTRACE_PD_SUMMARY_H
#define HWTRACE_PD_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The AUXTRACE buffers of one CPU (-1: per-thread buffers). */
struct hwt_pd_summary_cpu {
	int32_t cpu;
	uint64_t bytes, buffers;
};

/* A thread a record names (COMM, FORK, or a kernel record's sample_id),
 * with its last COMM's name ("" when none), cut to 31 bytes. */
struct hwt_pd_summary_thread {
	int32_t pid, tid;
	char comm[32];
};

/* A file some MMAP or MMAP2 record maps, with how many map it, and the
 * pid of the first. */
struct hwt_pd_summary_binary {
	const char *path;
	uint64_t maps;
	int32_t pid;
};

struct hwt_pd_summary {
	uint64_t records;               /* of every type */
	uint64_t samples;               /* PERF_RECORD_SAMPLE */
	bool have_auxtrace_info;
	uint32_t auxtrace_type;         /* of the last AUXTRACE_INFO */
	bool have_time;                 /* some record has a non-zero time */
	uint64_t first_time, last_time;
	uint64_t lost_records;          /* PERF_RECORD_LOST records */
	uint64_t lost_events;           /* the events they say were lost */
	uint64_t lost_samples;          /* PERF_RECORD_LOST_SAMPLES' count */
	uint64_t aux_records, aux_bytes; /* PERF_RECORD_AUX and its sizes */
	uint64_t aux_truncated, aux_collisions, aux_partial; /* their flags */
	uint64_t auxtrace_errors;       /* PERF_RECORD_AUXTRACE_ERROR */
	uint64_t auxtrace_bytes, auxtrace_buffers; /* PERF_RECORD_AUXTRACE */
	/* By CPU, increasing. */
	const struct hwt_pd_summary_cpu *cpus;
	size_t ncpus;
	/* In the order first named; a (pid, tid) pair once. */
	const struct hwt_pd_summary_thread *threads;
	size_t nthreads;
	/* The distinct COMM names, in the order first seen (names are cut
	 * to 4095 bytes, as paths are). */
	const char *const *commands;
	size_t ncommands;
	/* The distinct mapped paths, in the order first seen. */
	const struct hwt_pd_summary_binary *binaries;
	size_t nbinaries;
};

/* Reads the records of @reader from where its stream stands to the end
 * (AUXTRACE payloads are skipped, not read) and counts them into *@out
 * (free it with hwt_pd_summary_free). Returns 0, or the reader's error at
 * a damaged record with *@out the summary of the records before it, or
 * HWT_ERR_NOMEM with *@out NULL. */
HWT_API int hwt_pd_summarize(struct hwt_pd_reader *reader,
			     struct hwt_pd_summary **out);

/* NULL is a no-op. */
HWT_API void hwt_pd_summary_free(struct hwt_pd_summary *summary);

struct hwt_sym_dso_info; /* hwtrace/symbols.h */

struct hwt_pd_summary_print_opts {
	size_t size; /* sizeof(struct hwt_pd_summary_print_opts) */
	/* A folder with a copy of the traced system's files: a binary
	 * missing here but present under it is not missing (NULL: none). */
	const char *symfs;
	/* Where a binary's "symbols:" and "debug info:" lines come from:
	 * hwt_symbolizer_dso_info (hwtrace/symbols.h) with @dso_arg the
	 * symbolizer, wrapped by the caller. Returns 0 and fills @info, or
	 * a negative error for no such lines. NULL: none for any binary. */
	int (*dso_info)(void *dso_arg, const char *path,
			struct hwt_sym_dso_info *info);
	void *dso_arg;
};

/* The text of `hwtrace info` for the summary @s of the file @r reads:
 * "key:  value" lines (the file and host, a flight recorder window's
 * trigger, the backend and decoders, the events, the counts, per-CPU
 * trace, time span, losses, threads, commands), then each mapped binary
 * with whether it is on this machine, and how many are missing. Names
 * from the capture are escaped for a terminal. @o may be NULL (no symfs,
 * no symbol lines). Returns 0, or HWT_ERR_IO when writing fails,
 * HWT_ERR_INVAL for a bad @o->size. */
HWT_API int hwt_pd_summary_print(FILE *out, const struct hwt_pd_reader *r,
				 const struct hwt_pd_summary *s,
				 const struct hwt_pd_summary_print_opts *o);

#ifdef __cplusplus
}
#endif

#endif
