/* sw_branch's triggers: parsing "symbol:", "latency:" and "signal:" and
 * deciding, step by step, when one fires. Function entry is the step that
 * lands on FUNC's first instruction; its return is the step that lands on
 * the return address with the call's frame popped (as --filter's one call
 * ends), so recursion and calls from other threads are told apart. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "backends/sw-branch/swb_trigger.h"
#include "hwtrace/error.h"
#include "hwtrace/trigger.h"
#include "hwtrace/swbranch.h"

/* The signals whose default action ends the program, which a "signal:"
 * trigger may name. SIGKILL and SIGSTOP never reach a tracer; SIGTRAP is
 * the stepping's own. */
static const struct {
	int sig;
	const char *name;
} fatal_signals[] = {
	{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
	{SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},   {SIGSYS, "SIGSYS"},
	{SIGQUIT, "SIGQUIT"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
	{SIGHUP, "SIGHUP"},   {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},
	{SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGXCPU, "SIGXCPU"},
	{SIGXFSZ, "SIGXFSZ"},
};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

const char *hwt_swb_signal_name(int sig)
{
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i].sig == sig)
			return fatal_signals[i].name;
	return NULL;
}

static int parse_signals(const char *list, struct hwt_swb_trigger *t)
{
	char copy[256], *save = NULL;

	if (!*list || strlen(list) >= sizeof(copy))
		return hwt_error(HWT_ERR_CONFIG, "--trigger signal:%s: want a "
				 "list of signals, e.g. signal:SIGSEGV,SIGABRT",
				 list);
	strcpy(copy, list);
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		const char *name = strncasecmp(s, "SIG", 3) ? s : s + 3;
		size_t i;
		for (i = 0; i < NFATAL; i++)
			if (!strcasecmp(name, fatal_signals[i].name + 3))
				break;
		if (i == NFATAL)
			return hwt_error(HWT_ERR_CONFIG, "--trigger signal:%s: '%s' "
					 "is not a signal whose default action "
					 "ends the program (SIGSEGV, SIGABRT, "
					 "SIGBUS, SIGFPE, SIGILL, SIGSYS, SIGQUIT, "
					 "SIGTERM, SIGINT, SIGHUP, SIGPIPE, "
					 "SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, "
					 "SIGXFSZ)", list, s);
		t->signals |= 1ull << fatal_signals[i].sig;
	}
	return 0;
}

int hwt_swb_parse_duration(const char *s, uint64_t *ns)
{
	return hwt_trigger_parse_duration(s, ns);
}

int hwt_swb_trigger_parse(const char *spec, struct hwt_swb_trigger *t)
{
	memset(t, 0, sizeof(*t));
	if (!spec || strlen(spec) >= sizeof(t->text))
		return hwt_error(HWT_ERR_CONFIG, "--trigger: want symbol:FUNC, "
				 "latency:FUNC>DURATION or signal:SIGNALS");
	strcpy(t->text, spec);
	bool latency;
	int call = hwt_trigger_parse_call(spec, t->func, sizeof(t->func),
					  &latency, &t->threshold_ns);
	if (call) {
		t->kind = latency ? HWT_SWB_TRIGGER_LATENCY : HWT_SWB_TRIGGER_SYMBOL;
		return call < 0 ? call : 0;
	}
	if (!strncmp(spec, "signal:", 7)) {
		t->kind = HWT_SWB_TRIGGER_SIGNAL;
		return parse_signals(spec + 7, t);
	}
	return hwt_error(HWT_ERR_CONFIG, "--trigger %s: want symbol:FUNC[@BINARY], "
			 "latency:FUNC[@BINARY]>DURATION or "
			 "signal:SIGSEGV,SIGABRT,...", spec);
}

void hwt_swb_fire_describe(const struct hwt_swb_fire *f, unsigned window,
			   bool whole_call, char *buf, size_t size)
{
	const struct hwt_swb_trigger *t = f->trigger;
	int n = snprintf(buf, size, "trigger: %s\nwindow: %u\ntime: %" PRIu64
			 "\ntid: %d\n", t->text, window, f->time_ns, (int)f->tid);

	if (n < 0 || (size_t)n >= size)
		return;
	if (t->kind == HWT_SWB_TRIGGER_SIGNAL)
		snprintf(buf + n, size - (size_t)n, "signal: %s\n",
			 hwt_swb_signal_name(f->signal));
	else if (t->kind == HWT_SWB_TRIGGER_SYMBOL)
		snprintf(buf + n, size - (size_t)n, "entry: %" PRIu64 "\n", f->nth);
	else
		snprintf(buf + n, size - (size_t)n, "entry: %" PRIu64 "\n"
			 "call_start: %" PRIu64 "\nduration_ns: %" PRIu64
			 "\nwhole_call: %s\n", f->nth, f->entry_ns,
			 f->duration_ns, whole_call ? "yes" : "no");
}

int hwt_swb_duration_check(const char *text, uint64_t *ns)
{
	return hwt_trigger_duration_check(text, ns);
}

int hwt_swb_trigger_check(const char *trigger)
{
	struct hwt_swb_trigger t;
	return hwt_swb_trigger_parse(trigger, &t);
}

#if defined(__x86_64__)
static int stack_pointer(pid_t tid, uint64_t *sp)
{
	errno = 0;
	long v = ptrace(PTRACE_PEEKUSER, tid,
			(void *)offsetof(struct user_regs_struct, rsp), NULL);
	if (v == -1 && errno)
		return hwt_error(HWT_ERR_IO, "ptrace(PEEKUSER) of thread %d: %s",
				 (int)tid, strerror(errno));
	*sp = (uint64_t)v;
	return 0;
}

static int return_address(pid_t tid, uint64_t sp, uint64_t *ret)
{
	errno = 0;
	long v = ptrace(PTRACE_PEEKDATA, tid, (void *)sp, NULL);
	if (v == -1 && errno)
		return hwt_error(HWT_ERR_IO, "reading the return address of "
				 "thread %d: %s", (int)tid, strerror(errno));
	*ret = (uint64_t)v;
	return 0;
}
#else
static int stack_pointer(pid_t tid, uint64_t *sp)
{
	(void)tid;
	*sp = 0;
	return hwt_error(HWT_ERR_NOSUP, "sw_branch triggers need x86-64");
}

static int return_address(pid_t tid, uint64_t sp, uint64_t *ret)
{
	(void)tid;
	(void)sp;
	*ret = 0;
	return hwt_error(HWT_ERR_NOSUP, "sw_branch triggers need x86-64");
}
#endif

/* Whether the thread will die of @sig: it neither catches nor ignores it
 * (/proc/TID/status, SigCgt and SigIgn). */
static bool fatal_for(pid_t tid, int sig)
{
	char path[64], line[256];
	uint64_t caught = 0, ignored = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "SigCgt:", 7))
			caught = strtoull(line + 7, NULL, 16);
		else if (!strncmp(line, "SigIgn:", 7))
			ignored = strtoull(line + 7, NULL, 16);
	}
	fclose(f);
	uint64_t bit = 1ull << (sig - 1);
	return !(caught & bit) && !(ignored & bit);
}

static int fire(struct hwt_swb_trigger_state *s, struct hwt_swb_fire *f)
{
	if (s->trigger->kind != HWT_SWB_TRIGGER_SIGNAL && f->time_ns < s->armed_ns)
		return 0; /* not armed yet: counted, not written */
	f->trigger = s->trigger;
	s->fired++;
	int err = s->fire(s->arg, f);
	if (err)
		return err;
	return s->max_windows && s->fired >= s->max_windows;
}

static int on_entry(struct hwt_swb_trigger_state *s,
		    struct hwt_swb_trigger_thread *tt, pid_t tid, uint64_t now,
		    uint64_t run)
{
	uint64_t sp = 0, ret = 0;
	int err;

	s->entries++;
	if (s->trigger->kind == HWT_SWB_TRIGGER_SYMBOL) {
		struct hwt_swb_fire f = {.tid = tid, .time_ns = now,
					 .nth = s->entries};
		return fire(s, &f);
	}
	if (tt->depth == HWT_SWB_MAX_OPEN_CALLS)
		return 0; /* recursion this deep is not timed */
	if ((err = stack_pointer(tid, &sp)) || (err = return_address(tid, sp, &ret)))
		return err;
	tt->calls[tt->depth++] = (struct hwt_swb_open_call){ret, sp, now, run,
							    s->entries};
	return 0;
}

/* At a latency call's return address: the call returned when its frame
 * is popped (the stack pointer is above the one at entry); a frame a
 * longjmp skipped is dropped with it. */
static int on_return(struct hwt_swb_trigger_state *s,
		     struct hwt_swb_trigger_thread *tt, pid_t tid, uint64_t now,
		     uint64_t run)
{
	uint64_t sp = 0; /* set by stack_pointer on success */
	int err = stack_pointer(tid, &sp);

	if (err)
		return err;
	if (sp <= tt->calls[tt->depth - 1].sp)
		return 0;
	struct hwt_swb_open_call c = tt->calls[--tt->depth];
	while (tt->depth && sp > tt->calls[tt->depth - 1].sp)
		tt->depth--;
	s->calls_seen++;
	if (run - c.entry_run_ns <= s->trigger->threshold_ns)
		return 0;
	struct hwt_swb_fire f = {.tid = tid, .time_ns = now, .nth = c.nth,
				 .entry_ns = c.entry_ns,
				 .duration_ns = run - c.entry_run_ns};
	return fire(s, &f);
}

int hwt_swb_trigger_step(struct hwt_swb_trigger_state *s,
			 struct hwt_swb_trigger_thread *tt, pid_t tid,
			 uint64_t pc, int sig, uint64_t now, uint64_t run)
{
	const struct hwt_swb_trigger *t = s->trigger;

	if (t->kind == HWT_SWB_TRIGGER_SIGNAL) {
		if (!sig || sig >= 64 || !(t->signals >> sig & 1) ||
		    !fatal_for(tid, sig))
			return 0;
		struct hwt_swb_fire f = {.tid = tid, .time_ns = now, .signal = sig};
		/* One window: the program dies of the signal next. */
		int r = fire(s, &f);
		return r < 0 ? r : 1;
	}
	if (t->kind == HWT_SWB_TRIGGER_LATENCY && tt->depth &&
	    pc == tt->calls[tt->depth - 1].ret) {
		int r = on_return(s, tt, tid, now, run);
		if (r)
			return r;
	}
	if (pc == s->addr)
		return on_entry(s, tt, tid, now, run);
	return 0;
}
