/* hwt_recorder: what happens between "a session is configured" and "a
 * perf.data file is complete": the header records a decoder needs (event
 * attributes, PERF_RECORD_AUXTRACE_INFO from the backend, TIME_CONV) and
 * the poll / snapshot / control loop that drains the rings into the file.
 *
 * The caller builds the session and the writer (options, profile, output
 * checks are the caller's), then:
 *   hwt_recorder_new(&ro, s, w, &r);
 *   hwt_recorder_write_header(r, backend, pmu, &session_opts);
 *   hwt_recorder_run(r, control, workload, &status);
 *   hwt_session_stop(s); hwt_pd_writer_close(w); hwt_recorder_free(r);
 * hwt_recorder_request_stop and hwt_recorder_request_snapshot may be called
 * from another thread or from a signal handler while run() is polling. */
#ifndef HWTRACE_RECORDER_H
#define HWTRACE_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "hwtrace/backend.h"
#include "hwtrace/brstack.h"
#include "hwtrace/common.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_recorder_opts {
	size_t size;            /* sizeof(struct hwt_recorder_opts) */
	bool snapshot;          /* the session is in snapshot mode: snapshot
				   requests take one (ignored otherwise) */
	bool snapshot_on_exit;  /* one last snapshot when the loop ends */
	unsigned interval_ms;   /* a snapshot every so many ms (0: none) */
	int poll_ms;            /* longest wait of one poll (0: 50 ms) */
	/* A call trigger (hwtrace/trigger.h: symbol:FUNC, latency:FUNC>D)
	 * in snapshot mode: a snapshot when the session's probe event
	 * "probe:FUNC" fires (symbol) or when a call took longer than D
	 * between it and "probe:FUNC__return" (latency); each window is
	 * described in the file's trigger feature (HWT_PD_FEAT_HWTRACE_TRIGGER).
	 * The probes are the caller's (hwt_aux_action_call_probes). NULL:
	 * none. */
	const char *trigger;
	uint64_t trigger_count; /* at most so many windows; 0: no limit */
};

struct hwt_recorder;

/* A recorder of session @s into @w (both borrowed: they must outlive the
 * recorder). Errors: HWT_ERR_INVAL, HWT_ERR_NOMEM. */
HWT_API int hwt_recorder_new(const struct hwt_recorder_opts *opts,
			     struct hwt_session *s, struct hwt_pd_writer *w,
			     struct hwt_recorder **out);
/* Frees the recorder (NULL is fine); the session and writer stay. */
HWT_API void hwt_recorder_free(struct hwt_recorder *r);

/* The AUXTRACE_INFO record of @backend for the session (header included,
 * u32 type at offset 8, the backend's priv[] from offset 16) into
 * @rec/@max bytes; returns its size. NULL-tolerant: a NULL backend, one
 * without record ops, or without an info op gives HWT_ERR_NOSUP with a
 * message naming the backend. @pmu may be NULL (the emulated PMUs). */
HWT_API int hwt_recorder_auxtrace_info(const struct hwt_backend *backend,
				       const struct hwt_pmu *pmu,
				       const struct hwt_session *s,
				       const struct hwt_session_opts *so,
				       void *rec, size_t max);

/* Writes every event of the session (hwt_session_attr), the backend's
 * AUXTRACE_INFO and the session's TIME_CONV (when its user page has one).
 * For a live session; a replay writes the captured header instead. */
HWT_API int hwt_recorder_write_header(struct hwt_recorder *r,
				      const struct hwt_backend *backend,
				      const struct hwt_pmu *pmu,
				      const struct hwt_session_opts *so);

/* Adds @n of the session's events from the @first-th on (hwt_session_attr
 * order; SIZE_MAX: all from @first) to @w with their ids and names,
 * stopping after the session's last one. Errors: the writer's. */
HWT_API int hwt_recorder_add_session_attrs(struct hwt_pd_writer *w,
					   const struct hwt_session *s,
					   size_t first, size_t n);

/* Polls the session until it ends (the rings' events closed), a stop is
 * requested (signal, another thread, or STOP on @control), or @workload
 * (may be NULL) exits, whose wait status then goes to *status. Writes a
 * FINISHED_ROUND after each pass that wrote records, takes the requested
 * snapshots, and answers @control (may be NULL). Does not stop the
 * session. Returns 0 or the first error. */
HWT_API int hwt_recorder_run(struct hwt_recorder *r, struct hwt_control *control,
			     struct hwt_workload *workload, int *status);

/* Async-signal-safe and thread-safe: the loop ends at its next wake-up
 * (at most poll_ms later). A stop requested before run() makes run()
 * return at once, before reading the rings (the session's stop drains
 * them). */
HWT_API void hwt_recorder_request_stop(struct hwt_recorder *r);
/* Async-signal-safe and thread-safe: one snapshot at the next wake-up
 * (snapshot mode only). */
HWT_API void hwt_recorder_request_snapshot(struct hwt_recorder *r);
/* What a call trigger saw: FUNC's entries, the calls that returned
 * (latency), the fires and the windows (snapshots) that hold them. */
struct hwt_recorder_trigger_stats {
	uint64_t entries, calls, fired, windows;
};
HWT_API void hwt_recorder_trigger_stats(const struct hwt_recorder *r,
					struct hwt_recorder_trigger_stats *st);

/* A recording's closing lines to @out (hwtrace record's, @prefix
 * "hwtrace record" on the first): per CPU (or "thread" when the first
 * ring's cpu is -1) what was captured, in how many chunks and wakeups,
 * the snapshots, and every loss; with @trace (the emulated trace unit's
 * counters of each ring; NULL, or a NULL entry: none) what it produced,
 * dropped and, in snapshot mode, what the snapshots kept and what was
 * overwritten before one, and a replay's losses, the capture's apart
 * from its own; with @filters (each ring's emulated address filters;
 * NULL or "" entries: none) those filters. */
struct hwt_capture_stats;
struct hwt_emu_stats;
HWT_API void hwt_record_print_capture_stats(FILE *out, const char *prefix,
					    const struct hwt_capture_stats *rings,
					    size_t n,
					    const struct hwt_emu_stats *const *trace,
					    const char *const *filters);
/* The same for session @s's rings (hwt_session_stats), with @emu's trace
 * units' counters and address filters when it runs on the kernel
 * emulator (@emu not NULL). Errors: HWT_ERR_NOMEM (nothing printed). */
struct hwt_emu;
HWT_API int hwt_record_print_session_stats(FILE *out, const char *prefix,
					   struct hwt_session *s,
					   struct hwt_emu *emu);

/* A call trigger's closing line: @trigger's entries, calls returned,
 * fires and the windows that hold them. */
HWT_API void hwt_record_print_trigger_stats(FILE *out, const char *prefix,
					    const char *trigger,
					    const struct hwt_recorder_trigger_stats *ts);
/* A compressed file's closing line: @in bytes of records (and of trace,
 * @aux: HWT_PD_COMPRESS_AUX) written as @compressed, and their ratio
 * (0 when nothing was written); hwt_pd_writer_compression_stats gives
 * the numbers. */
HWT_API void hwt_record_print_compression(FILE *out, const char *prefix, bool aux,
					  uint64_t in, uint64_t compressed);

/* Whether a stop was asked for (by a request or a STOP command). */
HWT_API bool hwt_recorder_stop_requested(const struct hwt_recorder *r);

/* hwt_record_setup: the session options `hwtrace record -c PROFILE -e
 * EVENT` builds, for a client that records without the CLI (the Python
 * package): @profile (an INI file, or NULL for none) with @event (e.g.
 * "intel_pt/cyc/u"; NULL: none) and @cpus (a CPU list as -C takes,
 * "0-3,6"; NULL: the profile's) applied, validated against the PMUs @os
 * shows (hwt_profile_build_attrs' checks and messages), as session
 * options: the AUX event and its backend, the sideband event, ring pages,
 * snapshot mode and size, resolved address filters, and the CPUs (the
 * profile's, else every online one) or per-thread. With @emu (the
 * emulator @os is the OS of; NULL for a real kernel) its trace units are
 * set up as the backend's hardware behaves and a per-thread session
 * traces this process. AUX sampling profiles are refused (HWT_ERR_NOSUP).
 * Errors: HWT_ERR_CONFIG, HWT_ERR_NOENT, HWT_ERR_NOSUP, HWT_ERR_IO,
 * HWT_ERR_NOMEM, HWT_ERR_INVAL; the message is the library's. */
struct hwt_emu;
struct hwt_record_setup;
HWT_API int hwt_record_setup_new(const char *profile, const char *event,
				 const char *cpus, const struct hwt_os *os, struct hwt_emu *emu,
				 struct hwt_record_setup **out);
/* NULL is a no-op; sessions made by hwt_record_setup_session must be
 * freed first (they borrow the options). */
HWT_API void hwt_record_setup_free(struct hwt_record_setup *rs);
/* The options (owned by @rs), for a caller that changes them before
 * hwt_record_setup_session (pid, pages, enable_on_exec, ...). */
HWT_API struct hwt_session_opts *
hwt_record_setup_session_opts(struct hwt_record_setup *rs);
/* What hwt_recorder_write_header takes. */
HWT_API const struct hwt_backend *
hwt_record_setup_backend(const struct hwt_record_setup *rs);
HWT_API const struct hwt_pmu *hwt_record_setup_pmu(const struct hwt_record_setup *rs);
/* Whether the session is in snapshot mode (hwt_recorder_opts.snapshot). */
HWT_API bool hwt_record_setup_snapshot(const struct hwt_record_setup *rs);
/* The traced CPUs into *@cpus (borrowed), their count as the result;
 * per-thread: one entry, -1 (the emulator's hwt_emu_stream_aux takes
 * these). */
HWT_API int hwt_record_setup_cpus(const struct hwt_record_setup *rs,
				  const int **cpus);
/* On the kernel emulator @emu, its trace units behave as @backend's
 * hardware does (where aux_head stands in snapshot mode, the record
 * alignment at a wrap), and a per-thread session of @so traces this
 * process (its pid set). hwt_record_setup_new does this; a caller that
 * builds its session options itself calls it. Errors: the emulator's. */
HWT_API int hwt_record_emulate_backend(struct hwt_emu *emu,
				       const struct hwt_backend *backend,
				       struct hwt_session_opts *so);
/* Opens the session of the options, its records and trace going to @ws's
 * writer. Errors: those of hwt_session_new and hwt_session_open. */
HWT_API int hwt_record_setup_session(struct hwt_record_setup *rs,
				     struct hwt_writer_sink *ws,
				     struct hwt_session **out);

/* The trace `hwtrace record` is asked for: a profile file and the
 * options that override its keys (docs/config.md). Zero-initialise,
 * then set size. Messages name each value by its record option. */
struct hwt_record_request {
	size_t size;             /* sizeof(struct hwt_record_request) */
	const char *profile;     /* -c PROFILE: an INI file, or NULL */
	const char *event;       /* -e BACKEND[/TERMS/] (hwt_profile_parse_event) */
	const char *sink;        /* --sink: the backend's sink (cs_etm's when
				    no backend is named yet) */
	const char *filter;      /* --filter: the backend's address filters
				    (intel_pt's when no backend is named yet) */
	bool snapshot;           /* -S: session:mode = snapshot */
	uint64_t snapshot_size;  /* -S SIZE (with snapshot): snapshot:size */
	const char *cpus;        /* -C CPUS: session:cpus */
	bool per_thread;         /* --per-thread: session:per_thread */
};

/* Which of `hwtrace record`'s options were given, for the checks of
 * those that go together. Zero-initialise, then set size. */
struct hwt_record_combination {
	size_t size;               /* sizeof(struct hwt_record_combination) */
	bool snapshot;             /* -S */
	const char *call_trigger;  /* --trigger symbol:/latency:; NULL */
	const char *first_trigger; /* the first resume:/pause: --trigger; NULL */
	uint64_t trigger_count;    /* --trigger-count; 0: not given */
	int compress_level;        /* -z's level; 0: not given */
	bool compress_aux;         /* --compress-aux */
	const char *emulate;       /* --emulate CAPTURE */
	const char *emulate_trace; /* --emulate-trace FILE */
	bool emulate_tsc;          /* --emulate-tsc */
	const char *sysfs;         /* --sysfs DIR */
	const char *command;       /* the command's name (-- CMD); NULL */
	long pid;                  /* -p PID; -1: not given */
	const char *filter;        /* --filter */
	bool all_cpus;             /* -a */
	const char *cpus;          /* -C CPUS */
	const char *event;         /* -e */
	const char *profile;       /* -c PROFILE */
};

/* 0 when the options of @c go together, else HWT_ERR_CONFIG with the
 * first mistake in this order (so that several are always told of the
 * same one first): a call trigger without -S, a call trigger with
 * resume:/pause: ones, --trigger-count without a call trigger,
 * --compress-aux without -z; --emulate-trace or --emulate-tsc without
 * --sysfs, --sysfs with --emulate, a command or -p, a --sysfs that is no
 * directory, an empty --filter, nothing to trace, --emulate with
 * --filter, --emulate with a command, no -e and no profile. The message
 * names the options and says what to give. HWT_ERR_INVAL: no @c or no
 * size. */
HWT_API int hwt_record_check_combination(const struct hwt_record_combination *c);

struct hwt_profile;
/* The profile of @rq: its file (or an empty profile), then its options
 * in the order above. *@out is set, also on an error (NULL when the file
 * did not load), and is the caller's to free (hwt_profile_free). Errors:
 * those of hwt_profile_load, hwt_profile_parse_event and
 * hwt_profile_set_from, HWT_ERR_NOMEM. */
HWT_API int hwt_record_profile_load(const struct hwt_record_request *rq,
				    struct hwt_profile **out);

/* Where record writes without -o: the [session] output of the profile
 * file @profile (as `hwtrace config check` shows it; copied into @buf,
 * @size bytes, which the result then is), else "perf.data" (also for
 * NULL, a profile without the key, or one that does not load: that is
 * reported where the profile is read for the capture, and no error is
 * left set here). */
HWT_API const char *hwt_record_profile_output(const char *profile, char *buf,
					      size_t size);

struct hwt_event_plan;
/* The session options of a built event plan (hwt_profile_build_attrs):
 * its AUX event, backend, sideband event, snapshot size and per_thread
 * (or the one @so has), its ring sizes where @so has none, its CPUs or,
 * when it names none and is not per thread, every online CPU
 * (hwt_online_cpus, into *@online: the caller's to free; NULL
 * otherwise). @so borrows the plan's attributes and CPUs. Errors:
 * HWT_ERR_NOMEM. */
HWT_API int hwt_record_session_from_plan(const struct hwt_event_plan *plan,
					 struct hwt_session_opts *so,
					 int **online);

/* A replay (hwtrace record --emulate CAPTURE): after
 * hwt_emu_load_capture(@emu, @path), the session options that record the
 * capture again through the emulator: its AUX event as it was
 * (enable_on_exec cleared, aux_attr_as_is), the backend its AUXTRACE_INFO
 * names (with the emulated hardware's record alignment), its CPUs and the
 * task a per-CPU capture follows (hwt_pd_aux_task; a per-thread
 * capture's task is this process). Sets os, aux_attr, aux_attr_as_is,
 * backend, per_thread, pid, cpus and ncpus of @so (the CPUs are owned by
 * @emu). Errors: those of hwt_emu_replay_info and hwt_pd_aux_task. */
HWT_API int hwt_record_replay_session_opts(struct hwt_emu *emu,
					   const char *path,
					   struct hwt_session_opts *so);

/* A replay's header in place of hwt_recorder_write_header: the capture's
 * events, ids and names unchanged (its AUX event paused or not as the
 * session's), the session's own events after its AUX event (AUX
 * sampling's, the pause/resume probes), the capture's AUXTRACE_INFO and
 * TIME_CONV, and its features that describe the recording machine and
 * the binaries (build ids, cpuid, topology, ...; one it lacks is left
 * out). Errors: the writer's and the reader's of @path. */
HWT_API int hwt_recorder_write_replay_header(struct hwt_pd_writer *w,
					     struct hwt_emu *emu,
					     const char *path,
					     const struct hwt_session *s,
					     const struct hwt_session_opts *so);

/* A trace recording (hwtrace record -e BACKEND, -c PROFILE, --emulate,
 * --sysfs) from a request to a complete perf.data file: the machine (this
 * kernel; the emulator on a sysfs tree, fed the bytes of a trace file; or
 * the replay of a capture), the profile, its event plan and the session
 * options, the command or the task followed, the AUX pause/resume and
 * call triggers' probes, the writer, the header, the poll, and the
 * closing lines. Zero-initialise, then set size. */
enum hwt_trace_stage {
	/* The output is about to be created: from here on a stop request
	 * ends the capture with a complete file. */
	HWT_TRACE_STAGE_OPENING,
	/* The recorder exists (the callback's @r), before its header. */
	HWT_TRACE_STAGE_RECORDER,
	/* The command is about to start and the poll to begin: snapshot
	 * requests are taken from here on. */
	HWT_TRACE_STAGE_RUNNING,
	/* The recorder is about to be freed (@r NULL): detach from it. */
	HWT_TRACE_STAGE_DONE,
};

struct hwt_trace_request {
	size_t size;                  /* sizeof(struct hwt_trace_request) */
	/* The trace options over the profile's keys (hwt_record_profile_load);
	 * its size must be set. Ignored for a replay but for snapshot and
	 * snapshot_size. */
	struct hwt_record_request trace;
	const char *output;           /* the perf.data file to write */
	/* What is traced: a command (PATH searched; NULL: none), the task
	 * @pid (> 0), every CPU (@all_cpus, or trace.cpus: the command then
	 * only says how long). */
	char *const *argv;
	long pid;
	bool all_cpus;
	/* The machine: --emulate CAPTURE (replayed; NULL: none), or --sysfs
	 * DIR (the emulator on that tree; NULL: this kernel) fed the bytes
	 * of --emulate-trace FILE (NULL: none) on every traced CPU, with a
	 * TSC when @emulate_tsc. The emulated trace unit produces
	 * @emulate_rate MB/s, waiting for the reader when @emulate_lossless. */
	const char *emulate;
	const char *sysfs;
	const char *emulate_trace;
	bool emulate_tsc;
	double emulate_rate;
	bool emulate_lossless;
	/* AUX sampling: -e's sampling event (NULL: none), --aux-sample and
	 * its size (NULL: the default). */
	const char *sample_event;
	bool aux_sample;
	const char *aux_sample_size;
	uint32_t data_pages, aux_pages; /* -m: ring pages; 0: the default */
	bool snapshot_on_exit;        /* hwt_recorder_opts' */
	unsigned interval_ms;
	/* resume:/pause: triggers (hwt_aux_action_setup), or one call trigger
	 * (symbol:/latency:, hwt_recorder_opts.trigger) whose probes are at
	 * @call_func (FUNC[@BINARY]) with a return probe for @call_latency. */
	const char *const *triggers;
	size_t ntriggers;
	const char *call_trigger;
	const char *call_func;
	bool call_latency;
	uint64_t trigger_count;
	const char *control;          /* --control fifo:CTL[,ACK]; NULL: none */
	int compress_level;           /* -z's level; 0: no compression */
	bool compress_aux;            /* the trace compressed too */
	bool keep_partial;            /* hwt_pd_writer_keep_partial */
	/* The command line kept in the file's cmdline feature. */
	int cmdline_argc;
	char *const *cmdline_argv;
	/* The warnings and closing lines (hwt_record_print_session_stats, the
	 * trigger's and the compression's lines), each line starting with
	 * @prefix; NULL: none printed. */
	FILE *report;
	const char *prefix;
	/* Called at each stage (a caller's signal handlers reach the
	 * recorder there); NULL: not called. */
	void (*on_stage)(void *arg, enum hwt_trace_stage stage,
			 struct hwt_recorder *r);
	void *on_stage_arg;
};

/* How a trace recording ended, also on an error. */
struct hwt_trace_summary {
	bool recorded;         /* the file holds data (on a full disk too) */
	bool command_running;  /* the command had not ended: it is sent
				  SIGTERM, and SIGKILL HWT_TERM_GRACE_MS later */
	int status;            /* the command's wait status, when it ended */
};

/* Records as @rq says into its output: a complete file, or on a full
 * disk (HWT_ERR_NOSPC) the part recorded, marked as cut short, when
 * keep_partial or no file was there, else the file that was there; on
 * any other error no file (the writer discards what it began). @sum (may
 * be NULL) gets the summary. Errors: HWT_ERR_INVAL (no size, no output),
 * those of hwt_emu_load_capture, hwt_record_profile_load,
 * hwt_profile_build_attrs, hwt_addr_filter_resolve, the AUX actions, the
 * writer, the session, the control FIFO, the command's start and the
 * recorder's run. */
HWT_API int hwt_recorder_record_trace(const struct hwt_trace_request *rq,
				      struct hwt_trace_summary *sum);

/* Branch records sampled on the kernel emulator (hwtrace record -b
 * --emulate-branches, docs/branch-records.md) from the ground truth of
 * the sw_branch capture @path: its branches (decoded) into @emu's branch
 * sampler (hwt_emu_branch_source), its sideband records (the kernel's,
 * but its trace, AUX and ITRACE_START, and its samples; none of perf's
 * own) into the emulated ring before the samples
 * (hwt_emu_branch_record), and into @w its sideband events' attributes
 * and the features that say what ran where (build ids, the machine's
 * description). Errors: those of hwt_decode_file and of the reader;
 * HWT_ERR_FORMAT naming @path when it has no sideband event. */
HWT_API int hwt_record_branch_truth(const char *path, struct hwt_emu *emu,
				    struct hwt_pd_writer *w);

/* Branch-record sampling (hwtrace record -b / -j, docs/branch-records.md):
 * the last taken branches a CPU keeps (Intel LBR, Arch LBR, AMD BRS and
 * LBRv2, Arm BRBE) sampled into the file `perf record -b` writes, on one
 * of two machines: this one's kernel, following a command (the event is
 * cycles, one per online CPU, starting with its exec, with sideband), or
 * the kernel emulator, whose PMU is a sysfs tree's and whose program is
 * the branches of a sw_branch capture (the event is `branches`, per
 * thread; the emulated ring waits for the reader, so nothing is lost).
 * Zero-initialise, then set size. */
struct hwt_branch_request {
	size_t size;             /* sizeof(struct hwt_branch_request) */
	const char *profile;     /* an INI file whose [branch] section has
				    filter, period, freq; NULL: none */
	bool any;                /* -b: every taken branch (-j any) */
	const char *filter;      /* -j FILTERS: perf's names, comma-separated */
	uint64_t period, freq;   /* -c / -F; both 0: the profile's, else
				    perf's 4000 a second */
	uint32_t data_pages;     /* -m: data ring pages; 0: the default */
	const char *output;      /* the perf.data file to write */
	/* This machine: the command and its arguments (PATH searched). */
	char *const *argv;
	/* The emulator: its sysfs tree and the sw_branch capture. */
	const char *sysfs;
	const char *truth;
	/* Called with the recorder once it exists, before it polls, and with
	 * NULL before it is freed: a caller's signal handlers reach it there
	 * (hwt_recorder_request_stop). NULL: not called. */
	void (*on_recorder)(void *arg, struct hwt_recorder *r);
	void *on_recorder_arg;
	/* -e '{LEADER,MEMBER,...}': an event group for branch counters
	 * (hwt_branch_group_parse; NULL: the profile's [branch] group, else
	 * the one sampled event). Last, so that a caller built against the
	 * shorter struct (its size says so) has none. */
	const char *group;
};

/* What a branch-record sampling found and kept. */
struct hwt_branch_summary {
	bool emulated;              /* recorded on the emulator: the counts
				       below are its sampler's */
	uint64_t samples;           /* samples written */
	uint64_t lost;              /* branch records lost */
	struct hwt_branch_hw hw;    /* the branch-record hardware sampled */
};

/* Samples branch records as @rq says into its output (a complete file, or
 * none: the writer discards what it began on an error); @sum (may be
 * NULL) gets the summary. Errors: HWT_ERR_INVAL (what
 * hwt_branch_request_check refuses), HWT_ERR_CONFIG (a filter the emulator
 * cannot sample: transactions), those of hwt_branch_sampling_of,
 * hwt_branch_attr_build (what the hardware refuses), the emulator, the
 * session, the writer, the command's start. */
HWT_API int hwt_recorder_record_branch(const struct hwt_branch_request *rq,
				       struct hwt_branch_summary *sum);

/* Whether @rq is whole and its options go together, as
 * hwt_recorder_record_branch checks it before it opens anything: its size
 * and output set; -b (any) or -j (filter), not both; a period or a
 * frequency, not both; -e's group as hwt_branch_group_parse reads it
 * (what the PMU allows of it is checked once its sysfs is read); a
 * command or the emulator (its sysfs tree and its sw_branch capture),
 * exactly one of the two. 0, or HWT_ERR_INVAL with a
 * message naming the options (on a command line, a usage error). Opens
 * and reads nothing: a request made from a command line can be refused
 * before its output file is checked. */
HWT_API int hwt_branch_request_check(const struct hwt_branch_request *rq);

/* AUX sampling (docs/record.md): a sampling event beside the trace
 * event (`-e cycles/period=N/`) and `--aux-sample[=SIZE]`. */

/* Whether -e @event names a sampling event (cycles, branch-misses:u,
 * instructions/period=1000/, ...: hwt_sample_event_find's names). */
HWT_API bool hwt_record_sample_event_named(const char *event);

/* Puts the sampling event @event (NULL: the profile's own) with its
 * terms (period=N, freq=N, aux-sample-size=SIZE, keyed by -e) and the
 * --aux-sample size @size (NULL or "": none) into @p's [sample] keys,
 * and session:mode = sample (its origin --aux-sample, or -e for an
 * event with an aux-sample-size term). Errors: HWT_ERR_CONFIG naming
 * @event (a bad term, a missing '/', a sampling event without
 * --aux-sample or a size term); the profile's. */
HWT_API int hwt_record_sample_profile(struct hwt_profile *p, const char *event,
				      bool aux_sample, const char *size);

/* The AUX sampling session options of @plan (built from such a profile)
 * into @so: aux_sample, its sampling event's attribute and name. Its
 * size is checked against perf's limits and the PMU's psb_period
 * (hwt_aux_sample_size_check): a risky one is a warning in @warn
 * (@warn_size bytes; "" when none) for the caller to show. Errors:
 * HWT_ERR_CONFIG. */
HWT_API int hwt_record_sample_session(const struct hwt_profile *p,
				      const struct hwt_event_plan *plan,
				      struct hwt_session_opts *so, char *warn,
				      size_t warn_size);

/* The same for a replay (hwt_record_replay_session_opts has set @so):
 * the sampling event @event (NULL: cycles) with its terms and @size,
 * its attribute in the sample id layout of the capture's trace event
 * @aux_attr (period or freq, else a period of 4096; the size's default
 * HWT_AUX_SAMPLE_DEFAULT_SIZE); the psb_period of an intel_pt capture
 * checked as above. Errors: HWT_ERR_CONFIG naming the event (period and
 * freq both, not a sampling event, a bad term), HWT_ERR_NOMEM. */
struct perf_event_attr;
HWT_API int hwt_record_sample_replay(const char *event, bool aux_sample,
				     const char *size,
				     const struct perf_event_attr *aux_attr,
				     struct hwt_session_opts *so, char *warn,
				     size_t warn_size);

/* A backend that is its own trace source (hwt_program_ops in
 * hwtrace/backend.h: sw_branch steps the program under ptrace) has no
 * session to drive: `hwtrace record -e sw_branch` maps its options into
 * a struct hwt_swb_opts (hwtrace/swbranch.h), then
 *   be = hwt_record_program_backend(event);
 *   hwt_record_program_check_event(be, event);   (and each --trigger)
 *   hwt_record_program_resolve(be, &rq, &o, &profile);
 *   hwt_recorder_record_program(be, &o, &stats);
 * and prints what the summary (struct hwt_swb_stats) says. */
struct hwt_swb_opts;
struct hwt_swb_stats;

/* The backend -e @event names ("sw_branch", "sw_branch//u") when it is
 * its own trace source; NULL for any other event, or an unknown one. */
HWT_API const struct hwt_backend *hwt_record_program_backend(const char *event);

/* -e's value and a trigger as @be takes them: 0, or HWT_ERR_CONFIG with
 * a message saying what it takes. */
HWT_API int hwt_record_program_check_event(const struct hwt_backend *be,
					   const char *event);
HWT_API int hwt_record_program_check_trigger(const struct hwt_backend *be,
					     const char *trigger);

/* What a program recording's options mean together, beside those that
 * go to struct hwt_swb_opts as given. Zero-initialise, then set size. */
struct hwt_program_request {
	size_t size;             /* sizeof(struct hwt_program_request) */
	const char *profile;     /* -c FILE: its [snapshot] trigger (which
				    turns the flight recorder on),
				    trigger_count and size (bytes), for
				    what the options left unset; NULL */
	bool snapshot;           /* --snapshot: the flight recorder */
	uint64_t snapshot_bytes; /* --snapshot=SIZE given in bytes: its
				    whole records are kept; 0: not so */
	/* Out: the error was about the options' values (a command line
	 * shows its usage), not about reading the profile. */
	bool option_error;
};

/* Completes @o for @be from @rq: --tid alone attaches to the thread's
 * process; a program to run and an attach exclude each other, one is
 * needed; the profile's keys; then the flight recorder's options checked
 * together (a trigger needs --snapshot and --snapshot a trigger;
 * --trigger-count and --trigger-after need a trigger). The profile is
 * loaded into *@pp (the caller's to free, also on an error: @o's trigger
 * may point into it). Errors: HWT_ERR_CONFIG naming the option or the
 * profile's key; the profile reader's. */
HWT_API int hwt_record_program_resolve(const struct hwt_backend *be,
				       struct hwt_program_request *rq,
				       struct hwt_swb_opts *o,
				       struct hwt_profile **pp);

/* Records as @o says through @be's program ops, the whole perf.data file
 * (or a flight recorder's windows); @stats (may be NULL) gets the
 * summary. Errors: HWT_ERR_NOSUP naming a backend that is not its own
 * trace source; the backend's. */
HWT_API int hwt_recorder_record_program(const struct hwt_backend *be,
					const struct hwt_swb_opts *o,
					struct hwt_swb_stats *stats);

/* A program recording's closing lines to @out, each starting with
 * @prefix ("hwtrace record"): with a flight recorder (@o's trigger), what
 * the trigger saw (entries or calls, fires), that no window was written
 * when it did not fire, and how the program ended (its exit status or
 * signal) or that it was let go (-p); else each traced thread's ring
 * (hwt_record_print_capture_stats), the detach (-p), and the stepping's
 * summary: instructions, branches, time and rate, why it ended, where
 * the sideband came from. The trigger is escaped for a terminal. */
HWT_API void hwt_record_print_program_stats(FILE *out, const char *prefix,
					    const struct hwt_swb_opts *o,
					    const struct hwt_swb_stats *st);

#ifdef __cplusplus
}
#endif

#endif
