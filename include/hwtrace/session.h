/* Capture sessions (DESIGN.md §4): open an AUX event and a sideband event
 * per CPU or per thread, map their rings, move what the kernel writes into
 * a capture sink, count every loss, take snapshots. hwtrace record is
 * built on this; so are tests, which plug in the kernel emulator as OS. */
#ifndef HWTRACE_SESSION_H
#define HWTRACE_SESSION_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "hwtrace/backend.h"
#include "hwtrace/common.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where captured data goes. Both callbacks return 0 or a negative hwt_err,
 * which ends the read with that error. */
struct hwt_capture_sink {
	void *ctx;
	/* A record of a data ring (sideband, PERF_RECORD_AUX, LOST, ...),
	 * header included, borrowed for the call. */
	int (*record)(void *ctx, const struct perf_event_header *rec);
	/* AUX bytes: @hdr->size bytes, the first @len1 at @data1 and the rest
	 * at @data2 (NULL when the bytes did not wrap the ring). Borrowed. */
	int (*auxtrace)(void *ctx, const struct hwt_pd_auxtrace *hdr,
			const void *data1, uint64_t len1, const void *data2);
};

/* The sink that writes a perf.data file: records as they are, AUX bytes
 * as AUXTRACE records (hwt_pd_auxtrace as the session fills it in). A
 * read that wrapped the ring becomes two records with consecutive
 * offsets, or one when @join_wrapped is set (for formats whose records
 * must not be cut between buffers, as perf's intel_bts decoder reads each
 * buffer alone). @w is borrowed and must outlive the sink.
 * Errors: HWT_ERR_INVAL, HWT_ERR_NOMEM. */
struct hwt_writer_sink;
HWT_API int hwt_writer_sink_new(struct hwt_pd_writer *w, bool join_wrapped,
				struct hwt_writer_sink **out);
/* The sink to put in hwt_session_opts; valid while @ws lives. */
HWT_API struct hwt_capture_sink hwt_writer_sink_get(struct hwt_writer_sink *ws);
/* NULL is a no-op. */
HWT_API void hwt_writer_sink_free(struct hwt_writer_sink *ws);

struct hwt_session_opts {
	size_t size;                /* sizeof(struct hwt_session_opts) */
	const struct hwt_os *os;    /* NULL: the real kernel */
	bool aux;                   /* open aux_attr (false: sideband only) */
	struct perf_event_attr aux_attr;
	/* Backend of the AUX event, for find_snapshot; may be NULL. */
	const struct hwt_backend *backend;
	bool sideband;              /* a dummy event with mmap2, comm, task,
				       context_switch, sample_id_all */
	bool sideband_backward;     /* map the sideband ring write_backward */
	const int *cpus;            /* per-CPU: these CPUs (borrowed) */
	int ncpus;
	pid_t pid;                  /* -1: every task; else this task */
	bool per_thread;            /* one event for @pid on any CPU */
	bool enable_on_exec;        /* start with the workload's exec */
	uint32_t data_pages;        /* power of two; 0: 128 */
	uint32_t aux_pages;         /* power of two; 0: 1024 (16 in snapshot) */
	bool snapshot;              /* AUX mapped read-only (overwrite) */
	struct hwt_capture_sink sink;
	/* The sideband event as the profile built it (borrowed, copied at
	 * open); NULL: hwtrace's own. Its sample_id fields and record bits
	 * are forced on either way. */
	const struct perf_event_attr *sideband_attr;
	/* Snapshot mode: copy at most this many of the newest bytes; 0: all
	 * that find_snapshot reports. For a backend with a record alignment
	 * (intel_bts) it is rounded down to whole records, at least one. */
	uint64_t snapshot_size;
	/* Keep aux_attr's sample_type and sample_id_all as given instead of
	 * adding the TID, TIME, CPU and IDENTIFIER sample ids: a replay's
	 * records must keep the layout of the file they came from. */
	bool aux_attr_as_is;
	/* AUX sampling (DESIGN.md §4): open @sample_attr (with
	 * PERF_SAMPLE_AUX and aux_sample_size) in each AUX event's group,
	 * its records redirected into the AUX event's ring, named
	 * @sample_name (borrowed; NULL: "sample") in the file. The AUX ring is
	 * then mapped in overwrite mode and never copied out: the samples
	 * carry the trace. */
	bool aux_sample;
	struct perf_event_attr sample_attr;
	const char *sample_name;
	/* Address filters in the kernel's syntax (hwt_addr_filter_resolve's
	 * output; borrowed, read only by hwt_session_open), set on each AUX event with
	 * PERF_EVENT_IOC_SET_FILTER after it is opened and before it is
	 * enabled; NULL or "": none. */
	const char *aux_filter;
	/* AUX pause/resume (hwtrace/auxaction.h): @nprobes events
	 * (@probe_attrs, borrowed, with aux_action set; at most
	 * HWT_SESSION_MAX_PROBES) opened in each AUX event's group, their
	 * samples redirected into the AUX event's ring, named
	 * @probe_names[i] in the file. The AUX event's own aux_action (e.g.
	 * start paused) is the caller's, in aux_attr. */
	const struct perf_event_attr *probe_attrs;
	const char *const *probe_names;
	size_t nprobes;
	/* Branch-stack sampling (docs/branch-records.md): open @branch_attr
	 * (a sampling event with PERF_SAMPLE_BRANCH_STACK, e.g. from
	 * hwt_branch_attr_build) per ring as the ring's own event, named
	 * @branch_name (borrowed; NULL: "branches"), the sideband event (if
	 * any) redirected into its ring. Not with @aux. The poll ends, as for
	 * AUX rings, when every branch event hung up. */
	bool branch;
	struct perf_event_attr branch_attr;
	const char *branch_name;
	/* The rest of the branch event's group (-e '{A,B,...}' for branch
	 * counters): @nbranch_members attributes (borrowed; at most
	 * HWT_SESSION_MAX_BRANCH_MEMBERS) opened per ring after it with it
	 * as group_fd, named @branch_member_names[i], in the file after it
	 * in this order. They count beside it (disabled 0: the group starts
	 * with its leader), they write no records of their own. */
	const struct perf_event_attr *branch_members;
	const char *const *branch_member_names;
	size_t nbranch_members;
};
#define HWT_SESSION_MAX_PROBES 4
#define HWT_SESSION_MAX_BRANCH_MEMBERS 7

/* Counters of one ring (a CPU, or the thread in per-thread mode). */
struct hwt_capture_stats {
	int cpu;                    /* -1 per thread */
	uint64_t aux_bytes;         /* AUX bytes captured */
	uint64_t aux_chunks;        /* AUXTRACE records handed to the sink */
	uint64_t aux_records;       /* PERF_RECORD_AUX seen */
	uint64_t aux_reported;      /* bytes those records reported */
	uint64_t truncated;         /* ... with TRUNCATED: data was lost */
	uint64_t collision;         /* ... with COLLISION */
	uint64_t partial;           /* ... with PARTIAL */
	uint64_t unmatched;         /* records not matching the ring's bytes */
	uint64_t lost_events;       /* PERF_RECORD_LOST seen */
	uint64_t lost_records;      /* records they say were lost */
	uint64_t reenables;         /* enables after the kernel disabled
				       the event: a TRUNCATED record, or a
				       ring with no room left whose event
				       is disabled (where the OS cannot
				       tell, as Linux: no room left) */
	uint64_t wakeups;           /* polls that found the ring readable */
	uint64_t snapshots;
	uint64_t snapshot_wraps;    /* snapshots whose buffer had wrapped */
	uint64_t records;           /* data-ring records moved */
};

struct hwt_session;

/* The CPUs online on this machine, 0 to N-1 (N as sysconf counts them,
 * at least 1), into *@out (malloc'd, the caller's to free): the CPUs a
 * session that names none traces. Returns N or HWT_ERR_NOMEM. */
HWT_API int hwt_online_cpus(int **out);

/* Checks @opts and copies them; the pointers in them (os, backend, cpus,
 * sideband_attr, sink.ctx) are borrowed and must outlive the session.
 * Errors: HWT_ERR_INVAL, HWT_ERR_CONFIG (sizes not a power of two),
 * HWT_ERR_NOMEM. */
HWT_API int hwt_session_new(const struct hwt_session_opts *opts,
			    struct hwt_session **out);

/* Opens the events and maps their rings. A refusal by the kernel is
 * explained: which limit (perf_event_paranoid, perf_event_mlock_kb,
 * RLIMIT_MEMLOCK), which PMU or term, and how to fix it (HWT_ERR_PERM,
 * HWT_ERR_NOMEM, HWT_ERR_NOENT, HWT_ERR_CONFIG). */
HWT_API int hwt_session_open(struct hwt_session *s);

/* The events opened, for the file's attribute section: @index from 0;
 * HWT_ERR_NOENT past the last. Pointers stay owned by @s. */
HWT_API int hwt_session_attr(const struct hwt_session *s, size_t index,
			     const struct perf_event_attr **attr,
			     const uint64_t **ids, size_t *nids,
			     const char **name);

/* Sees every data-ring record (borrowed for the call) before the sink
 * does, on the thread that reads the rings: the recorder's triggers
 * watch their probes' samples with it. NULL: none. */
typedef void (*hwt_record_observer)(void *arg,
				    const struct perf_event_header *rec);
HWT_API void hwt_session_set_observer(struct hwt_session *s,
				      hwt_record_observer fn, void *arg);

/* The file descriptors to poll, one per ring (borrowed). */
HWT_API size_t hwt_session_pollfds(struct hwt_session *s, struct pollfd *fds,
				   size_t max);

/* Polls the rings (and @extra, whose revents are filled in) for up to
 * @timeout_ms, then reads every ring. Returns 1 when every AUX ring hung
 * up (nothing more will come), 0 otherwise, or a negative error. */
HWT_API int hwt_session_poll(struct hwt_session *s, int timeout_ms,
			     struct pollfd *extra, size_t nextra);

/* Moves everything the rings hold to the sink. In full-trace mode the AUX
 * bytes are handed out in place and aux_tail advanced after the sink took
 * them; events the kernel disabled on a full buffer are enabled again. */
HWT_API int hwt_session_read(struct hwt_session *s);

/* Snapshot mode: disable each AUX event, find and copy its newest data,
 * enable it again. */
HWT_API int hwt_session_snapshot(struct hwt_session *s);

/* Enables or disables every event (the control FIFO's enable/disable). */
HWT_API int hwt_session_enable(struct hwt_session *s, bool enable);

/* Disables the events, reads what is left (all of it, not only whole
 * 8-byte words), unmaps and closes. */
HWT_API int hwt_session_stop(struct hwt_session *s);

/* The time conversion the kernel publishes in the first ring's user page
 * (for PERF_RECORD_TIME_CONV). HWT_ERR_NOSUP when the kernel does not
 * provide cap_user_time_zero (perf then writes no TIME_CONV either). */
HWT_API int hwt_session_time_conv(const struct hwt_session *s,
				  struct hwt_pd_time_conv *tc);

/* The session's rings (one per CPU, or one per thread) and the counters of
 * ring @ring: bytes captured, losses and why, wakeups. Stats are copied
 * into @stats; HWT_ERR_NOENT when @ring is past the end. */
HWT_API size_t hwt_session_nr_rings(const struct hwt_session *s);
HWT_API int hwt_session_stats(const struct hwt_session *s, size_t ring,
			      struct hwt_capture_stats *stats);

/* Stops if needed and frees; NULL is a no-op. */
HWT_API void hwt_session_free(struct hwt_session *s);

/* A workload started stopped, for enable_on_exec: forked now, exec'd by
 * hwt_workload_start. @argv is copied by fork. Errors: HWT_ERR_IO. */
struct hwt_workload;
HWT_API int hwt_workload_new(char *const argv[], struct hwt_workload **out);
HWT_API pid_t hwt_workload_pid(const struct hwt_workload *w);
/* Lets the child exec. HWT_ERR_NOENT when the exec failed (message names
 * the program and errno). */
HWT_API int hwt_workload_start(struct hwt_workload *w);
/* Whether it exited (1, status in *status), is running (0), or error. */
HWT_API int hwt_workload_poll(struct hwt_workload *w, int *status);
/* How long a traced program has to end after the SIGTERM of a stop
 * before it gets SIGKILL (hwt_workload_free, and sw_branch's program). */
#define HWT_TERM_GRACE_MS 2000

/* Ends a child that is still running, as perf record does: SIGTERM, and
 * SIGKILL when it has not ended HWT_TERM_GRACE_MS later (at once when it
 * was never started); reaps it and frees. NULL: no-op. */
HWT_API void hwt_workload_free(struct hwt_workload *w);

/* The control FIFO (`--control fifo:CTL[,ACK]`), as perf's: commands
 * "snapshot", "enable", "disable", "stop", each answered "ack\n" on ACK. */
enum hwt_control_cmd {
	HWT_CTL_NONE = 0,
	HWT_CTL_SNAPSHOT,
	HWT_CTL_ENABLE,
	HWT_CTL_DISABLE,
	HWT_CTL_STOP,
	HWT_CTL_UNKNOWN,
};
struct hwt_control;
/* @spec is "fifo:CTL" or "fifo:CTL,ACK"; the FIFOs must exist. Errors:
 * HWT_ERR_CONFIG (bad spec), HWT_ERR_NOENT, HWT_ERR_IO. */
HWT_API int hwt_control_open(const char *spec, struct hwt_control **out);
HWT_API int hwt_control_fd(const struct hwt_control *c);
/* Reads a command when the fd is readable; HWT_CTL_NONE when there is no
 * whole line yet. */
HWT_API enum hwt_control_cmd hwt_control_read(struct hwt_control *c);
HWT_API int hwt_control_ack(struct hwt_control *c);
HWT_API void hwt_control_free(struct hwt_control *c);

#ifdef __cplusplus
}
#endif

#endif
