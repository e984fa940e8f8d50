/* Shared parts of the decode pipeline (decode_*.c). */
#ifndef HWT_CORE_DECODE_INTERNAL_H
#define HWT_CORE_DECODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/perfdata.h"
#include "core/image/image_internal.h"
#include "core/insn/insn_internal.h"
#include "core/perfdata/aux_queues.h"
#include "core/perfdata/perfdata_threads.h"

/* Applies --cpu, --tid and --time to the element stream. Gaps and errors
 * always pass: lost trace is always shown. */
struct hwt_decode_filter {
	const struct hwt_decode_opts *opts;
	const struct hwt_elem_sink *next;
	/* What went through, for saying when a filter matched nothing:
	 * elements that filters apply to, those that passed, and the time
	 * span of those that carry a time. */
	uint64_t seen, passed, timed, tmin, tmax;
	/* A raw stream or a snapshot directory: it has no sideband that
	 * lists threads, only the context IDs of the trace itself. */
	bool trace_alone;
};

/* A sink over @f, valid while @f is. */
struct hwt_elem_sink hwt_decode_filter_sink(struct hwt_decode_filter *f);

/* After a decode through @f: warns (hwt_decode_warn) when --tid or
 * --time let no element through although there were elements, naming the
 * capture's time span or that it has no timestamps. */
int hwt_decode_filter_report(const struct hwt_decode_filter *f,
			     const struct hwt_elem_sink *sink);
/* A warning of the decode: to opts->warn when the caller set one,
 * otherwise as an error element (no offset) to @sink, which may be NULL
 * (packet listings), then it is dropped. */
int hwt_decode_warn(const struct hwt_decode_opts *opts,
		    const struct hwt_elem_sink *sink, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* --cpu N (opts->filter_cpu) where @cpus, the CPUs @whose ("the
 * capture", "the snapshot") trace or samples are of, lack N: warns
 * (hwt_decode_warn) naming them as ranges, "--cpu 5 matches nothing: the
 * capture has CPUs 0-3, 7". 0 without a warning when there is no --cpu,
 * N is in @cpus or @cpus is empty (the caller knows why it is). */
struct hwt_cpu_set;
int hwt_decode_warn_cpu_absent(const struct hwt_decode_opts *opts,
			       const struct hwt_elem_sink *sink,
			       const struct hwt_cpu_set *cpus, const char *whose);
/* A packet listing (opts->packet_sink set) lists every packet: --tid and
 * --time, which select decoded elements, would be ignored without a
 * word, and so would --cpu on @input ("a raw trace stream", "a snapshot
 * directory"; NULL for a perf.data capture, whose listing --cpu cuts to
 * the CPU's AUX buffers). HWT_ERR_CONFIG naming the two options for
 * those; 0 otherwise. */
int hwt_decode_packet_filters_check(const struct hwt_decode_opts *opts,
				    const char *input);
/* Whether any filter is set in @opts. */
int hwt_decode_has_filter(const struct hwt_decode_opts *opts);

/* A whole file mapped read-only. */
struct hwt_mapped {
	const uint8_t *data;
	size_t size;
	size_t released; /* the bytes before it were given back */
};

/* Maps @path; @what names it in messages ("trace file", "--map file").
 * Errors: HWT_ERR_NOENT, HWT_ERR_PERM, HWT_ERR_IO. */
int hwt_mapped_open(struct hwt_mapped *m, const char *path, const char *what);
void hwt_mapped_close(struct hwt_mapped *m);

/* Gives back the pages of @m that lie wholly before @done, less a margin
 * a decoder may still read behind where it stands: a decode reads its
 * trace once, front to back, so what stays resident is a window of
 * bounded size however long the trace is. A page read again comes back
 * from the file (the mapping is private and never written), so a read
 * behind the window is slower, never wrong. Offsets at or behind what
 * was given back already are ignored. */
void hwt_mapped_release(struct hwt_mapped *m, uint64_t done);

/* Gives back the pages of @m wholly inside [@from, @to), a pass over the
 * mapping done before the decode (which keeps its own place, above). */
void hwt_mapped_release_range(struct hwt_mapped *m, const uint8_t *from,
			      const uint8_t *to);

/* The backend @name with a decoder. Errors: HWT_ERR_NOENT (unknown name,
 * listing the known ones), HWT_ERR_NOSUP (no decoder, saying why). */
int hwt_decode_find_backend(const char *name, const struct hwt_backend **out);

/* Whether chunks go to @b's edges op: opts->edges asks for edges, the
 * backend has the op, and no --tid, --time or --disasm asks for the
 * elements that the op never makes. */
bool hwt_decode_edges_op(const struct hwt_backend *b,
			 const struct hwt_decode_opts *opts);

/* Whether the backend's edges op takes the chunks of @chunk's stream:
 * asked with an empty chunk, which counts nothing into @edges. A backend
 * without one takes none. */
bool hwt_decode_edges_takes(const struct hwt_backend *b, void *priv,
			    const struct hwt_aux_chunk *chunk,
			    struct hwt_edges *edges);

/* Hands @chunk to the decoder, cut into the segments the backend's split
 * op gives (each after reset(), with the rest of the chunk as its
 * lookahead), as a parallel decode cuts it, so that one thread gives the
 * elements and edges that many give: to its edges op when opts->edges
 * asks for edges and the op takes the stream, otherwise to feed(). */
int hwt_decode_feed(const struct hwt_backend *b, void *priv,
		    const struct hwt_aux_chunk *chunk,
		    const struct hwt_decode_opts *opts);

/* hwt_decode_feed, calling @done (when not NULL) with the offset in
 * @chunk of each segment's end once the segment is decoded. */
int hwt_decode_feed_each(const struct hwt_backend *b, void *priv,
			 const struct hwt_aux_chunk *chunk,
			 const struct hwt_decode_opts *opts,
			 void (*done)(void *arg, uint64_t end), void *arg);

/* The most segments a split op is asked for, per chunk. */
#define HWT_MAX_SEGMENTS 4096

/* The segments of @chunk (hwt_decoder_ops.split, or the whole chunk
 * without one) into @starts (HWT_MAX_SEGMENTS entries), checked: returns
 * how many, or a negative error naming the backend. */
int hwt_decode_split(const struct hwt_backend *b, void *priv,
		     const struct hwt_aux_chunk *chunk, uint64_t *starts);

/* Segment @i of the @n that @starts cut @chunk into, as a chunk of its
 * own: its offset in the stream, the rest of @chunk as its lookahead and
 * the bytes of @chunk before it as its lookbehind. */
struct hwt_aux_chunk hwt_decode_segment(const struct hwt_aux_chunk *chunk,
					const uint64_t *starts, int n, int i);


/* --- parallel decode (decode_parallel.c) --- */

/* The trace of a decode, piece by piece (every piece follows a reset). */
struct par_batch;

struct hwt_par_source {
	size_t n;
	/* Fills @chunk with piece @i and its bytes; *owned (NULL when the
	 * bytes are borrowed) is freed once the piece is decoded. */
	int (*load)(void *arg, size_t i, struct hwt_aux_chunk *chunk,
		    void **owned);
	/* On the calling thread, in piece order: before the first element
	 * of piece @i, and after its last. Optional. */
	int (*before)(void *arg, size_t i);
	int (*after)(void *arg, size_t i);
	/* On every decoder instance the decode creates, before its first
	 * chunk (hw_id records). Optional. */
	int (*setup)(void *arg, void *priv);
	/* Sends a batch's elements where params->sink would, in bulk where
	 * it can (hwt_ctx_sink_batch). Optional: else one by one. */
	int (*send)(void *arg, struct par_batch *b);
	void *arg;
	/* Non-NULL (`--edges`, hwt_decode_edges_op): segments go through
	 * the backend's edges op (feed() where it declines the stream),
	 * each thread counting into a map of its own, and the maps are added
	 * to this one once every piece is decoded. */
	struct hwt_edges *edges;
	/* Optional: the segment starts of piece 0 (@ncut of them), when the
	 * caller has cut it already (a raw stream, cut to choose the
	 * threads): the split op is not asked again. */
	const uint64_t *cut;
	int ncut;
};

/* Decodes @src with @jobs threads, each with an instance of @b's decoder
 * (created with @params, its own image view and a buffering sink), and
 * sends the elements to params->sink in piece order. @main_priv is an
 * instance of the calling thread, created with the sink *@main_sink and
 * params->image: it answers split and decodes again a unit whose missing
 * files the stream named already. @b must have a split op. The last
 * piece's elements are all sent when this returns; the caller flushes. */
int hwt_decode_parallel(const struct hwt_backend *b,
			const struct hwt_decode_params *params, void *main_priv,
			struct hwt_elem_sink *main_sink,
			const struct hwt_par_source *src, unsigned jobs);

/* The parallel decode's batches: elements a batch, and batches a unit
 * holds in memory before its worker waits (or, for batches that must
 * wait for the unit's end, writes them to its file). Read when a decode
 * starts; tests make them small to reach the file. */
struct hwt_par_batches {
	size_t elems;
	size_t max_in_memory;
	size_t spilled;   /* batches written to a file so far (atomic) */
};
extern struct hwt_par_batches hwt_par_batches;

/* Whether @opts (of the caller's size; may be NULL) asks for a packet
 * listing (a FILE or a sink) rather than elements. */
bool hwt_decode_opts_list_packets(const struct hwt_decode_opts *opts);
/* Checks opts->size and returns a zero-extended copy in @out, whose
 * packet_sink and branch_count_sink are set (the text printers) where
 * only the FILE was given. */
int hwt_decode_opts_copy(const struct hwt_decode_opts *opts,
			 struct hwt_decode_opts *out);

/* The kernel's code: the PT_LOAD segments of DIR/kcore at their
 * addresses, or of a vmlinux moved so that its first executable segment
 * starts at @text_start (the kernel MMAP record's start). Errors name the
 * option and file: HWT_ERR_NOENT, HWT_ERR_FORMAT, HWT_ERR_IO. */
int hwt_decode_add_kcore(struct hwt_image *image, const char *dir);
int hwt_decode_add_vmlinux(struct hwt_image *image, const char *path,
			   uint64_t text_start);

/* --- perf.data pipeline --- */

/* Who ran on a CPU from a time on. ITRACE_START and switch-in records say
 * that a task runs from their time; a switch-out record opens a switch
 * that lasts until the next of those: the kernel writes it before the
 * task leaves (its trace may go on a little) and the switch-in record
 * after the next task came in (its trace may start a little before). */
struct hwt_ctx_event {
	uint64_t time;
	int32_t cpu;
	int32_t pid, tid;           /* the task from @time on (in a switch:
				     * the one coming in; -1 unknown) */
	int32_t prev_pid, prev_tid; /* in a switch: the one going out */
	bool in_switch;
	bool itrace_start;
	uint32_t seq;               /* file order, for equal times */
};

/* A loss the kernel reported (AUX flags, LOST) or a perf AUXTRACE_ERROR,
 * shown at its place in its CPU's stream. */
struct hwt_loss_event {
	int32_t cpu;
	uint64_t time;
	uint64_t aux_offset; /* AUX records: where the lost data was */
	struct hwt_elem elem;
	char text[96];
};

/* A task: thread @tid of process @pid (-1: not known). */
struct hwt_task {
	int32_t pid, tid;
};

struct hwt_sideband {
	struct hwt_ctx_event *ctx;
	size_t nctx, ctx_cap;
	struct hwt_loss_event *loss;
	size_t nloss, loss_cap;
	bool have_switch;
	/* Which process each thread belongs to (COMM, FORK, ITRACE_START). */
	struct hwt_thread_pid {
		int32_t tid, pid;
	} *threads;
	size_t nthreads, threads_cap;
	/* FORK records: thread @tid was made by thread @ptid. */
	struct hwt_fork {
		int32_t ptid, tid;
	} *forks;
	size_t nforks, forks_cap;
	/* A per-task capture (perf record -p/-t/-- command: the trace event
	 * follows tasks, not CPUs) traces only the tasks that started it
	 * (ITRACE_START) and those they forked: @traced, sorted, set by
	 * hwt_sideband_finish when @per_task. */
	bool per_task;
	int32_t *traced;
	size_t ntraced;
};

/* Notes that thread @tid belongs to process @pid. */
int hwt_sideband_add_thread(struct hwt_sideband *sb, int32_t pid, int32_t tid);
/* The process of thread @tid, or -1 when the sideband does not say. */
int32_t hwt_sideband_thread_pid(const struct hwt_sideband *sb, int32_t tid);
/* Notes that thread @ptid forked thread @tid. */
int hwt_sideband_add_fork(struct hwt_sideband *sb, int32_t ptid, int32_t tid);

void hwt_sideband_free(struct hwt_sideband *sb);
int hwt_sideband_add_ctx(struct hwt_sideband *sb, const struct hwt_ctx_event *ev);
int hwt_sideband_add_loss(struct hwt_sideband *sb, const struct hwt_loss_event *ev);
/* After the last record (and after setting @per_task): sorts the context
 * events by cpu, then time; fills in the tasks a switch record leaves
 * unnamed (the next task of a per-thread SWITCH is the one the next
 * switch-in names); builds the traced set. From here on the sideband is
 * only read, so streams may be attributed in parallel. Errors:
 * HWT_ERR_NOMEM. */
int hwt_sideband_finish(struct hwt_sideband *sb);

/* Whether thread @tid is traced: always, unless @sb is per-task. */
bool hwt_sideband_traced(const struct hwt_sideband *sb, int32_t tid);

/* The tasks that may have run on @cpu at some time in [@lo, @hi): those
 * of the last event at or before @lo and of every event after @lo and
 * before @hi, leaving out tasks a per-task capture did not trace. A task
 * with tid -1 stands for "not known" (no event yet). Writes up to @max
 * into @out and returns how many there are (more than @max: some were
 * not written). */
size_t hwt_sideband_tasks_in(const struct hwt_sideband *sb, int32_t cpu,
			     uint64_t lo, uint64_t hi, struct hwt_task *out,
			     size_t max);

/* hwt_decode_params.pid_at over a finished sideband (@arg). */
int32_t hwt_sideband_pid_at(void *arg, int32_t cpu, int32_t tid, uint64_t time);

/* Attaches cpu/pid/tid to the elements of one stream. Per-thread streams
 * are their thread. A per-CPU stream's element gets the task the sideband
 * says ran during its time: an element's time is that of the trace's last
 * timing packet, so it ran between that time and the next element's; when
 * that span holds a switch, the candidates narrow down to the traced
 * tasks (per-task captures) and, when the trace leaves out the kernel
 * (@segments), to a task all of one trace_on..trace_off stretch shares,
 * since tasks switch only in the kernel. A task the trace itself names
 * (CoreSight CONTEXTIDR as the tid) is used as it is. What stays open is
 * marked HWT_FIELD_TASK_AMBIGUOUS and counted. Elements wait in the sink
 * until their task is known: hwt_ctx_sink_end flushes them. */
struct hwt_ctx_sink {
	const struct hwt_sideband *sb;
	const struct hwt_elem_sink *next;
	int32_t cpu;         /* the stream's cpu, -1 when per-thread */
	int32_t pid, tid;    /* per-thread: the stream's task, -1 unknown */
	bool segments;       /* the trace leaves out the kernel */
	uint64_t ambiguous;  /* elements marked ambiguous so far */
	uint64_t errors;     /* error elements given so far */
	struct hwt_attr_state *st; /* waiting elements; NULL while none */
	/* The newest waiting group while a range or branch with its common
	 * fields joins it with nothing else to do, else NULL: found after
	 * an element that took the full path, dropped by anything that
	 * may change it (decode_attr.c). */
	struct aq_group *open;
};

/* Starts stream @cpu (or per-thread @pid/@tid) on @cs, whose @next,
 * @segments and @ambiguous the caller keeps. Ends a stream still open. */
int hwt_ctx_sink_start(struct hwt_ctx_sink *cs, const struct hwt_sideband *sb,
		       int32_t cpu, int32_t pid, int32_t tid);
struct hwt_elem_sink hwt_ctx_sink(struct hwt_ctx_sink *cs);
/* A loss record's element, placed after the elements given so far and
 * attributed by its own time. */
int hwt_ctx_sink_loss(struct hwt_ctx_sink *cs, const struct hwt_elem *e);
/* The elements of a parallel decode's batch (par_batch.h), as the sink
 * would take them one by one: the ranges and branches that join the
 * newest waiting group go in as slots, in bulk. */
int hwt_ctx_sink_batch(struct hwt_ctx_sink *cs, struct par_batch *b);
/* The stream ended: decides and passes on every waiting element. */
int hwt_ctx_sink_end(struct hwt_ctx_sink *cs);
/* Frees what the sink holds (after hwt_ctx_sink_end, or on an error). */
void hwt_ctx_sink_free(struct hwt_ctx_sink *cs);


/* --- what a perf.data capture holds (hwt_capture, core/pipeline/) --- */

/* A COMM record: thread @tid of process @pid is called @name from @time. */
struct hwt_file_name {
	int32_t pid, tid;
	uint64_t time;
	bool exec;
	char *name;
};

/* One AUX queue (a CPU's or a thread's trace) and its pieces: contiguous
 * AUX data, each decoded after a reset (hwt_decode_file feeds them so). */
struct hwt_file_queue {
	uint32_t idx;
	int32_t cpu, tid;     /* -1 when not per-CPU / not per-thread */
	size_t npieces;
	uint64_t bytes;
	struct hwt_file_piece {
		uint64_t offset, size;
		uint64_t time;    /* of the AUX record that reported its start */
	} *pieces;
};

/* The facts the perf.data pipeline gathers before it decodes. */
struct hwt_file_facts {
	const char *backend;          /* the decoding backend's name */
	struct hwt_image *image;      /* a reference (hwt_image_ref) */
	/* Per image section: the build id the found file must have (size 0:
	 * none known). */
	struct hwt_file_build_id {
		uint8_t size;
		uint8_t id[20];
	} *build_ids;
	struct hwt_file_name *names;
	size_t nnames, names_cap;
	struct hwt_thread_pid *threads;
	size_t nthreads;
	struct hwt_file_queue *queues;
	size_t nqueues;
	bool have_time;
	uint64_t first_time, last_time;
	uint64_t lost_records, lost_events, truncated, collisions, trace_errors;
	size_t samples;               /* AUX samples */
	/* Tasks, their names and switches, the build-id table. */
	struct hwt_pd_threads threads_sb;
};

/* Reads every record of @path as hwt_decode_file does and fills @facts
 * instead of decoding. Errors: those of hwt_decode_file before its first
 * element. */
int hwt_decode_file_facts(const char *path, const struct hwt_decode_opts *opts,
			  struct hwt_file_facts *facts);
void hwt_file_facts_free(struct hwt_file_facts *facts);

struct hwt_capture_unit;

/* Decodes unit @unit (of hwt_decode_file_units) of @path alone into
 * @sink; @last: it is the last unit, which also shows the losses no piece
 * shows. Errors: those of hwt_decode_file; HWT_ERR_INVAL when the capture
 * has no such unit; HWT_ERR_NOSUP for a capture with AUX samples. */
int hwt_decode_file_unit(const char *path, const struct hwt_decode_opts *opts,
			 const struct hwt_elem_sink *sink,
			 const struct hwt_capture_unit *unit, bool last);

/* The units of @path in a new array (free()) in *@units, *@n of them:
 * every AUX piece the decode takes, cut by the backend's split op.
 * Errors: those of hwt_decode_file, HWT_ERR_NOSUP (AUX samples). */
int hwt_decode_file_units(const char *path, const struct hwt_decode_opts *opts,
			  struct hwt_capture_unit **units, size_t *n);

#endif
