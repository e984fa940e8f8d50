/* Backends: one trace IP each, split as Linux perf splits them into a
 * recording half (runs on the traced board) and a decoding half (may run on
 * another machine). Compiled-in backends are listed by the core; out-of-tree
 * ones call hwt_backend_register. A missing optional op (NULL) means the
 * core's default.
 *
 * Besides this header, a backend author uses: the edge map
 * (hwtrace/edge_map.h, which the edges op fills), the memory image
 * (hwtrace/image.h), instruction helpers (hwtrace/insn.h), profile access
 * (hwtrace/config.h), the BTS record format (hwtrace/bts_format.h) and the
 * data ring reader (hwtrace/ring_data.h). A backend never calls another
 * backend's symbols: it reaches another backend through this header's
 * table (hwt_backend_find). */
#ifndef HWTRACE_BACKEND_H
#define HWTRACE_BACKEND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include "hwtrace/common.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"
#include "hwtrace/listing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PERF_RECORD_AUXTRACE_INFO types (perf's enum auxtrace_type). */
enum hwt_auxtrace_type {
	HWT_AUXTRACE_UNKNOWN = 0,
	HWT_AUXTRACE_INTEL_PT = 1,
	HWT_AUXTRACE_INTEL_BTS = 2,
	HWT_AUXTRACE_CS_ETM = 3,
	HWT_AUXTRACE_ARM_SPE = 4,
	HWT_AUXTRACE_S390_CPUMSF = 5,
	HWT_AUXTRACE_HISI_PTT = 6,
	HWT_AUXTRACE_VPA_DTL = 7,
	/* Not in a released perf: the RISC-V trace framework series (v4)
	 * adds it after VPA_DTL. */
	HWT_AUXTRACE_RISCV_TRACE = 8,
};

/* PERF_RECORD_AUX flags. */
#define HWT_AUX_FLAG_TRUNCATED 0x01u
#define HWT_AUX_FLAG_OVERWRITE 0x02u
#define HWT_AUX_FLAG_PARTIAL 0x04u
#define HWT_AUX_FLAG_COLLISION 0x08u
#define HWT_AUX_FLAG_PMU_FORMAT_MASK 0xff00u
#define HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW 0x0100u

/* One AUXTRACE buffer handed to a decoder. */
struct hwt_aux_chunk {
	const uint8_t *data;   /* borrowed for the duration of feed() */
	uint64_t size;
	uint64_t offset;       /* position in the CPU's/thread's AUX stream */
	uint64_t reference;
	uint32_t idx;          /* mmap index */
	int32_t cpu;           /* -1 when per-thread */
	int32_t tid;           /* -1 when per-CPU */
	uint32_t aux_flags;    /* PERF_RECORD_AUX flags seen for this data */
	/* The perf time of the PERF_RECORD_AUX that reported the start of
	 * this data (the code in it ran before then), for reading the memory
	 * image when the trace has no time of its own; 0 when not known. */
	uint64_t time;
	/* A per-thread stream's process, when the capture names it
	 * (has_pid): a decoder may put it on its elements (HWT_FIELD_PID),
	 * which then need no copy to get it. */
	bool has_pid;
	int32_t pid;
	/* Bytes after @size that the decoder may read but that are not its
	 * to decode: the start of the next segment of a chunk cut by
	 * split(), for a decoder that must see where the next segment's
	 * decoder takes over (Intel PT reads the PSB+ there). 0 for a chunk
	 * fed whole. */
	uint64_t lookahead;
	/* Bytes before @data that the decoder may read: those of the chunk
	 * before this segment, for a decoder whose state at a cut the bytes
	 * before it tell (Intel BTS: the last branch record). 0 for a chunk
	 * fed whole and for a chunk's first segment. */
	uint64_t lookbehind;
	/* Nothing continues this chunk: the stream's next data, if any,
	 * does not start where it ends (a perf.data piece, whose next AUX
	 * data was lost or is another stream's), so a record cut at its
	 * end is lost there. false: the next chunk fed may go on from it. */
	bool final;
};

/* What a decoder is created with. Pointers are borrowed and outlive it. */
struct hwt_decode_params {
	size_t size;                  /* sizeof(struct hwt_decode_params) */
	const uint64_t *info;         /* AUXTRACE_INFO priv[]; NULL for raw */
	size_t info_words;
	struct hwt_image *image;      /* may be NULL: ranges cannot be built */
	const struct hwt_elem_sink *sink;
	const char *cpu_model;        /* "FAMILY/MODEL/STEPPING", or NULL */
	const char *raw_options;      /* backend options from --raw, or NULL */
	bool disasm;                  /* the output wants instructions */
	/* Optional (NULL for raw input): the process that ran on @cpu (or,
	 * per-thread, as thread @tid) at perf time @time, from the capture's
	 * sideband, so that a decoder can read that process's code from
	 * @image. Returns a pid, or HWT_PID_ANY when unknown. */
	int32_t (*pid_at)(void *arg, int32_t cpu, int32_t tid, uint64_t time);
	void *pid_at_arg;
	/* The trace event's attribute as recorded (its config holds settings
	 * the AUXTRACE_INFO does not, e.g. Intel PT's MTC period); NULL for
	 * raw input. */
	const struct perf_event_attr *aux_attr;
	/* Optional: for a decoder that builds the memory image itself (the
	 * snapshot_dir op), to call once the image is complete and before
	 * the first element, so consumers (symbols) can read it. */
	void (*on_image)(void *arg, struct hwt_image *image);
	void *on_image_arg;
	/* Optional: where a decoder says that its input looks wrong (a
	 * warning, not an element of the trace); one sentence. */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* Optional: a decoder may call this from time to time while it
	 * decodes a chunk (every few thousand blocks, not per element) with
	 * how many of the chunk's bytes it has decoded, for progress
	 * reports (hwt_decode_opts.progress). */
	void (*progress)(void *arg, uint64_t chunk_done);
	void *progress_arg;
	/* The decode counts taken branches through the edges op (`decode
	 * --edges`), whose counts the elements' times do not change: the
	 * split op may cut where only the time after the cut would differ
	 * from one decoder's (Intel PT: raw input with CYC packets or
	 * without time stamps). */
	bool edges_only;
	/* Optional: a decoder that reads ahead of its decode (a pass over a
	 * chunk that chooses where to cut it) says, now and then, that it
	 * is done reading the chunk's bytes [@from, @to), so that raw input
	 * stays a bounded window in memory however long the trace. Called
	 * on the thread that called split(); the bytes may still be read
	 * again (that only costs time). */
	void (*read_done)(void *arg, const uint8_t *from, const uint8_t *to);
	void *read_done_arg;
	/* The decoder runs in a sandboxed worker (docs/decode.md, "Isolated
	 * decoders"): it may not open a file, so the image's code is read
	 * from memory (hwt_image_read_at), never through a library that opens
	 * the section's file by its path. */
	bool sandboxed;
	/* Optional, for the snapshot_dir op: called once for each trace
	 * source it will decode, with the CPU its elements carry, before the
	 * first element, so that the core can say which CPUs the directory
	 * has when `--cpu N` names none of them. */
	void (*on_source_cpu)(void *arg, int32_t cpu);
	void *on_source_cpu_arg;
	/* Optional, for the snapshot_dir op: where set, the op decodes each
	 * trace buffer by calling this with a @decode that sends the
	 * buffer's elements to the sink it is given (in place of
	 * params->sink). The core sets it when the decode is isolated
	 * (docs/decode.md, "Isolated decoders"): @decode(@ctx, sink) then
	 * runs in a sandboxed worker process forked at the call, which may
	 * open no file, so the op has read the buffer's file and built the
	 * image before it calls. @what names the buffer and its bytes for
	 * the error element of a worker that is lost ("the snapshot's
	 * buffer buffer0 (DIR/trace.bin), bytes 0x0-0x1000"). Returns what
	 * @decode returned, its error message too, or 0 when the worker was
	 * lost (the error element says so and the decode fails at its end). */
	int (*run_buffer)(void *arg, const char *what,
			  int (*decode)(void *ctx,
					const struct hwt_elem_sink *sink),
			  void *ctx);
	void *run_buffer_arg;
};

/* The decoding half. feed() decodes a chunk completely, sending elements to
 * the sink; chunks of one stream come in order. */
struct hwt_decoder_ops {
	int (*create)(const struct hwt_decode_params *params, void **priv);
	int (*feed)(void *priv, const struct hwt_aux_chunk *chunk);
	/* End of input: emit whatever is held back. Optional. */
	int (*flush)(void *priv);
	/* The next chunk does not continue the last one (a gap). Optional. */
	void (*reset)(void *priv);
	void (*destroy)(void *priv);
	/* Lists the packet layer of a chunk (`--packets`) as records to
	 * @sink (listing.h), in stream order; stops at the sink's first
	 * error and returns it. Optional. */
	int (*packets)(const struct hwt_decode_params *params,
		       const struct hwt_aux_chunk *chunk,
		       const struct hwt_packet_sink *sink);
	/* A PERF_RECORD_AUX_OUTPUT_HW_ID (type 21) of @cpu's AUX event, in
	 * file order and before the AUXTRACE data it describes: @hw_id is the
	 * record's raw value (CoreSight: major version in bits 63:60, trace ID in
	 * bits 7:0). Optional; without such records decoders use the IDs in
	 * the AUXTRACE_INFO. */
	int (*hw_id)(void *priv, int32_t cpu, uint64_t hw_id);
	/* `decode --snapshot DIR`: decodes every trace buffer of a snapshot
	 * directory in the backend's own format (cs_etm: OpenCSD's), loading
	 * the memory dumps it names into params->image (empty, owned by the
	 * core) and sending elements to params->sink (the core has already
	 * put the --cpu/--tid/--time filter and --disasm in front of it).
	 * With @packets non-NULL, lists the packet layer there as records
	 * instead. Optional. */
	int (*snapshot_dir)(const char *dir,
			    const struct hwt_decode_params *params,
			    const struct hwt_packet_sink *packets);
	/* `decode --edges`: decodes a chunk (in place of feed()) straight
	 * into taken-branch edges, adding them to @edges and counting
	 * overflows and decode errors in hwt_edges_stats(@edges); nothing
	 * goes to the sink but what feed() would send for parts the op
	 * hands to it. The edges and counts must be those of the branch
	 * elements feed() would emit. Returns 0, a negative error, or
	 * HWT_ERR_NOSUP when it cannot take this chunk (the core then calls
	 * feed() and counts the branch elements). A chunk of size 0 asks,
	 * counting nothing, whether it takes chunks of that stream: 0 or
	 * HWT_ERR_NOSUP. The segments of a chunk it takes (the split op's,
	 * with their lookahead) come to it as chunks of their own, each
	 * after reset(): their edges and counts must add up to the whole
	 * chunk's. Its edges and counts may not depend on the image's
	 * missing_reported marks. Optional. */
	int (*edges)(void *priv, const struct hwt_aux_chunk *chunk,
		     struct hwt_edges *edges);
	/* Parallel decode (hwt_decode_opts.jobs > 1). Writes to @starts (at
	 * most @max, which is at least 1) the offsets in @chunk at which
	 * segments start, the first 0, increasing, and returns how many. The
	 * promise: a chunk fed after reset() (or as the first of its stream)
	 * gives the same elements in a fresh instance as in one that decoded
	 * anything before, and the segments [starts[i], starts[i+1]) fed to
	 * separate instances, each after reset(), as chunks of their own
	 * (offset chunk->offset + starts[i], lookahead the bytes of the
	 * chunk after the segment) give, one after the other, the
	 * elements the whole chunk gives. Such instances are created with
	 * the same params (and hw_id calls), each used by one thread, reading
	 * an image of its own that it may mark (missing_reported); flush(),
	 * when there is one, is called on the calling thread's instance
	 * alone and must not hold back anything of a chunk. Returns 1
	 * for a chunk that is not to be cut; a negative error stops the
	 * decode. Optional: without it the core decodes with one instance. */
	int (*split)(void *priv, const struct hwt_aux_chunk *chunk,
		     uint64_t *starts, size_t max);
	/* The instruction set of the code the trace ran, from @params' info
	 * (not from the machine that wrote the file: an x86-64 trace read
	 * or generated on an arm64 host is still x86-64 code). The core
	 * walks that code between the branches it hands out itself (the
	 * virtual LBR's ranges). HWT_ISA_UNKNOWN when the info does not
	 * say; then those ranges are not built. Optional: NULL is
	 * HWT_ISA_UNKNOWN. */
	enum hwt_isa (*code_isa)(const struct hwt_decode_params *params);
};

struct hwt_os;
struct hwt_pmu;
struct hwt_profile;

/* What a backend's info op cannot find out by itself: facts of the session
 * the core set up and of the traced machine. A zeroed struct (with .size
 * set) means "not known / none", which is what info() assumes. */
struct hwt_record_info_ctx {
	size_t size;             /* sizeof(struct hwt_record_info_ctx) */
	/* From the perf_event_mmap_page of the first AUX event mapped:
	 * time_shift/time_mult/time_zero when cap_user_time_zero is set. */
	bool cap_user_time_zero;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	/* How context switches reach the capture, as perf's
	 * have_sched_switch: 0 not at all, 1 the sched:sched_switch
	 * tracepoint, 2 PERF_RECORD_SWITCH of the traced threads,
	 * 3 PERF_RECORD_SWITCH_CPU_WIDE. */
	int sched_switch;
	/* The address filter given to the kernel (PERF_EVENT_IOC_SET_FILTER),
	 * or NULL. Borrowed for the call. */
	const char *filter;
	/* CPUID leaf 0x15 (TSC to core crystal clock ratio, EBX/EAX) of the
	 * traced machine when tsc_ctc_given (e.g. replaying another machine's
	 * capture); otherwise the backend asks this CPU. */
	bool tsc_ctc_given;
	uint32_t tsc_ctc_n;
	uint32_t tsc_ctc_d;
};

/* A backend that is its own trace source (sw_branch steps the program
 * under ptrace): no PMU and no kernel rings for a session to drain, so it
 * runs (or attaches to) the program and writes the whole perf.data file
 * itself. hwt_recorder_record_program (hwtrace/recorder.h) drives it; the
 * options and the summary are hwtrace/swbranch.h's structs. */
struct hwt_swb_opts;
struct hwt_swb_stats;
struct hwt_program_ops {
	/* -e's value (the backend's name with terms and modifiers, as
	 * given): 0, or HWT_ERR_CONFIG saying what it takes. */
	int (*check_event)(const char *event);
	/* A trigger of its flight recorder: 0, or HWT_ERR_CONFIG. */
	int (*check_trigger)(const char *trigger);
	/* Records as @opts says; @stats may be NULL. */
	int (*record)(const struct hwt_swb_opts *opts,
		      struct hwt_swb_stats *stats);
};

/* The recording half. */
struct hwt_record_ops {
	/* Fills @attr for one event of @pmu from the profile's backend section,
	 * after the core has applied the generic format terms. Validates
	 * backend-specific values against caps/ with a message naming the key.
	 * Optional. */
	int (*configure)(const struct hwt_os *os, const struct hwt_pmu *pmu,
			 const struct hwt_profile *profile,
			 struct perf_event_attr *attr);
	/* Writes the AUXTRACE_INFO priv[] for this session into @priv (up to
	 * @max words) and returns the number of words, or a negative error.
	 * @ctx holds what the backend cannot find out by itself (time
	 * conversion, switch records, the filter); NULL means a zeroed one.
	 * Optional: a backend without one cannot record. */
	int (*info)(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max);
	/* Snapshot mode: where the newest data in an overwrite-mode AUX buffer
	 * starts, given aux_head as the driver reported it. Sets *start and
	 * *len (bytes ending at head), *wrapped. Optional (core default: the
	 * whole buffer when the head has passed its size once).
	 * @prev_head is the head of the previous snapshot of this buffer (0 at
	 * the first). *start is an offset inside the buffer (< @aux_size); the
	 * data is the *len bytes from there, continuing at offset 0 when it
	 * passes the end; *len <= @aux_size. */
	int (*find_snapshot)(const uint8_t *aux, uint64_t aux_size,
			     uint64_t head, uint64_t prev_head, uint64_t *start,
			     uint64_t *len, bool *wrapped);
	/* Trace comes in records of this many bytes (intel_bts: 24); 0 for a
	 * byte stream. As perf's auxtrace_record.alignment: when a snapshot
	 * passes the end of the buffer, its part before the end is cut short
	 * by (aux_size - start) % alignment bytes, which the hardware never
	 * writes (intel_bts wraps at the last whole record). */
	unsigned int alignment;
	/* Set by a backend that is its own trace source (the ops above are
	 * then unused); NULL for a backend recorded through a session. */
	const struct hwt_program_ops *program;
};

/* What the time of a trace's elements measures, for a report's header:
 * the unit of its time columns ("ns", "ticks") and one sentence. */
struct hwt_trace_clock {
	const char *unit;
	const char *meaning;
};

struct hwt_backend {
	const char *name;        /* "intel_pt", "cs_etm", ... */
	const char *pmu_name;    /* sysfs PMU name; NULL if none (sw_branch) */
	const char *description; /* one line for `hwtrace list` */
	enum hwt_auxtrace_type auxtrace_type;
	bool aux_sampling;       /* the PMU can serve PERF_SAMPLE_AUX */
	const struct hwt_record_ops *record;
	/* NULL when built without the decoder library. */
	const struct hwt_decoder_ops *decoder;
	/* Why there is no decoder, for the user, when decoder is NULL. */
	const char *no_decoder_reason;
	/* What its elements' time measures; NULL when it does not say. */
	const struct hwt_trace_clock *clock;
};

/* A split op (hwt_decoder_ops.split) for a decoder whose chunks decode
 * alone, as the op promises, and are not cut: writes starts[0] = 0 and
 * returns 1. */
HWT_API int hwt_decoder_split_whole(void *priv,
				    const struct hwt_aux_chunk *chunk,
				    uint64_t *starts, size_t max);

/* A code_isa op (hwt_decoder_ops.code_isa) for a decoder of x86-64
 * code only (Intel PT's 64-bit mode, Intel BTS): HWT_ISA_X86_64. */
HWT_API enum hwt_isa
hwt_decoder_code_isa_x86_64(const struct hwt_decode_params *params);

/* @backend's code_isa op on @params; HWT_ISA_UNKNOWN without a decoder
 * or without the op. */
HWT_API enum hwt_isa
hwt_backend_code_isa(const struct hwt_backend *backend,
		     const struct hwt_decode_params *params);

/* Registers an out-of-tree backend. @backend is borrowed and must stay
 * valid. Errors: HWT_ERR_BUSY (the name is taken), HWT_ERR_NOMEM. */
HWT_API int hwt_backend_register(const struct hwt_backend *backend);

/* Looks a backend up by name, then by PMU name. NULL when unknown. */
HWT_API const struct hwt_backend *hwt_backend_find(const char *name);

/* The backend that decodes an AUXTRACE_INFO type. NULL when none. */
HWT_API const struct hwt_backend *
hwt_backend_for_auxtrace(enum hwt_auxtrace_type type);

/* Iteration: backends in registration order, NULL past the end. */
HWT_API const struct hwt_backend *hwt_backend_at(size_t index);

/* Writes @label and the names of the backends whose decoder this build
 * has (" none" when no backend has one), then a line per backend without
 * one, saying why: what a user on a board (an arm64 build has no libipt)
 * reads before decoding. Returns 0, or HWT_ERR_IO when writing fails. */
HWT_API int hwt_backends_print_decoders(FILE *out, const char *label);

#ifdef __cplusplus
}
#endif

#endif
