/* `hwtrace export`: a capture's branches, functions and reconstructed
 * calls in formats other tools read.
 *
 * - SQLite: the database perf's export-to-sqlite.py writes (its tables,
 *   columns and views), so perf's exported-sql-viewer.py and SQL queries
 *   written for perf work on it: one sample per branch (trace begin and
 *   end included), the symbols and binaries they are in, the call path
 *   tree and one row per call from hwtrace's stacks.
 * - pprof: a gzip-compressed profile.proto, one sample per distinct call
 *   stack and thread with the instructions and branches executed in its
 *   leaf (and the time, when the capture has time).
 * - AutoFDO, BOLT: per binary, how often each address range ran and each
 *   taken branch was taken, in the binary's own addresses: the text that
 *   AutoFDO's `create_llvm_prof --profiler text` reads, BOLT's fdata
 *   (function + offset) or BOLT's pre-aggregated `B`/`F` records; one
 *   file per binary (hwt_export_file names them).
 *
 * An export takes the element stream (before the stacks see it) through
 * hwt_export_elements and the frames through hwt_export_ops, the way
 * hwtrace/stack.h's writers do. */
#ifndef HWTRACE_EXPORT_H
#define HWTRACE_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/stack.h"
#include "hwtrace/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_export_format {
	HWT_EXPORT_SQLITE,
	HWT_EXPORT_PPROF,
	HWT_EXPORT_AUTOFDO,
	HWT_EXPORT_BOLT,          /* BOLT's fdata: functions and offsets */
	HWT_EXPORT_BOLT_PREAGG,   /* BOLT's pre-aggregated B/F records */
	/* The SQLite schema in a PostgreSQL database (libpq): tables
	 * filled with binary COPY, then keys, indexes and views. */
	HWT_EXPORT_POSTGRESQL,
};

/* Options. Zero-initialise, then set size. */
struct hwt_export_opts {
	size_t size;                  /* sizeof(struct hwt_export_opts) */
	enum hwt_export_format format;
	/* SQLite: the database file to fill. It must be empty or new (a
	 * file with tables is refused): write to a temporary file and
	 * rename it, so a failed export leaves nothing half-written. */
	const char *db_path;
	/* The name messages give the database (NULL: db_path): the path
	 * the temporary file will be renamed to. */
	const char *db_name;
	/* pprof: where the compressed profile goes (borrowed). */
	FILE *out;
	/* Names addresses (binary, function, source line); may be NULL:
	 * then every function is its address and every binary unknown. */
	struct hwt_symbolizer *sym;
	/* pprof: no pid/tid/comm/cpu labels (samples of threads running the
	 * same stack then merge). */
	bool no_labels;
	/* The event name for selected_events (NULL: "branches"). */
	const char *event;
	/* AutoFDO, BOLT: where the files go, one per binary: in the
	 * directory @out_prefix names when it is one (DIR/BINARY.EXT),
	 * else beside it (PREFIX.BINARY.EXT), BINARY being the binary's
	 * file name (.2, .3, ... after it when two binaries share one).
	 * EXT: afdo.txt, fdata, preagg. Each file is written to a
	 * temporary file and renamed when all are complete. */
	const char *out_prefix;
	/* PostgreSQL: the libpq connection string ("host=... dbname=...").
	 * The export is one transaction: a failed one leaves the database
	 * as it was. */
	const char *conninfo;
	/* PostgreSQL: drop the schema's tables and views when the database
	 * has them (else such a database is refused). */
	bool replace;
	/* SQLite, PostgreSQL: 2 or more stores the rows on a thread of its
	 * own while the calling thread makes them (0 or 1: one thread). */
	unsigned int jobs;
	/* AutoFDO, BOLT: hwt_export_finish writes no files but keeps the
	 * profiles for hwt_partial_from_export (hwtrace/partial.h);
	 * out_prefix is then not used. */
	bool partial;
	/* SQLite: the samples table's columns, as the COLUMNS argument of
	 * perf's export-to-sqlite.py: false "branches" (the layout perf
	 * gives branch traces), true "all" (perf's default): four more
	 * after to_ip, period (a branch record's sample period, the
	 * element's weight; 1 for a branch of a full trace, as perf's
	 * synthesized branch samples have it), weight, transaction_ and
	 * data_src (0: branch records and trace carry none). */
	bool all_columns;
};

/* What an export counted and what it skipped, for the user. */
struct hwt_export_stats {
	uint64_t branches;       /* taken branches written (sqlite samples) */
	uint64_t trace_marks;    /* trace begin / end samples */
	uint64_t calls;          /* call rows (sqlite) */
	uint64_t call_paths;
	uint64_t samples;        /* pprof: distinct stacks */
	uint64_t insns;          /* instructions in the frames exported */
	uint64_t gaps;           /* gap and decode error elements */
	uint64_t gap_bytes;      /* trace bytes they say were lost */
	uint64_t unknown_addrs;  /* sqlite: samples with an end no symbol
				  * names; pprof: such locations */
	uint64_t symbols, dsos, threads;
	/* AutoFDO, BOLT: */
	uint64_t ranges;         /* address ranges executed (a count each) */
	uint64_t ranges_open;    /* of them, ending without a taken branch
				  * (trace off, a gap, the end) */
	uint64_t distinct_ranges, distinct_branches; /* lines written */
	uint64_t outside;        /* ranges and branches in code no binary
				  * file holds (kernel, JIT, not found) */
	uint64_t unnamed;        /* BOLT fdata: branch ends no symbol names
				  * (written as addresses in the binary) */
	uint64_t files;          /* files written */
	/* sqlite, postgresql: */
	uint64_t switches;       /* context_switches rows (sqlite, postgresql) */
};

/* A context switch of the capture (a SWITCH or SWITCH_CPU_WIDE record),
 * as perf's export writes it: the thread switched out and the one
 * switched in, pid/tid -1 for one the capture does not name. */
struct hwt_export_switch {
	uint64_t time;
	int32_t cpu;
	int32_t out_pid, out_tid;
	int32_t in_pid, in_tid;
	int flags;               /* 0 in, 1 out, 3 out preempted */
	/* Each side's name at the switch (its COMM record then), NULL for
	 * the thread's last; copied. */
	const char *out_comm, *in_comm;
};

struct hwt_export;

/* A new export. Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (opts), HWT_ERR_IO
 * (the database cannot be opened or written, the server cannot be
 * reached or refuses the login; the message says why), HWT_ERR_CONFIG
 * (the database already has tables), HWT_ERR_NOSUP (PostgreSQL in a
 * build without libpq). */
HWT_API int hwt_export_new(const struct hwt_export_opts *opts,
			   struct hwt_export **out);

/* For a program that does nothing else with SQLite: turns off SQLite's
 * process-wide memory statistics, which take a lock around every
 * allocation SQLite makes. Call it before any
 * other SQLite use in the process; sqlite3_memory_used() then reads 0.
 * hwtrace's command line does. Errors: HWT_ERR_NOSUP (SQLite is already
 * initialised in this process: nothing changed). */
HWT_API int hwt_export_sqlite_quiet_memory(void);

/* Frees the export (an unfinished database is closed as it is); NULL is
 * a no-op. */
HWT_API void hwt_export_free(struct hwt_export *ex);

/* Names thread @tid of process @pid (the capture's COMM records; the last
 * name wins; NULL only says which process it is in). Errors:
 * HWT_ERR_NOMEM. */
HWT_API int hwt_export_name_thread(struct hwt_export *ex, int32_t pid,
				   int32_t tid, const char *name);

/* The build id (hex) of the binary recorded as @path (the capture's
 * build-id table), for dsos.build_id and the pprof mapping. Errors:
 * HWT_ERR_NOMEM. */
HWT_API int hwt_export_set_build_id(struct hwt_export *ex, const char *path,
				    const char *hex);

/* Adds a context switch (sqlite, postgresql; other formats ignore it).
 * Errors: those of the database's writes, HWT_ERR_NOMEM. */
HWT_API int hwt_export_context_switch(struct hwt_export *ex,
				      const struct hwt_export_switch *sw);

struct hwt_capture;

/* What capture @cap's facts name, into the export: its threads and their
 * names over time (hwt_export_name_thread), its binaries' build ids
 * (hwt_export_set_build_id) and its context switches
 * (hwt_export_context_switch). Errors: those of the three. */
HWT_API int hwt_export_capture_facts(struct hwt_export *ex,
				     const struct hwt_capture *cap);

/* Only the build ids of @cap's binaries: for the later captures of an
 * export of several (AutoFDO, BOLT), whose counts are placed by binary.
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_export_capture_build_ids(struct hwt_export *ex,
					 const struct hwt_capture *cap);

/* Capture file @path's facts into the export, as `hwtrace export` gives
 * those of each of its captures: all of them (hwt_export_capture_facts)
 * for the first (@later false) and for every capture of a pprof export
 * (its samples are labelled with thread names) or a SQLite one (it names
 * its threads); for the later captures of the other formats only the
 * build ids (hwt_export_capture_build_ids: autofdo and bolt place their
 * counts by binary). The file is opened for the facts and closed again.
 * Errors: those of hwt_capture_open (naming @path) and of the two. */
HWT_API int hwt_export_capture_file(struct hwt_export *ex, const char *path,
				    bool later);

/* The sink for the element stream, before the stacks see each element. */
HWT_API struct hwt_elem_sink hwt_export_elements(struct hwt_export *ex);

/* The stack ops for the frames; valid while @ex is. */
HWT_API struct hwt_stack_ops hwt_export_ops(struct hwt_export *ex);

/* Writes what is left (pprof: the whole profile, with a time/nanoseconds
 * sample type when @has_time, the capture's elements having carried
 * times; SQLite: indexes, and commits). Errors: HWT_ERR_IO,
 * HWT_ERR_NOSPC, HWT_ERR_NOMEM. */
HWT_API int hwt_export_finish(struct hwt_export *ex, bool has_time);

/* AutoFDO, BOLT: several captures in one export. Ends the capture whose
 * elements came so far: its counts are placed in their binaries now,
 * while the symbolizer that names its addresses still lives; then give
 * the next capture's with hwt_export_set_symbolizer. Errors:
 * HWT_ERR_NOSUP (another format: one capture an export), HWT_ERR_NOMEM,
 * the symbolizer's. */
HWT_API int hwt_export_end_capture(struct hwt_export *ex);

/* The symbolizer of the captures that follow (opts.sym's successor). */
HWT_API void hwt_export_set_symbolizer(struct hwt_export *ex,
				       struct hwt_symbolizer *sym);

/* AutoFDO, BOLT: the path of the @i-th file written (after
 * hwt_export_finish) and the binary whose profile it holds; NULL past
 * the last one. */
HWT_API const char *hwt_export_file(const struct hwt_export *ex, size_t i,
				    const char **binary);

/* What the export has written and skipped so far. */
HWT_API void hwt_export_get_stats(const struct hwt_export *ex,
				  struct hwt_export_stats *stats);

/* The format named @name ("sqlite", "pprof", "autofdo", "bolt",
 * "bolt-preagg", "postgresql") into *@out. Returns 0, or HWT_ERR_INVAL
 * (no message) for another name. */
HWT_API int hwt_export_format_parse(const char *name,
				    enum hwt_export_format *out);

/* @format's name, as hwt_export_format_parse reads it. */
HWT_API const char *hwt_export_format_name(enum hwt_export_format format);

/* Whether @format writes one file per binary (autofdo, bolt,
 * bolt-preagg: opts.out_prefix names them). */
HWT_API bool hwt_export_format_per_binary(enum hwt_export_format format);

/* Writes what the finished export wrote and skipped (hwt_export_get_stats,
 * and the files of the per-binary formats), in the lines `hwtrace export`
 * prints, each starting with @prefix (""; "hwtrace export: ").
 * Errors: HWT_ERR_IO. */
HWT_API int hwt_export_write_summary(const struct hwt_export *ex, FILE *out,
				     const char *prefix);

#ifdef __cplusplus
}
#endif

#endif
