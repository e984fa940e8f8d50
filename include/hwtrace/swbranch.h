/* The software branch tracer (backend `sw_branch`): records the real
 * branches of a real process by single-stepping it under ptrace, for
 * machines without trace hardware. It writes Intel BTS records
 * ({from, to, flags}, 24 bytes each), so its captures declare perf's
 * intel_bts AUXTRACE_INFO layout and are decoded by the BTS decoder, by
 * hwtrace and by `perf script --itrace=b` alike.
 *
 * Every instruction traps into the kernel: expect a few hundred thousand
 * instructions per second (docs/sw-branch.md has the measured rate), so
 * trace from --start to --stop only the part that matters. x86-64 only in
 * this version. The thread that reaches the start is traced, and every
 * thread the program starts from then on, each in a per-thread stream. */
#ifndef HWTRACE_SWBRANCH_H
#define HWTRACE_SWBRANCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/emulator.h"
#include "hwtrace/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where stepping stands, for a progress display. */
struct hwt_swb_progress {
	uint64_t insns;       /* instructions stepped so far */
	uint64_t branches;    /* taken branches recorded so far */
	uint64_t elapsed_ns;  /* since stepping began */
	bool done;            /* the last call: stepping has ended */
};

/* Where to start or stop: a symbol of the program or of a library it has
 * loaded ("main", "exit", "parse+0x10"), a symbol of one file
 * ("exit@libc.so.6"), a run-time address ("0x4011d0"), or an address in a
 * file ("0x1149@./prog"). A symbol of the program is looked up first;
 * library symbols are found once the library is mapped (a start symbol at
 * the program's entry point, a stop symbol when the start is reached). */
struct hwt_swb_opts {
	size_t size;               /* sizeof(struct hwt_swb_opts) */
	char *const *argv;         /* the program and its arguments (PATH is
				      searched); borrowed */
	const char *start;         /* NULL: from the first instruction after
				      exec (the dynamic loader) */
	const char *stop;          /* NULL: until the program exits */
	/* Instead of start/stop, perf's address filter syntax:
	 * "filter SYM [@ FILE]" traces one call of SYM (its callees
	 * included) until it returns; "start ... , stop ..." as above. */
	const char *filter;
	uint64_t max_insns;        /* stop after this many; 0: no limit */
	uint64_t chunk_size;       /* bytes per write of the emulated trace
				      unit (at most half the AUX ring);
				      0: 64 KiB */
	const char *output;        /* the perf.data file to write */
	bool quiet_child;          /* the program's stdout/stderr go to
				      /dev/null */
	bool proc_sideband;        /* take mappings from /proc/PID/maps only,
				      not from the kernel's dummy event
				      (the automatic fallback when
				      perf_event_paranoid forbids it) */
	/* The capture session's rings (powers of two; 0: 128 data pages
	 * and an AUX ring of at least two writes). */
	uint32_t data_pages, aux_pages;
	/* How many times the caller was told to stop (its SIGINT and
	 * SIGTERM handlers count them here); NULL: never. The first request
	 * ends tracing as --max does, sends SIGTERM to the program and
	 * writes the capture once it has ended; the second kills the
	 * program (SIGKILL) at once, and the capture is written all the
	 * same. hwt_swb_record looks at it at least every 100 ms. */
	volatile const sig_atomic_t *stop_requests;
	/* Called about every @progress_ms milliseconds while stepping (0:
	 * 250), and once with @done true when stepping ends; NULL: never.
	 * It runs in the tracer process, a fork of the caller. */
	void (*progress)(void *arg, const struct hwt_swb_progress *p);
	void *progress_arg;
	uint32_t progress_ms;
	/* After a stop request the program has HWT_TERM_GRACE_MS to end on
	 * its SIGTERM, then it is killed (SIGKILL) and the capture written.
	 * Called (in the tracer process, with @progress_arg) once when the
	 * program outlives the SIGTERM by 100 ms, and once more with
	 * @killed true when it gets SIGKILL; NULL: never. */
	void (*waiting)(void *arg, int pid, bool killed);
	/* The flight recorder (docs/record.md). With @trigger set, the
	 * branches are not all written: each thread's last
	 * @snapshot_records records (0: 16384) are kept in memory, and
	 * each time the trigger fires they are written, with the sideband
	 * so far, as a complete capture of their own: "@output.1",
	 * "@output.2", ... (the window number), its trigger described in
	 * the HWT_PD_FEAT_HWTRACE_TRIGGER feature. Triggers:
	 * "symbol:FUNC[@BINARY]" (FUNC is entered), "latency:FUNC>DURATION"
	 * (a call of FUNC returned after longer than DURATION: 5ms, 200us),
	 * "signal:SIGSEGV,SIGABRT,..." (the program got a signal it will die
	 * of; it then dies of it, as it would have). A stop request writes
	 * no window of its own: the windows written before it stay. */
	const char *trigger;
	/* Windows to write before tracing ends as at --stop (0: one for
	 * symbol: and signal:, no limit for latency:). */
	uint64_t trigger_count;
	uint64_t snapshot_records;
	/* symbol: and latency: write no window until tracing has run this
	 * long (entries and calls before are counted, not written); a
	 * signal: trigger is always armed. */
	uint64_t trigger_after_ns;
	/* Called (in the tracer process, with @progress_arg) after each
	 * window's file is complete, with its path and the thread that
	 * fired the trigger; NULL: never. */
	void (*window_written)(void *arg, const char *path, int tid);
	/* Instead of running @argv: attach to the running process
	 * @attach_pid, all its threads (or only thread @attach_tid when it
	 * is not 0), trace them from where they stand until --stop, the
	 * last window of a trigger or a stop request, then detach: the
	 * program runs on as it was, never signalled. --start and 'filter'
	 * do not apply. */
	int32_t attach_pid, attach_tid;
};

/* Whether @trigger is one hwt_swb_opts.trigger takes: 0, or
 * HWT_ERR_CONFIG saying what is wrong (before any program is run). */
HWT_API int hwt_swb_trigger_check(const char *trigger);

/* A duration as triggers take it ("5ms", "250us", "1.5s", "100ns") into
 * *ns: 0, or HWT_ERR_CONFIG saying what is wanted. */
HWT_API int hwt_swb_duration_check(const char *text, uint64_t *ns);

/* Threads whose capture counters hwt_swb_stats carries. */
#define HWT_SWB_MAX_RINGS 16

struct hwt_swb_stats {
	uint64_t insns;        /* instructions executed while traced */
	uint64_t branches;     /* taken branches recorded */
	uint64_t bytes;        /* BTS bytes written */
	uint64_t elapsed_ns;   /* time spent stepping */
	uint64_t start_addr, stop_addr; /* resolved addresses (0: none) */
	int32_t pid;
	bool stopped;          /* reached --stop (else exited or limit) */
	bool exited;           /* the program exited while traced */
	bool kernel_sideband;  /* MMAP2 records came from the kernel's dummy
				  event (else from /proc/PID/maps) */
	int exit_status;       /* its wait status when it exited */
	bool interrupted;      /* stopped by a request (opts.stop_requests) */
	/* The capture session's counters, one per traced thread (the first
	 * HWT_SWB_MAX_RINGS), and the emulated trace unit's of each. */
	size_t nrings;
	struct hwt_capture_stats rings[HWT_SWB_MAX_RINGS];
	struct hwt_emu_stats trace[HWT_SWB_MAX_RINGS];
	/* The flight recorder: FUNC's entries, the latency trigger's calls
	 * that returned, the windows written, and whether tracing ended
	 * because the last window asked for was written. */
	uint64_t trigger_entries, trigger_calls, trigger_fired;
	bool trigger_done;
};

/* Runs the program, traces it from start to stop, lets it run to its end
 * untraced, and writes the capture to opts->output. The tracing runs in a
 * child process of its own, so the caller's other children are left
 * alone. The stepper is the live source of an emulated AUX PMU
 * (hwt_emu_stream_push_aux, paced so nothing is lost): a capture session
 * per traced thread reads that PMU's rings as it reads a kernel's and
 * writes what they hold. The capture holds: AUXTRACE_INFO in the
 * layout of perf's intel_bts, COMM and MMAP2 records of the process (from
 * /proc/PID/maps at exec, then from the kernel's `dummy` event on the
 * process, or from /proc/PID/maps again where perf_event_paranoid forbids
 * it), ITRACE_START, and the BTS records as AUXTRACE buffers.
 * @stats may be NULL. Errors: HWT_ERR_NOSUP (not x86-64), HWT_ERR_NOENT
 * (the program or a symbol was not found; the message names it),
 * HWT_ERR_PERM (ptrace refused: the message names
 * /proc/sys/kernel/yama/ptrace_scope), HWT_ERR_IO, and the writer's. */
HWT_API int hwt_swb_record(const struct hwt_swb_opts *opts,
			   struct hwt_swb_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
