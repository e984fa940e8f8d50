/* The kernel emulator: a second implementation of the OS seam
 * (hwtrace/os.h) that behaves like the kernel for AUX PMUs, so captures can
 * be made and pipelines tested without trace hardware (DESIGN.md §6).
 *
 * Fake PMUs come from a sysfs fixture tree (and from hwt_emu_add_pmu).
 * perf_event_open gives a real file descriptor (an eventfd, so the emulated
 * events can be polled beside pipes and FIFOs); mmap lays out the user page,
 * data ring and AUX ring as the kernel does; a producer thread per AUX
 * event writes trace bytes from a stream of source bytes by the kernel's
 * rules:
 *   - full-trace mode (AUX mapped read-write) never passes aux_tail; when
 *     the buffer is full it writes what fits, emits PERF_RECORD_AUX with
 *     TRUNCATED and disables the event; a write that finds no room at all
 *     disables it with no record, as perf_aux_output_begin() does. Until the event is enabled again
 *     the source keeps flowing and its bytes are dropped (the traced
 *     program runs untraced), and counted;
 *   - overwrite mode (AUX mapped read-only) wraps, flags OVERWRITE;
 *   - every write is reported with PERF_RECORD_AUX, the start of tracing
 *     with PERF_RECORD_ITRACE_START, records that found the data ring full
 *     with PERF_RECORD_LOST once there is room again;
 *   - ENABLE / DISABLE / SET_OUTPUT / ID / PAUSE_OUTPUT ioctls are honoured;
 *     pollers wake when aux_watermark bytes were written, when the event
 *     was disabled, and with POLLHUP once its stream is exhausted.
 * While an event is disabled by the user (not by the kernel), its source
 * pauses. */
#ifndef HWTRACE_EMULATOR_H
#define HWTRACE_EMULATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/os.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The time conversion emulated user pages publish (cap_user_time_zero
 * set; see hwt_emu_set_time_conv): a TSC of 2 GHz that started counting 5 s
 * before CLOCK_MONOTONIC's zero, the clock of the emulator's sample
 * times, so time_zero + (tsc * time_mult >> time_shift) gives that clock:
 * time_mult = 2^31 * 1e9 / 2e9, time_zero = 2^64 - 5e9. */
#define HWT_EMU_TSC_HZ 2000000000ull
#define HWT_EMU_TIME_SHIFT 31u
#define HWT_EMU_TIME_MULT 1073741824u
#define HWT_EMU_TIME_ZERO 18446744068709551616ull

/* The perf type of the emulated uprobe PMU, which its sysfs answers
 * for bus/event_source/devices/uprobe/type when the fixture has none.
 * Its events, in an AUX event's group, fire where the replayed trace
 * enters or leaves a function and pause or resume the AUX trace by their
 * aux_action (hwtrace/auxaction.h; core/emulator/emu_probe.c says how the
 * calls are found and which traces allow it). */
#define HWT_EMU_UPROBE_TYPE 0x7570u

struct hwt_emu_opts {
	size_t size;             /* sizeof(struct hwt_emu_opts) */
	const char *sysfs_root;  /* fixture tree for sysfs reads; NULL: none */
	uint64_t rate;           /* trace bytes per second per event; 0: as
				    fast as the producer can write */
	uint64_t burst;          /* bytes written per step; 0: 4096 */
	/* Overwrite mode: report aux_head as an offset inside the buffer
	 * (Intel PT's driver) instead of a free-running position (the generic
	 * kernel, CoreSight). */
	bool head_in_buffer;
	/* The producer waits for the reader to make room instead of losing
	 * data (the data ring and, in full-trace mode, the AUX ring). Not the
	 * kernel's behaviour: for tests of layout and wrapping whose result
	 * must not depend on how the threads are scheduled, and for lossless
	 * replays. */
	bool paced;
};

/* Per-stream counters, from the emulated hardware's point of view. */
struct hwt_emu_stats {
	uint64_t produced;      /* source bytes the trace unit generated */
	uint64_t written;       /* bytes written into the AUX buffer */
	uint64_t dropped;       /* produced but not written */
	uint64_t truncations;   /* PERF_RECORD_AUX with TRUNCATED */
	uint64_t full_disables; /* writes that found no room at all: the
				   event was disabled without a record */
	uint64_t aux_records;   /* PERF_RECORD_AUX emitted */
	uint64_t lost_records;  /* data-ring records that did not fit */
	uint64_t wakeups;
	bool finished;          /* the whole source was produced */
	/* A loaded capture (hwt_emu_load_capture) replays each of its
	 * PERF_RECORD_AUX as one write with its flags: */
	uint64_t capture_writes;    /* writes that replayed one */
	uint64_t capture_truncated; /* ... flagged TRUNCATED: the capture's
				       own losses, not the replay's
				       (truncations counts those) */
	uint64_t capture_collision; /* ... flagged COLLISION */
	uint64_t capture_partial;   /* ... flagged PARTIAL */
	uint64_t barriers;          /* CoreSight barrier packets the
				       emulated sink driver put at the start
				       of a write after the replay's own
				       loss */
	uint64_t paused;            /* source bytes not written because an
				       aux_pause probe (or aux_start_paused)
				       had paused the trace */
	uint64_t idle_enables;      /* PERF_EVENT_IOC_ENABLE of an event
				       that was enabled: a no-op, as in the
				       kernel (a reader that cannot ask the
				       event's state enables it again for a
				       TRUNCATED record it read after it had
				       already found the ring full) */
};

/* Where AUX stream bytes came from: bytes [aux_pos, aux_pos + len) of the
 * AUX stream are source bytes [src_pos, src_pos + len). */
struct hwt_emu_segment {
	uint64_t aux_pos, src_pos, len;
};

struct hwt_emu;

/* Creates an emulator. @opts is copied. Errors: HWT_ERR_NOMEM,
 * HWT_ERR_INVAL. */
HWT_API int hwt_emu_new(const struct hwt_emu_opts *opts, struct hwt_emu **out);

/* Stops every producer and frees everything; NULL is a no-op. The OS
 * returned by hwt_emu_os must not be used afterwards. */
HWT_API void hwt_emu_free(struct hwt_emu *emu);

/* The OS seam served by @emu. Owned by @emu. */
HWT_API const struct hwt_os *hwt_emu_os(struct hwt_emu *emu);

/* Changes opts.head_in_buffer before any AUX buffer is mapped (for a
 * backend known only once the PMUs were scanned through the emulator).
 * HWT_ERR_BUSY once a producer runs. */
HWT_API int hwt_emu_set_head_in_buffer(struct hwt_emu *emu, bool in_buffer);

/* Record-aligned hardware: in overwrite mode the trace unit writes
 * records of @alignment bytes and wraps at the last whole record of the
 * buffer, so its last aux_size % @alignment bytes are never written, and
 * aux_head is reported as an offset in the buffer, as intel_bts does
 * (24). 0 (the default): a byte stream that wraps at the end of the
 * buffer. Set before any AUX buffer is written (e.g. once the PMUs were
 * scanned); HWT_ERR_BUSY once a producer runs. */
HWT_API int hwt_emu_set_aux_alignment(struct hwt_emu *emu,
				      unsigned int alignment);

/* Whether user pages mapped from now on publish the time conversion
 * above (the default) or none (cap_user_time_zero clear), as a kernel
 * without a usable TSC. */
HWT_API int hwt_emu_set_time_conv(struct hwt_emu *emu, bool publish);

/* The address filters last set with PERF_EVENT_IOC_SET_FILTER on the AUX
 * event of @cpu (-1: the per-thread event), copied into @buf ("" when
 * none). The emulated kernel refuses them (EINVAL) on an event that is not
 * an AUX PMU's and when they have more ranges than the fixture's
 * nr_addr_filters (a fixture PMU without that file has none; a PMU of
 * hwt_emu_add_pmu has no limit). HWT_ERR_NOENT when no AUX event was
 * opened on @cpu. */
HWT_API int hwt_emu_event_filter(struct hwt_emu *emu, int cpu, char *buf,
				 size_t size);

/* Declares an AUX PMU with perf type @type besides those of the sysfs
 * fixture. @name is copied. */
HWT_API int hwt_emu_add_pmu(struct hwt_emu *emu, const char *name,
			    uint32_t type);

/* Appends trace bytes to the source of the stream of @cpu (the AUX event
 * opened on @cpu; -1 for a per-thread event). The stream repeats @data
 * @repeat times (at least once). @data is borrowed and must outlive the
 * emulator. */
HWT_API int hwt_emu_stream_aux(struct hwt_emu *emu, int cpu, const void *data,
			       uint64_t len, uint64_t repeat);

/* Appends a sideband record (a perf_event_header and its body, copied) to
 * the stream of @cpu: it is written into that event's data ring once the
 * source bytes before it were produced. */
HWT_API int hwt_emu_stream_record(struct hwt_emu *emu, int cpu,
				  const void *record);

/* Live sources: a producer outside the emulator (a software tracer)
 * appends to a stream while the emulated trace unit writes it, and the
 * stream ends when it is closed and everything pushed was produced.
 * Streams are named by @cpu as above, or, with @tid other than -1, by the
 * task a per-thread event (cpu -1) is opened for: each thread of a
 * program traced per thread has a stream of its own. Pushes wake the
 * producer thread; pushing never blocks. With opts.paced the trace unit
 * waits for the reader, so nothing pushed is lost however fast it
 * comes.
 *
 * hwt_emu_stream_push_aux copies @len bytes of trace;
 * hwt_emu_stream_push_record copies a sideband record (header and body)
 * that goes into the event's data ring after the bytes pushed before it;
 * hwt_emu_stream_close ends the stream (pushes after it fail with
 * HWT_ERR_INVAL). May be called before the event is opened and from any
 * thread. Errors: HWT_ERR_NOMEM, HWT_ERR_FORMAT (a record whose size is
 * not a multiple of 8), HWT_ERR_INVAL. */
HWT_API int hwt_emu_stream_push_aux(struct hwt_emu *emu, int cpu, int tid,
				    const void *data, uint64_t len);
HWT_API int hwt_emu_stream_push_record(struct hwt_emu *emu, int cpu, int tid,
				       const void *record);
HWT_API int hwt_emu_stream_close(struct hwt_emu *emu, int cpu, int tid);

/* The process, thread and sample id of the per-thread stream of @tid
 * (its ITRACE_START {pid, tid} and sample ids). The stream is a live
 * source from then on: an event opened on it before anything is pushed
 * waits for pushes, and ends only once the stream is closed. */
HWT_API int hwt_emu_stream_set_thread(struct hwt_emu *emu, int pid, int tid,
				      uint64_t id);

/* The sample id the AUX event of @cpu reports (PERF_EVENT_IOC_ID and the
 * sample_id of its records); by default ids are numbered from 1. */
HWT_API int hwt_emu_stream_set_id(struct hwt_emu *emu, int cpu, uint64_t id);

/* The pid/tid put in its ITRACE_START and sample ids; default -1/-1 per
 * CPU, the opened pid per thread. */
HWT_API int hwt_emu_stream_set_task(struct hwt_emu *emu, int cpu, int pid,
				    int tid);

/* Counters of the stream of @cpu, safe to call while it runs.
 * HWT_ERR_NOENT when there is no such stream. */
HWT_API int hwt_emu_stream_stats(struct hwt_emu *emu, int cpu,
				 struct hwt_emu_stats *stats);

/* hwt_emu_stream_stats of the stream of @cpu and @tid (see the live
 * sources above). */
HWT_API int hwt_emu_stream_stats_at(struct hwt_emu *emu, int cpu, int tid,
				    struct hwt_emu_stats *stats);

/* The source map of the stream of @cpu, for checking captured bytes
 * against their source. *segs stays valid until the emulator is freed or
 * produces more; call it after the stream finished. */
HWT_API int hwt_emu_stream_segments(struct hwt_emu *emu, int cpu,
				    const struct hwt_emu_segment **segs,
				    size_t *count);

/* The source byte at @src_pos of the stream of @cpu, or -1 past its end. */
HWT_API int hwt_emu_stream_source_byte(struct hwt_emu *emu, int cpu,
				       uint64_t src_pos);

/* Streams from a capture: every PERF_RECORD_AUX of the perf.data file at
 * @path becomes one write in the stream of its CPU, of its bytes (from
 * the AUXTRACE buffers) with its flags and time, and every sideband record
 * (all but AUX, LOST, AUXTRACE and the synthesized types) a record of that
 * stream, in file order; its AUX PMU is declared. A replayed TRUNCATED
 * disables the event as the kernel does, and the stream waits for the
 * enable; bytes no record reports are a write of their own at their
 * place. A CPU whose AUX records do not map onto its AUXTRACE bytes
 * (overwrite mode) has its AUXTRACE bytes as plain source bytes instead. The capture's
 * attributes, AUXTRACE_INFO and ids are kept for the caller
 * (hwt_emu_replay_*). Errors: those of hwt_pd_reader_open/next;
 * HWT_ERR_FORMAT when the file holds no AUXTRACE_INFO or AUX event. */
HWT_API int hwt_emu_load_capture(struct hwt_emu *emu, const char *path);

/* After hwt_emu_load_capture: the capture's AUX event attribute, the CPUs
 * of its streams (-1 for per-thread), its AUXTRACE_INFO record (whole,
 * header included) and its attributes with their ids, for writing a file
 * that reads like the original. Pointers are owned by @emu. */
struct hwt_emu_replay {
	const struct perf_event_attr *aux_attr;
	const int *cpus;
	int ncpus;
	const void *auxtrace_info;        /* NULL if none */
	size_t nattrs;
	const struct perf_event_attr *attrs;
	const uint64_t *const *ids;       /* ids[i] has nids[i] entries */
	const size_t *nids;
	const char *const *names;
	uint64_t aux_bytes;               /* sum of the AUXTRACE sizes */
	const void *time_conv;            /* its TIME_CONV record, or NULL */
};
HWT_API int hwt_emu_replay_info(struct hwt_emu *emu,
				struct hwt_emu_replay *out);

/* Branch records (docs/branch-records.md): on a machine whose sysfs
 * fixture has them (hwt_branch_hw_probe: Intel LBR and Arch LBR, AMD BRS,
 * Arm BRBE), a sampling event with PERF_SAMPLE_BRANCH_STACK of type
 * PERF_TYPE_HARDWARE and config PERF_COUNT_HW_BRANCH_INSTRUCTIONS counts
 * the taken branches of a ground truth and, every sample_period-th (or
 * once per 1/sample_freq seconds of the branches' own times, the period
 * then the branches since the last sample), writes a PERF_RECORD_SAMPLE
 * into its data ring: IP the newest branch's target, its task and time,
 * and the last branches before it that branch_sample_type keeps, newest
 * first, at most the hardware's depth (with PERF_SAMPLE_BRANCH_HW_INDEX:
 * Intel LBR's top-of-stack index, (kept - 1) % depth, else -1; with
 * TYPE_SAVE and PRIV_SAVE the type and user privilege; with
 * PERF_SAMPLE_BRANCH_COUNTERS, on an LBR whose fixture has
 * caps/branch_counter_nr and _width, a counter word per record after the
 * records: the taken branches since the filter's previous kept one, this
 * one included, saturating at the width; in a group, a field per member
 * opened with the sampler as group_fd that asks for counters, in the
 * order opened: a member counts branches, every taken one, or raw
 * 0xfec4, Crestmont's BR_INST_RETIRED.COND_TAKEN, the taken conditional
 * ones; other members, members that sample, and more fields than
 * caps/branch_counter_nr are refused). The emulated
 * kernel refuses, as the kernel does, a PMU without branch records
 * (EOPNOTSUPP), AMD BRS with a filter (EINVAL), counters where sysfs
 * has none (EINVAL), and filters outside
 * HWT_EMU_BRANCH_FILTERS (EOPNOTSUPP: the ground truth has no
 * transactions), and PERF_SAMPLE_BRANCH_CALL and _IND_CALL when a call of
 * the ground truth does not say whether it is direct
 * (HWT_EMU_BRANCH_CALL_KNOWN unset: its instruction could not be read).
 * The first such event opened samples the source; sideband records
 * given with hwt_emu_branch_record go into its ring before the samples.
 * With opts.paced the writer waits for the reader. */
struct hwt_emu_branch {
	uint64_t from, to, time;
	int32_t pid, tid;
	uint8_t kind; /* enum hwt_branch_kind */
	uint8_t flags; /* HWT_EMU_BRANCH_*: what the kind does not say */
};

/* A call's instruction was read: HWT_EMU_BRANCH_IND_CALL says which. */
#define HWT_EMU_BRANCH_CALL_KNOWN 0x1
/* The call is indirect (through a register or memory: `call *%rax`). */
#define HWT_EMU_BRANCH_IND_CALL 0x2

#define HWT_EMU_BRANCH_FILTERS                                              \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |              \
	 PERF_SAMPLE_BRANCH_HV | PERF_SAMPLE_BRANCH_ANY |                   \
	 PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN |      \
	 PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_IND_CALL |            \
	 PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_IND_JUMP |            \
	 PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |       \
	 PERF_SAMPLE_BRANCH_TYPE_SAVE | PERF_SAMPLE_BRANCH_HW_INDEX |       \
	 (1ull << 18) /* PRIV_SAVE */ |                                     \
	 (1ull << 19) /* COUNTERS: where sysfs has them */)

/* The deepest stack the emulator writes (Arm BRBE's 64); a fixture that
 * claims more is sampled this deep. */
#define HWT_EMU_BRANCH_MAX_DEPTH 64u

struct hwt_emu_branch_stats {
	uint64_t samples; /* samples written or lost */
	uint64_t written; /* records (sideband and samples) in the ring */
	uint64_t lost;    /* records that found the ring full */
};

/* Appends @n branches (copied), oldest first, to the ground truth. Errors:
 * HWT_ERR_NOMEM, HWT_ERR_BUSY once an event samples it. */
HWT_API int hwt_emu_branch_source(struct hwt_emu *emu,
				  const struct hwt_emu_branch *v, size_t n);
/* Appends a sideband record (header and body, copied). Errors as above,
 * HWT_ERR_FORMAT for a size that is not a multiple of 8. */
HWT_API int hwt_emu_branch_record(struct hwt_emu *emu, const void *record);
/* The counters of the branch source; HWT_ERR_NOENT when there is none. */
HWT_API int hwt_emu_branch_stats(struct hwt_emu *emu,
				 struct hwt_emu_branch_stats *st);

#ifdef __cplusplus
}
#endif

#endif
