/* The flight recorder's triggers (hwt_swb_opts.trigger): which event makes
 * sw_branch write a window of the branches it keeps in memory. The step
 * loop asks after every step whether the thread's new position, or the
 * signal it stopped with, fires the trigger. */
#ifndef HWT_SWB_TRIGGER_H
#define HWT_SWB_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum hwt_swb_trigger_kind {
	HWT_SWB_TRIGGER_SYMBOL = 1,   /* symbol:FUNC[@BINARY] */
	HWT_SWB_TRIGGER_LATENCY,      /* latency:FUNC[@BINARY]>DURATION */
	HWT_SWB_TRIGGER_SIGNAL,       /* signal:SIGSEGV,SIGABRT,... */
};

struct hwt_swb_trigger {
	enum hwt_swb_trigger_kind kind;
	char func[512];          /* FUNC[@BINARY] (symbol, latency) */
	uint64_t threshold_ns;   /* latency: calls longer than this fire */
	uint64_t signals;        /* signal: bit N for signal N */
	char text[600];          /* as given, for the window's description */
};

/* Parses @spec. HWT_ERR_CONFIG says what is wrong and what is valid. */
int hwt_swb_trigger_parse(const char *spec, struct hwt_swb_trigger *t);

/* "5ms", "250us", "1.5s", "100ns" into *ns; -1 when malformed. */
int hwt_swb_parse_duration(const char *s, uint64_t *ns);

/* What fired, handed to the recorder (hwt_swb_trace_cbs.on_trigger). */
struct hwt_swb_fire {
	const struct hwt_swb_trigger *trigger;
	pid_t tid;               /* the thread that fired it */
	uint64_t time_ns;        /* when (CLOCK_MONOTONIC, the records' clock) */
	uint64_t nth;            /* symbol, latency: the Nth entry of FUNC */
	uint64_t entry_ns;       /* latency: when the call began */
	uint64_t duration_ns;    /* latency: how long it took (thread clock) */
	int signal;              /* signal: which */
};

/* One call of a latency trigger's function still running in a thread. */
struct hwt_swb_open_call {
	uint64_t ret, sp;        /* its return address and stack pointer */
	uint64_t entry_ns, entry_run_ns, nth;
};

#define HWT_SWB_MAX_OPEN_CALLS 64

/* A thread's open calls (recursion nests them). */
struct hwt_swb_trigger_thread {
	struct hwt_swb_open_call calls[HWT_SWB_MAX_OPEN_CALLS];
	unsigned depth;
};

/* The trigger while a program is stepped. */
struct hwt_swb_trigger_state {
	const struct hwt_swb_trigger *trigger;
	uint64_t addr;           /* FUNC's run-time address */
	uint64_t max_windows;    /* 0: no limit */
	uint64_t armed_ns;       /* symbol, latency: no window before this
				    time (hwt_swb_opts.trigger_after_ns) */
	uint64_t entries;        /* FUNC entered (symbol, latency) */
	uint64_t calls_seen;     /* latency: calls that returned */
	uint64_t fired;          /* windows asked for */
	int (*fire)(void *arg, const struct hwt_swb_fire *f);
	void *arg;
};

/* After a step of thread @tid, now about to run @pc; @sig is the signal
 * it stopped with (0: none); @now_ns the time (CLOCK_MONOTONIC), @run_ns
 * the thread's own clock (the time it was let run), which latency
 * triggers measure calls with. Fires the trigger through s->fire when it
 * applies. Returns 1 when the windows asked for are all written (tracing
 * may end), 0, or a negative hwt_err. */
int hwt_swb_trigger_step(struct hwt_swb_trigger_state *s,
			 struct hwt_swb_trigger_thread *tt, pid_t tid,
			 uint64_t pc, int sig, uint64_t now_ns, uint64_t run_ns);

/* The window's description (HWT_PD_FEAT_HWTRACE_TRIGGER): "key: value"
 * lines saying which trigger, window number @window, when, which thread,
 * and for a latency trigger the call's number, its duration and
 * whether the window reaches back to its entry (@whole_call). */
void hwt_swb_fire_describe(const struct hwt_swb_fire *f, unsigned window,
			   bool whole_call, char *buf, size_t size);

/* The name of signal @sig ("SIGSEGV"), or NULL. */
const char *hwt_swb_signal_name(int sig);

#endif
