/* A capture opened once, its facts, and cursors that pull its elements.
 *
 * hwt_capture_open reads a perf.data file (or pipe) once: which backend
 * decodes it, the CPUs and threads it traced (with their names over time),
 * the mappings and whether their binaries were found, its time span, its
 * losses and its AUX queues. Raw trace streams with memory maps and
 * snapshot directories open too, with the facts they have.
 *
 * A cursor (hwt_cursor_new) gives the capture's elements one at a time
 * (hwt_cursor_next) or in batches of fixed-size records
 * (hwt_cursor_next_batch), filtered, by time or per stream, decoded on
 * as many threads as asked: the same elements as hwt_decode_file and
 * `hwtrace decode` give, for every number of threads. At one job the
 * decode runs on the caller's thread, inside hwt_cursor_next and
 * hwt_cursor_next_batch, on a stack of its own that hands a batch of
 * elements back at a time; at more jobs it runs on a thread of the
 * cursor's own, which hands elements over through a bounded queue. Either
 * way memory stays flat however large the capture, and the decode stops
 * when the cursor is freed, also before the end. (Builds without
 * ucontext, and ThreadSanitizer builds, use the thread at one job too.)
 *
 * Units (hwt_capture_units) are the independent pieces of a capture's
 * decode: an AUX queue's piece, cut into the segments its backend's split
 * op gives. A cursor on one unit decodes that unit alone, in any process;
 * the units' elements, merged by time, are the capture's. */
#ifndef HWTRACE_CAPTURE_H
#define HWTRACE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_capture;

/* What a capture was opened from. */
enum hwt_capture_kind {
	HWT_CAPTURE_PERF_DATA,    /* a perf.data file or pipe */
	HWT_CAPTURE_RAW,          /* a raw trace stream with memory maps */
	HWT_CAPTURE_SNAPSHOT_DIR, /* an OpenCSD snapshot directory */
};

/* How to open a capture. Zero-initialise, then set size. Strings and
 * arrays are copied. */
struct hwt_capture_opts {
	size_t size;                     /* sizeof(struct hwt_capture_opts) */
	struct hwt_image_lookup lookup;  /* --symfs, --buildid-dir, --vmlinux */
	const char *kcore;               /* --kcore DIR, or NULL */
	const char *cpu_model;           /* FAMILY/MODEL/STEPPING, or NULL */
	bool ignore_build_ids;           /* perf's --ignore-build-ids */
	/* Raw streams (hwt_capture_open_raw): the memory images. */
	const struct hwt_map_spec *maps;
	size_t nmaps;
};

/* Opens the perf.data file @path ("-" for a pipe on standard input): reads
 * its records once and keeps their facts. @opts may be NULL. A cursor
 * decodes the file again, so a pipe (or a FIFO) gives its facts but no
 * cursor: save it to a file first. Errors: those
 * of hwt_decode_file before its first element (the reader's, naming the
 * file and offset; HWT_ERR_NOENT without AUXTRACE_INFO; HWT_ERR_NOSUP when
 * no backend decodes it), HWT_ERR_NOMEM. */
HWT_API int hwt_capture_open(const char *path,
			     const struct hwt_capture_opts *opts,
			     struct hwt_capture **out);

/* Opens the raw trace stream @trace_path for the backend @backend (with
 * @backend_options after a comma as hwt_decode_raw takes them, or NULL),
 * with the memory maps of opts->maps. Errors: HWT_ERR_NOENT (no such
 * backend or file), HWT_ERR_INVAL (no backend or path), HWT_ERR_NOMEM. */
HWT_API int hwt_capture_open_raw(const char *backend,
				 const char *backend_options,
				 const char *trace_path,
				 const struct hwt_capture_opts *opts,
				 struct hwt_capture **out);

/* Opens the snapshot directory @dir (decoded by the backend that has a
 * snapshot_dir op: cs_etm's OpenCSD format). Errors: HWT_ERR_NOENT (not a
 * directory, or no backend reads snapshot directories), HWT_ERR_NOMEM. */
HWT_API int hwt_capture_open_snapshot(const char *dir,
				      const struct hwt_capture_opts *opts,
				      struct hwt_capture **out);

/* Frees the capture; NULL is a no-op. Every cursor on it must be freed
 * first. */
HWT_API void hwt_capture_free(struct hwt_capture *cap);

/* What the capture was opened from. */
HWT_API enum hwt_capture_kind hwt_capture_kind(const struct hwt_capture *cap);

/* The name of the backend that decodes it ("intel_pt", "cs_etm", ...);
 * valid as long as the capture. */
HWT_API const char *hwt_capture_backend(const struct hwt_capture *cap);

/* The CPUs whose trace the capture holds (its per-CPU AUX queues), in
 * increasing order, in *cpus (owned by the capture); returns how many (0
 * for per-thread traces, raw streams and snapshot directories). */
HWT_API size_t hwt_capture_cpus(const struct hwt_capture *cap,
				const int32_t **cpus);

/* A thread the capture's sideband names (COMM, FORK, ITRACE_START). */
struct hwt_capture_thread {
	int32_t pid, tid;
};

/* The threads, in the order the file names them (a tid that a later
 * process reuses is listed again, with that pid); returns how many. */
HWT_API size_t hwt_capture_threads(const struct hwt_capture *cap,
				   const struct hwt_capture_thread **threads);

/* A name a thread took (a COMM record): from @time on (0 when the record
 * has no time), @tid of @pid is called @name; @exec when a new program
 * was started. */
struct hwt_capture_name {
	int32_t pid, tid;
	uint64_t time;
	bool exec;
	const char *name;
};

/* The names over time, in file order; returns how many. */
HWT_API size_t hwt_capture_names(const struct hwt_capture *cap,
				 const struct hwt_capture_name **names);

/* The name of thread @tid at perf time @time (the last COMM at or before
 * it; the first one when all are later), or NULL when none is known. */
HWT_API const char *hwt_capture_name_at(const struct hwt_capture *cap,
					int32_t tid, uint64_t time);

/* A thread as perf's tools name it from the sideband, one record at a
 * time in file order: a COMM record names thread @tid of process @pid
 * (@fork false); a FORK record makes thread @tid in process @pid from
 * @ptid of @ppid (@fork true), with the name its parent has then, for a
 * new thread has no COMM record of its own until it execs or renames
 * itself (NULL when the parent has no name yet). A COMM record with no
 * name bytes is not listed. */
struct hwt_capture_task {
	int32_t pid, tid;
	int32_t ppid, ptid;   /* FORK: the parent; COMM: -1 */
	uint64_t time;        /* the record's; 0 when it has none */
	bool fork;
	const char *name;
};

/* The tasks in file order, into *tasks (owned by the capture); returns
 * how many (0 for raw streams and snapshot directories). */
HWT_API size_t hwt_capture_tasks(const struct hwt_capture *cap,
				 const struct hwt_capture_task **tasks);

/* The name thread @tid took last in hwt_capture_tasks (its last COMM, or
 * the one a FORK gave it): the name perf script shows for its whole
 * trace. NULL when it has none. */
HWT_API const char *hwt_capture_thread_name(const struct hwt_capture *cap,
					    int32_t tid);

/* hwt_capture_thread_name as the thread-name callback of perf script's
 * fields, the element and frame filters and the report
 * (hwt_script_opts.comm, hwt_elem_filter_opts.comm, hwt_report_set_comm):
 * @cap is the struct hwt_capture, or NULL for a capture that could not be
 * read ahead (a pipe), which names no thread; @pid is not needed, a tid
 * names one thread at a time. */
HWT_API const char *hwt_capture_comm(void *cap, int32_t pid, int32_t tid);

/* A context switch (a SWITCH or SWITCH_CPU_WIDE record that names its
 * thread), as perf's database export gives it: the records are taken in
 * time order; a thread is known once a COMM record names it (or a FORK
 * from a known thread makes it; the idle task, tid 0, always is, as
 * "swapper"); an unknown side is pid/tid -1 with no name, and a switch
 * whose sides are both unknown or idle is left out. */
struct hwt_capture_switch {
	uint64_t time;             /* 0 when the record has none */
	int32_t cpu;               /* -1 when the record has none */
	int32_t out_pid, out_tid;  /* the thread switched out */
	int32_t in_pid, in_tid;    /* the thread switched in */
	bool out;                  /* the record is the switching-out side's */
	bool preempt;              /* switched out while still runnable */
	/* Each side's name at the switch; NULL for an unknown side. */
	const char *out_comm, *in_comm;
};

/* The switches in time order (equal times in file order), into
 * *switches (owned by the capture); returns how many. */
HWT_API size_t hwt_capture_switches(const struct hwt_capture *cap,
				    const struct hwt_capture_switch **switches);

/* An entry of the capture's build-id table (the perf.data header's
 * HEADER_BUILD_ID feature): the binary @path as recorded had this id. */
struct hwt_capture_build_id {
	int32_t pid;
	const char *path;
	uint8_t size;              /* bytes of @id used */
	uint8_t id[20];
};

/* The build-id table in file order, into *ids (owned by the capture);
 * returns how many (0 without one; a malformed table up to its damage). */
HWT_API size_t hwt_capture_build_ids(const struct hwt_capture *cap,
				     const struct hwt_capture_build_id **ids);

/* A mapping of code: a section of the memory image the decode reads. */
struct hwt_capture_mmap {
	int32_t pid;               /* HWT_PID_ANY: every process (kernel) */
	uint64_t vaddr, size;
	uint64_t file_offset;
	uint64_t valid_from;       /* perf time span [from, until) */
	uint64_t valid_until;      /* HWT_TIME_END: to the end */
	const char *path;          /* as recorded */
	const char *found_at;      /* the file read; NULL when missing */
	bool missing;              /* no code: not found, or refused */
	const char *missing_detail; /* why a found file was refused, or NULL */
	uint8_t build_id_size;     /* 0 when the capture gives none */
	uint8_t build_id[20];
};

/* The mappings, in the image's order (raw streams: the maps given);
 * returns how many. *mmaps is owned by the capture. */
HWT_API size_t hwt_capture_mmaps(const struct hwt_capture *cap,
				 const struct hwt_capture_mmap **mmaps);

/* The first and last perf time of the capture's records. Errors:
 * HWT_ERR_NOENT (no record carries a time, or not a perf.data capture). */
HWT_API int hwt_capture_time_span(const struct hwt_capture *cap,
				  uint64_t *first, uint64_t *last);

/* What the time of the elements of perf.data file @path measures: the
 * clock of the backend of its first event that names one (by the event's
 * name: "intel_pt//", "cs_etm/@tmc_etr0/", "sw_branch"). NULL when none
 * says, or @path is not a regular file (a pipe is read once, by the
 * decode) or not a perf.data file. The clock is static. */
struct hwt_trace_clock; /* hwtrace/backend.h */
HWT_API const struct hwt_trace_clock *
hwt_capture_file_clock(const char *path);

/* What the capture lost, as its records say. */
struct hwt_capture_losses {
	uint64_t lost_events;   /* PERF_RECORD_LOST records */
	uint64_t lost_records;  /* the records they say were lost */
	uint64_t truncated;     /* AUX records flagged TRUNCATED */
	uint64_t collisions;    /* AUX records flagged COLLISION */
	uint64_t trace_errors;  /* PERF_RECORD_AUXTRACE_ERROR records */
};

/* Fills @losses (all 0 for raw streams and snapshot directories). */
HWT_API void hwt_capture_losses(const struct hwt_capture *cap,
				struct hwt_capture_losses *losses);

/* One AUX queue: the trace of a CPU (per-CPU) or of a thread. */
struct hwt_capture_queue {
	uint32_t idx;        /* mmap index */
	int32_t cpu, tid;    /* -1 when not per-CPU / not per-thread */
	size_t npieces;      /* runs of contiguous AUX data */
	uint64_t bytes;      /* of trace */
};

/* The AUX queues in increasing idx order; returns how many (0 for raw
 * streams and snapshot directories). */
HWT_API size_t hwt_capture_queues(const struct hwt_capture *cap,
				  const struct hwt_capture_queue **queues);

/* An independent piece of the decode: segment @segment of piece @piece of
 * AUX queue @queue (an index into hwt_capture_queues), the bytes
 * [offset, offset + size) of that queue's AUX stream. @time_from and
 * @time_until are the times of the PERF_RECORD_AUX records that reported
 * the piece's data (0 when the capture has none): the unit's code ran
 * before them. */
struct hwt_capture_unit {
	size_t queue;
	size_t piece;
	size_t segment;
	int32_t cpu, tid;
	uint64_t offset, size;
	uint64_t time_from, time_until;
};

/* The capture's units, in the order a one-thread decode takes them, into
 * *units (owned by the capture; computed at the first call: each piece is
 * read and cut with the backend's split op, as `decode -j` cuts it; a
 * backend without one gives one unit per piece). Returns how many, or a
 * negative error: HWT_ERR_NOSUP (not a perf.data capture, or a capture
 * with AUX samples, whose windows are no units), HWT_ERR_NOMEM, and the
 * reader's and the decoder's errors. */
HWT_API int64_t hwt_capture_units(struct hwt_capture *cap,
				  const struct hwt_capture_unit **units);

/* The units of the capture @file, one JSON object a line on @out, as
 * `hwtrace units` prints them for a batch engine to plan from: file,
 * unit (its number for hwt_cursor_opts.unit and --unit), units (how
 * many), queue, cpu, tid, offset, size, time_from, time_until and cost
 * (the trace bytes to decode). A capture with nothing to cut (AUX
 * samples, branch records alone: hwt_capture_units gives none or
 * HWT_ERR_NOSUP) is one line with unit 0 and units 0 (the whole
 * capture), its file's size as its cost. Returns 0 or the error of
 * hwt_capture_open or hwt_capture_units; HWT_ERR_INVAL for a NULL
 * argument. */
HWT_API int hwt_capture_units_write_jsonl(FILE *out, const char *file);

/* --- cursors --- */

struct hwt_cursor;

/* The order of a cursor's elements. */
enum hwt_cursor_order {
	/* Every CPU's and thread's elements merged by time (hwtrace/merge.h),
	 * as `hwtrace decode` prints them. Raw streams and snapshot
	 * directories are one stream: in stream order. */
	HWT_CURSOR_ORDER_TIME,
	/* As the decode emits them: stream after stream (`decode --per-cpu`). */
	HWT_CURSOR_ORDER_STREAM,
};

/* A cursor's options. Zero-initialise, then set size. */
struct hwt_cursor_opts {
	size_t size;                 /* sizeof(struct hwt_cursor_opts) */
	enum hwt_cursor_order order;
	unsigned int jobs;           /* decode threads (0 or 1: one) */
	bool filter_cpu;             /* only elements of @cpu */
	int32_t cpu;
	bool filter_tid;             /* only elements of @tid */
	int32_t tid;
	bool filter_time;            /* only elements in [time_start, time_end] */
	uint64_t time_start, time_end;
	bool disasm;                 /* ranges as instructions with their text */
	/* Decode only unit @unit - 1 of hwt_capture_units (0: the whole
	 * capture). Its elements come in stream order, whatever @order. */
	size_t unit;
	/* Elements the decode may run ahead of the reader on its thread (0:
	 * 4096; at one job, where the decode has no thread, unused). */
	size_t queue_depth;
	/* Non-NULL: warnings go here, one sentence each, called on the
	 * cursor's decode thread, or at one job on the caller's thread and
	 * stack, from the cursor's calls, before the elements that follow
	 * the batch they came in; NULL: they come as error elements, as
	 * hwt_decode_opts.warn says. */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* Non-NULL: called on the cursor's decode thread (at one job: on the
	 * caller's thread, on the decode's own stack, a default thread
	 * stack's size) once the memory
	 * image is complete, before the first element (as
	 * hwt_decode_opts.on_image): hwt_symbolizer_on_image here lets a
	 * symbolizer name the cursor's elements (symbols.h). */
	void (*on_image)(void *arg, struct hwt_image *image);
	void *on_image_arg;
};

/* A cursor on @cap (borrowed: it must outlive the cursor), decoding with
 * @opts (copied; NULL: defaults). At more than one job the decode starts
 * on a thread of its own at once; at one job it starts with the first
 * hwt_cursor_next or hwt_cursor_next_batch, on the caller's thread. A
 * cursor of one job is used from one thread at a time (any thread). *@out
 * is NULL when it fails. Errors: HWT_ERR_INVAL (a unit that does not
 * exist, or a unit of a capture that has none), HWT_ERR_NOSUP (a capture
 * read from a pipe, which cannot be read again), HWT_ERR_NOMEM (also: no
 * mapping for the decode's stack), HWT_ERR_IO (no thread could be
 * started). */
HWT_API int hwt_cursor_new(struct hwt_capture *cap,
			   const struct hwt_cursor_opts *opts,
			   struct hwt_cursor **out);

/* Stops the decode if it still runs (its thread's, or at one job the
 * decode on the caller's thread, run once more for it to unwind), waits
 * for it to end and frees the cursor; NULL is a no-op. */
HWT_API void hwt_cursor_free(struct hwt_cursor *cur);

/* The next element into *@elem. The strings and the branch array it
 * points to belong to the cursor and stay valid until the next call on
 * it. Returns 1 with an element, 0 at the end of the capture, or a
 * negative error (the decode's: those of hwt_decode_file,
 * hwt_decode_raw or hwt_decode_snapshot_dir), after which every call
 * returns it again. */
HWT_API int hwt_cursor_next(struct hwt_cursor *cur, struct hwt_elem *elem);

/* Pushes every element @cur has left into @sink, in order, to the end:
 * for consumers that are sinks (hwt_stack_sink, hwt_edges_sink, ...).
 * Returns 0, the cursor's error, or the first negative return of the
 * sink's emit (which stops it). */
HWT_API int hwt_cursor_run(struct hwt_cursor *cur,
			   const struct hwt_elem_sink *sink);

/* Decodes unit @unit (1 for the first of hwt_capture_units) of the
 * capture @file with the image lookup, kcore, cpu model, build-id check,
 * cpu/tid/time filters, disassembly, warn and on_image callbacks of @opts
 * into @sink, in stream order, through a cursor on that unit: what
 * `report --unit`, `decode --edges --unit` and `decode --branch-profile
 * --unit` decode, and what a batch worker decodes of its piece. When
 * @opts asks for a branch profile as the whole-file decode takes it
 * (branch_count_sink.branch non-NULL, else a branch_profile FILE, which
 * gets the text printer), the unit's elements are also counted into one
 * and the profile handed there once the unit is decoded, its addresses
 * rendered against the unit's image and named with @opts->name_addr. A
 * nonzero return of @sink's emit stops it. Every error message is led by
 * "FILE, unit N: ". Returns 0 or the error: the capture's or the
 * decode's, the sink's or the profile's, HWT_ERR_INVAL (a unit the file
 * does not have, "no such unit: the capture has N (hwtrace units lists
 * them)", or a NULL argument), HWT_ERR_NOMEM. */
HWT_API int hwt_capture_decode_unit(const char *file, size_t unit,
				    const struct hwt_decode_opts *opts,
				    const struct hwt_elem_sink *sink);

/* One element as a flat record of fixed size, for bindings (NumPy, ...)
 * and for copying in bulk. The fields a type has no use for are 0. */
struct hwt_elem_record {
	uint32_t type;          /* enum hwt_elem_type */
	uint32_t fields;        /* enum hwt_elem_field bits */
	int32_t cpu, pid, tid;
	/* RANGE: enum hwt_isa; BRANCH: enum hwt_branch_kind; GAP: enum
	 * hwt_gap_reason. */
	uint32_t kind;
	uint64_t time;
	uint64_t trace_offset;
	/* RANGE: start; BRANCH: from; TRACE_ON, TRACE_OFF: at; SAMPLE: ip. */
	uint64_t from;
	/* RANGE: end; BRANCH: to; SAMPLE: window. */
	uint64_t to;
	/* RANGE: insns; GAP: bytes; SAMPLE: period; BRANCH: weight (of a
	 * sampled branch record, HWT_FIELD_SAMPLED; else 0). */
	uint64_t count;
	/* SAMPLE: sync; BRANCH: cycles, depth, flags and priv of a sampled
	 * branch record (HWT_FIELD_SAMPLED) in bits 0-15, 16-31, 32-39 and
	 * 40-47, its counter_width and counter_events (branch counters
	 * split by event, hwtrace/brcntr.h) in bits 48-55 and 56-63. */
	uint64_t sync;
	/* BRANCH: exception; CONTEXT: el. */
	uint32_t number;
	uint32_t vmid;          /* CONTEXT: vmid */
	/* RANGE: text; GAP: detail; ERROR: message; else NULL. */
	const char *text;
	/* SAMPLE: the branch stack, newest first; else NULL and 0. */
	const struct hwt_branch_entry *branches;
	uint64_t nbranches;
	/* BRANCH: the counters word of a sampled branch record
	 * (HWT_FIELD_BR_COUNTERS, branch.counters); else 0. Last, so the
	 * fields before it keep their offsets. */
	uint64_t counters;
};

/* Fills @n records of @buf with the next elements, fewer only at the end
 * of the decode (or before its error), waiting for them. Their text and
 * branches belong to the cursor and stay valid until the next call on it.
 * Returns how many (0 at the end), or a negative error as
 * hwt_cursor_next. */
HWT_API int64_t hwt_cursor_next_batch(struct hwt_cursor *cur,
				      struct hwt_elem_record *buf, size_t n);

/* The record of @elem, and the element of @rec (pointers are shared,
 * not copied). */
HWT_API void hwt_elem_record_from_elem(struct hwt_elem_record *rec,
				       const struct hwt_elem *elem);
HWT_API void hwt_elem_record_to_elem(struct hwt_elem *elem,
				     const struct hwt_elem_record *rec);

#ifdef __cplusplus
}
#endif

#endif
