/* The stepping engine of sw_branch: runs a program under ptrace and turns
 * every taken branch between the start and stop addresses into a BTS
 * record. Where the records go is the caller's business (a perf.data file,
 * or the emulated kernel's AUX ring). */
#ifndef HWT_SWB_TRACE_H
#define HWT_SWB_TRACE_H

#include <sys/types.h>

#include "backends/sw-branch/swb_maps.h"
#include "backends/sw-branch/swb_trigger.h"
#include "hwtrace/swbranch.h"

struct hwt_swb_trace_cbs {
	/* The process stopped at exec, before the dynamic loader ran: its
	 * map then. Optional. */
	int (*on_exec)(void *arg, pid_t pid, const char *exe,
		       const struct hwt_swb_maps *maps);
	/* Tracing begins: the process and its map at that moment. */
	int (*on_start)(void *arg, pid_t pid, const char *exe,
			const struct hwt_swb_maps *maps);
	/* A branch is about to be recorded to code outside every executable
	 * mapping known so far (a library dlopen mapped, JIT code): the
	 * process's map now, before that record. Optional. */
	int (*on_mapped)(void *arg, pid_t pid, const struct hwt_swb_maps *maps);
	/* One 24-byte BTS record of thread @tid. Each thread's records form
	 * a stream of their own, from a trace-begin record {0, pc}. */
	int (*on_record)(void *arg, pid_t tid, const uint8_t *rec);
	/* Tracing ended: the process's map, read while the thread that ended
	 * it is still stopped (for code mapped while it was traced), or NULL
	 * when it exited while traced. Optional. */
	int (*on_end)(void *arg, pid_t pid, const struct hwt_swb_maps *maps);
	/* opts->trigger fired (the thread that fired it is stopped, its
	 * last record given to on_record). Required with a trigger. */
	int (*on_trigger)(void *arg, const struct hwt_swb_fire *f);
	void *arg;
};

/* 0 when this build can step programs (x86-64); otherwise HWT_ERR_NOSUP
 * with the reason, so a record is refused before it writes anything. */
int hwt_swb_check_arch(void);

/* Traces opts->argv from opts->start to opts->stop; with opts->trigger,
 * calls on_trigger each time it fires, and ends tracing as --stop does
 * once opts->trigger_count windows were asked for. Returns 0 or a
 * negative hwt_err (those of hwt_swb_record, or a callback's). */
int hwt_swb_trace(const struct hwt_swb_opts *opts,
		  const struct hwt_swb_trace_cbs *cbs,
		  struct hwt_swb_stats *stats);

/* In the tracer process: SIGTERM becomes a stop request (the first ends
 * tracing and passes SIGTERM on to the program, the second kills it) and
 * SIGINT is left to the caller, which forwards it. */
void hwt_swb_trace_catch_stop(void);

#endif
