/* ptrace single-stepping. After each step the new program counter is
 * compared with the address after the instruction just executed: when they
 * differ, a branch was taken. Instruction lengths come from the insn
 * helper through a cache, so each code address is decoded once. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/sw-branch/swb_filter.h"
#include "backends/sw-branch/swb_launch.h"
#include "backends/sw-branch/swb_trace.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/insn.h"
#include "hwtrace/error.h"

#if defined(__x86_64__)

/* Stop requests reach the tracer process as SIGTERM (hwt_swb_record
 * forwards its caller's). While the program runs untraced (before the
 * start, after the stop) the handler passes the request on to it at
 * once; while it is stepped, the step loop ends tracing first. A second
 * request kills it. */
static volatile sig_atomic_t stop_requests;
static volatile sig_atomic_t untraced = 1;
static volatile pid_t tracee;

static void on_stop_request(int sig)
{
	int saved = errno;

	(void)sig;
	stop_requests++;
	if (tracee > 0 && stop_requests > 1)
		kill(tracee, SIGKILL);
	else if (tracee > 0 && untraced)
		kill(tracee, SIGTERM);
	errno = saved;
}

/* SIGINT from the terminal reaches the whole process group: the caller
 * counts it and forwards it as SIGTERM, and the program gets its own. */
static void on_terminal_interrupt(int sig)
{
	(void)sig;
}

void hwt_swb_trace_catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_request;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_terminal_interrupt;
	sigaction(SIGINT, &sa, NULL);
}

#define ICACHE_BITS 16
#define ICACHE_SIZE (1u << ICACHE_BITS)

struct icache_entry {
	uint64_t addr;
	uint8_t len;
	uint8_t iclass;
	bool valid;
};

/* A traced thread. Its instruction's length and class are copied out of
 * the cache, which other threads' lookups may overwrite meanwhile. */
struct thr {
	pid_t tid;
	uint64_t pc;     /* the next instruction it runs */
	uint8_t len, iclass;
	int sig;         /* signal to deliver with its next step */
	bool in_flight;  /* stepping: a stop is still to come */
	bool active;
	struct hwt_swb_trigger_thread calls; /* a latency trigger's open calls */
	/* The thread's own clock for a latency trigger: the time it was let
	 * run (from each step's start to the tracer seeing its stop), which
	 * leaves out what the tracer does between steps; a step of one
	 * instruction other than a system call counts STEP_NOISE_NS at
	 * most (more is the machine's other load or the tracer waking
	 * late), while a system call counts all the time it blocked. */
	uint64_t step_ns, run_ns;
};

struct range {
	uint64_t start, end;
};

/* A step is about 10 us; one of 100 us is already ten times that. */
#define STEP_NOISE_NS 100000u

struct tracer {
	pid_t pid;
	struct thr *thr;
	size_t nthr, cap, nactive;
	bool until_return;  /* --filter: stop is the return address ... */
	uint64_t entry_sp;  /* ... reached with the stack above this */
	int mem_fd;
	/* Progress reports (hwt_swb_opts.progress). */
	void (*progress)(void *arg, const struct hwt_swb_progress *p);
	void *progress_arg;
	uint64_t progress_ns, t0, last_progress, next_progress_check;
	struct hwt_insn_decoder *dec;
	struct icache_entry *icache;
	struct range *known;  /* executable mappings at the last maps read */
	size_t nknown;
	bool ended;           /* on_end was called */
	/* The flight recorder's trigger (opts.trigger), or none. */
	struct hwt_swb_trigger trigger;
	struct hwt_swb_trigger_state trig;
	bool have_trigger;
	/* --trigger-after counts from the first record (the decode's trace
	 * on), not from when stepping was set up. */
	uint64_t trigger_after_ns;
	bool armed_at_first_record;
	/* -p: the threads attached to (stopped when attached). */
	pid_t *attached;
	size_t nattached;
	const struct hwt_swb_trace_cbs *cbs;
	struct hwt_swb_stats *st;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The clock is read once every 4096 instructions (about every 30 ms at
 * the stepping rate), a report made at most every progress_ns. */
static void report_progress(struct tracer *t, bool done)
{
	uint64_t now = now_ns();

	t->next_progress_check = t->st->insns + 4096;
	if (!done && now - t->last_progress < t->progress_ns)
		return;
	t->last_progress = now;
	struct hwt_swb_progress p = {
		.insns = t->st->insns, .branches = t->st->branches,
		.elapsed_ns = now - t->t0, .done = done,
	};
	t->progress(t->progress_arg, &p);
}

static int get_reg(pid_t pid, size_t offset, uint64_t *value)
{
	errno = 0;
	long v = ptrace(PTRACE_PEEKUSER, pid, (void *)offset, NULL);
	if (v == -1 && errno)
		return hwt_error(HWT_ERR_IO, "ptrace(PEEKUSER) of pid %d: %s",
				 (int)pid, strerror(errno));
	*value = (uint64_t)v;
	return 0;
}

static int get_pc(pid_t pid, uint64_t *pc)
{
	return get_reg(pid, offsetof(struct user_regs_struct, rip), pc);
}

static int set_pc(pid_t pid, uint64_t pc)
{
	if (ptrace(PTRACE_POKEUSER, pid,
		   (void *)offsetof(struct user_regs_struct, rip), (void *)pc))
		return hwt_error(HWT_ERR_IO, "ptrace(POKEUSER) of pid %d: %s",
				 (int)pid, strerror(errno));
	return 0;
}

/* The instruction at @pc, decoded once per address. */
static const struct icache_entry *insn_at(struct tracer *t, uint64_t pc)
{
	uint32_t h = (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> (64 - ICACHE_BITS));
	struct icache_entry *e = NULL;

	for (uint32_t i = 0; i < 8; i++) {
		struct icache_entry *c = &t->icache[(h + i) & (ICACHE_SIZE - 1)];
		if (c->valid && c->addr == pc)
			return c;
		if (!c->valid && !e)
			e = c;
	}
	if (!e)
		e = &t->icache[h];
	uint8_t code[HWT_INSN_MAX_SIZE];
	ssize_t n = pread(t->mem_fd, code, sizeof(code), (off_t)pc);
	struct hwt_insn insn;
	e->addr = pc;
	e->valid = true;
	if (n <= 0 || hwt_insn_decode(t->dec, code, (size_t)n, pc, &insn)) {
		/* Unreadable or undecodable: any next address is a branch. */
		e->len = 0;
		e->iclass = HWT_INSN_OTHER;
	} else {
		e->len = insn.size;
		e->iclass = (uint8_t)insn.iclass;
	}
	return e;
}

static int known_set(struct tracer *t, const struct hwt_swb_maps *maps)
{
	size_t n = 0;

	for (size_t i = 0; i < maps->n; i++)
		n += maps->v[i].exec;
	struct range *k = malloc((n ? n : 1) * sizeof(*k));
	if (!k)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
	n = 0;
	for (size_t i = 0; i < maps->n; i++)
		if (maps->v[i].exec)
			k[n++] = (struct range){maps->v[i].start, maps->v[i].end};
	free(t->known);
	t->known = k;
	t->nknown = n;
	return 0;
}

static bool known(const struct tracer *t, uint64_t addr)
{
	for (size_t i = 0; i < t->nknown; i++)
		if (addr >= t->known[i].start && addr < t->known[i].end)
			return true;
	return false;
}

/* Execution reached code outside the known mappings: the map is read
 * again while the thread is stopped there, so that code is described
 * before any record that runs it (and even if it is unmapped later). */
static int maps_refresh(struct tracer *t)
{
	struct hwt_swb_maps maps;
	int err = hwt_swb_maps_read(t->pid, &maps);

	if (err)
		return err;
	err = known_set(t, &maps);
	if (!err && t->cbs->on_mapped)
		err = t->cbs->on_mapped(t->cbs->arg, t->pid, &maps);
	hwt_swb_maps_clear(&maps);
	return err;
}

static int put_record(struct tracer *t, pid_t tid, uint64_t from, uint64_t to)
{
	uint8_t rec[HWT_BTS_RECORD_SIZE];
	/* The tracer's clock, as the sideband's (CLOCK_MONOTONIC). */
	uint64_t now = now_ns();
	struct hwt_bts_record r = {
		from, to,
		now << HWT_BTS_SWB_TIME_SHIFT | HWT_BTS_FLAG_SWB_TIME,
	};
	int err;

	if (!t->armed_at_first_record) {
		t->armed_at_first_record = true;
		t->trig.armed_ns = now + t->trigger_after_ns;
	}

	if (to && !known(t, to) && (err = maps_refresh(t)))
		return err;
	hwt_bts_record_write(rec, &r);
	t->st->bytes += sizeof(rec);
	if (from && to)
		t->st->branches++;
	return t->cbs->on_record(t->cbs->arg, tid, rec);
}

/* Runs the tracee until it executes @addr (a temporary int3 there). */
static int run_to(struct tracer *t, uint64_t addr, const char *what)
{
	errno = 0;
	long word = ptrace(PTRACE_PEEKTEXT, t->pid, (void *)addr, NULL);
	if (word == -1 && errno)
		return hwt_error(HWT_ERR_NOENT, "%s at 0x%llx is not mapped in "
				 "pid %d: %s", what, (unsigned long long)addr,
				 (int)t->pid, strerror(errno));
	long trap = (long)(((unsigned long)word & ~0xfful) | 0xcc);
	if (ptrace(PTRACE_POKETEXT, t->pid, (void *)addr, (void *)trap))
		return hwt_error(HWT_ERR_IO, "cannot set a breakpoint at %s "
				 "(0x%llx): %s", what, (unsigned long long)addr,
				 strerror(errno));
	int sig = 0, status = 0;
	for (;;) {
		if (ptrace(PTRACE_CONT, t->pid, NULL,
			   (void *)(long)(sig == SIGTRAP ? 0 : sig)))
			return hwt_error(HWT_ERR_IO, "ptrace(CONT): %s",
					 strerror(errno));
		int r = hwt_swb_wait_stop(t->pid, &sig, &status);
		if (r < 0)
			return r;
		if (r == 0) {
			t->st->exited = true;
			t->st->exit_status = status;
			if (stop_requests)
				return hwt_error(HWT_ERR_IO, "stopped before the "
						 "program reached %s (0x%llx): "
						 "nothing was traced", what,
						 (unsigned long long)addr);
			return hwt_error(HWT_ERR_NOENT, "the program ended before "
					 "it reached %s (0x%llx)", what,
					 (unsigned long long)addr);
		}
		uint64_t pc = 0;
		int err = get_pc(t->pid, &pc);
		if (err)
			return err;
		if (sig == SIGTRAP && pc == addr + 1)
			break;
	}
	if (ptrace(PTRACE_POKETEXT, t->pid, (void *)addr, (void *)word))
		return hwt_error(HWT_ERR_IO, "cannot remove the breakpoint at "
				 "0x%llx: %s", (unsigned long long)addr,
				 strerror(errno));
	return set_pc(t->pid, addr);
}

static struct thr *thr_find(struct tracer *t, pid_t tid)
{
	for (size_t i = 0; i < t->nthr; i++)
		if (t->thr[i].tid == tid)
			return &t->thr[i];
	return NULL;
}

/* A thread starts being traced at @pc: its stream begins there. */
static int thr_add(struct tracer *t, pid_t tid, uint64_t pc, struct thr **out)
{
	if (t->nthr == t->cap) {
		size_t ncap = t->cap ? 2 * t->cap : 8;
		void *n = realloc(t->thr, ncap * sizeof(*t->thr));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
		t->thr = n;
		t->cap = ncap;
	}
	struct thr *th = &t->thr[t->nthr++];
	memset(th, 0, sizeof(*th));
	th->tid = tid;
	th->pc = pc;
	th->active = true;
	t->nactive++;
	*out = th;
	return put_record(t, tid, 0, pc);
}

static int step(struct tracer *t, struct thr *th)
{
	const struct icache_entry *e = insn_at(t, th->pc);

	th->len = e->len;
	th->iclass = e->iclass;
	if (ptrace(PTRACE_SINGLESTEP, th->tid, NULL, (void *)(long)th->sig))
		return hwt_error(HWT_ERR_IO, "ptrace(SINGLESTEP) of thread %d: %s",
				 (int)th->tid, strerror(errno));
	th->sig = 0;
	th->in_flight = true;
	if (t->have_trigger)
		th->step_ns = now_ns();
	return 0;
}

/* The thread stopped after a step with @sig: what ran, and which branch
 * it took. */
static int transition(struct tracer *t, struct thr *th, int sig)
{
	uint64_t next = 0;
	int err;

	th->sig = sig == SIGTRAP ? 0 : sig;
	if ((err = get_pc(th->tid, &next)))
		return err;
	/* Nothing ran: a signal stopped the thread before the instruction
	 * (it is delivered with the next step), or the step was one
	 * iteration of a rep-prefixed instruction. */
	if (next == th->pc && (sig != SIGTRAP || th->iclass == HWT_INSN_OTHER))
		return 0;
	/* An instruction that does not branch but did not fall through never
	 * ran: a signal handler (or a fault) came first. It runs after the
	 * handler returns. */
	if (!(th->iclass == HWT_INSN_OTHER && th->len &&
	      next != th->pc + th->len))
		t->st->insns++;
	/* A jump to the next instruction is still a taken branch (lazy PLT
	 * entries jump to their own next instruction). */
	bool taken = next != th->pc + th->len ||
		     (hwt_insn_is_unconditional(th->iclass) &&
		      th->iclass != HWT_INSN_SYSCALL &&
		      th->iclass != HWT_INSN_SYSRET);
	if (taken && (err = put_record(t, th->tid, th->pc, next)))
		return err;
	th->pc = next;
	return 0;
}

/* The instruction the thread was stepping ended it (exit, exit_group). */
static int thr_ended(struct tracer *t, struct thr *th, int status)
{
	th->in_flight = false;
	th->active = false;
	t->nactive--;
	/* Its exit system call ran; another thread's exit_group only ends
	 * it. */
	if (th->iclass == HWT_INSN_SYSCALL)
		t->st->insns++;
	else
		th->len = 0;
	if (th->tid == t->pid) {
		t->st->exited = true;
		t->st->exit_status = status;
	}
	return put_record(t, th->tid, th->pc + th->len, 0);
}

/* The map at the end of tracing. Read while a thread is still stopped
 * under ptrace: once it is let go the program may exit and leave an
 * empty /proc/PID/maps. */
static int end_maps(struct tracer *t)
{
	struct hwt_swb_maps maps;
	int err;

	if (t->ended || !t->cbs->on_end)
		return 0;
	t->ended = true;
	if (t->st->exited)
		return t->cbs->on_end(t->cbs->arg, t->pid, NULL);
	if ((err = hwt_swb_maps_read(t->pid, &maps)))
		return err;
	err = t->cbs->on_end(t->cbs->arg, t->pid, &maps);
	hwt_swb_maps_clear(&maps);
	return err;
}

/* The next stop of any traced thread: 0, with *tid and *status. For a
 * program attached to, 1 when a stop request came while every thread was
 * running (perhaps blocked in a system call, for as long as it likes):
 * tracing ends without waiting for one to stop by itself. */
static int wait_any(struct tracer *t, pid_t *tid, int *status)
{
	for (;;) {
		if (t->attached && stop_requests)
			return 1;
		*tid = waitpid(-1, status, __WALL);
		if (*tid >= 0)
			return 0;
		if (errno != EINTR)
			return hwt_error(HWT_ERR_IO, "waitpid: %s", strerror(errno));
	}
}

/* Tracing ends with @cur stopped (NULL: every thread still stepping):
 * end every thread's stream and let the threads run on. A thread still
 * stepping may sit in a blocking system call, so it is stopped with a
 * SIGSTOP that is then not delivered (a step's trap that comes first is
 * taken as a step). */
static int finish(struct tracer *t, struct thr *cur)
{
	int err = cur ? put_record(t, cur->tid, cur->pc, 0) : 0;

	if (!err)
		err = end_maps(t);
	for (size_t i = 0; i < t->nthr && !err; i++) {
		struct thr *th = &t->thr[i];
		if (th == cur || !th->active)
			continue;
		syscall(SYS_tgkill, t->pid, th->tid, SIGSTOP);
		for (;;) {
			int status;
			if (waitpid(th->tid, &status, __WALL) < 0) {
				if (errno == EINTR)
					continue;
				err = hwt_error(HWT_ERR_IO, "waitpid(%d): %s",
						(int)th->tid, strerror(errno));
				break;
			}
			if (WIFEXITED(status) || WIFSIGNALED(status)) {
				err = thr_ended(t, th, status);
				break;
			}
			int sig = WSTOPSIG(status);
			if (!(status >> 16)) {
				if ((err = transition(t, th, sig)))
					break;
				if (sig == SIGSTOP) {
					th->sig = 0;
					err = put_record(t, th->tid, th->pc, 0);
					ptrace(PTRACE_DETACH, th->tid, NULL, NULL);
					th->active = false;
					break;
				}
			}
			/* A step or an event ended first: the SIGSTOP is
			 * reported before anything more runs. */
			if ((err = step(t, th)))
				break;
		}
	}
	if (!cur)
		return err;
	if (ptrace(PTRACE_DETACH, cur->tid, NULL, (void *)(long)cur->sig) && !err)
		err = hwt_error(HWT_ERR_IO, "ptrace(DETACH) of thread %d: %s",
				(int)cur->tid, strerror(errno));
	cur->active = false;
	return err;
}

static int step_loop(struct tracer *t, uint64_t start, uint64_t stop,
		     uint64_t max_insns)
{
	struct thr *th;
	int status, err;
	pid_t tid;

	if (t->attached) {
		/* Every thread attached to, from where it stands. */
		for (size_t i = 0; i < t->nattached; i++) {
			uint64_t pc = 0;
			if ((err = get_pc(t->attached[i], &pc)) ||
			    (err = thr_add(t, t->attached[i], pc, &th)) ||
			    (err = step(t, th)))
				return err;
		}
	} else {
		/* Threads the program starts from here on are traced too. */
		ptrace(PTRACE_SETOPTIONS, t->pid, NULL,
		       (void *)(long)(PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE));
		if ((err = thr_add(t, t->pid, start, &th)))
			return err;
		if (stop && start == stop) {
			t->st->stopped = true;
			return finish(t, th);
		}
		if ((err = step(t, th)))
			return err;
	}
	while (t->nactive) {
		if ((err = wait_any(t, &tid, &status)) == 1) {
			t->st->interrupted = true;
			return finish(t, NULL);
		}
		if (err)
			return err;
		th = thr_find(t, tid);
		if (!th) {
			/* A new thread, stopped before its first instruction. */
			uint64_t pc = 0;
			if (!WIFSTOPPED(status))
				continue;
			if ((err = get_pc(tid, &pc)) || (err = thr_add(t, tid, pc, &th)) ||
			    (err = step(t, th)))
				return err;
			continue;
		}
		th->in_flight = false;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (th->active && (err = thr_ended(t, th, status)))
				return err;
			continue;
		}
		if (status >> 16) {
			/* A clone event: the new thread reports by itself. */
			if ((err = step(t, th)))
				return err;
			continue;
		}
		if ((err = transition(t, th, WSTOPSIG(status))))
			return err;
		if (t->have_trigger) {
			uint64_t now = now_ns(), ran = now - th->step_ns;
			if (th->iclass != HWT_INSN_SYSCALL && ran > STEP_NOISE_NS)
				ran = STEP_NOISE_NS;
			th->run_ns += ran;
			err = hwt_swb_trigger_step(&t->trig, &th->calls, th->tid,
						   th->pc, th->sig, now, th->run_ns);
			if (err < 0)
				return err;
			if (err) {
				t->st->trigger_done = true;
				return finish(t, th);
			}
		}
		bool at_stop = stop && th->pc == stop;
		if (at_stop && t->until_return) {
			/* One call: the thread that made it, its frame popped. */
			uint64_t sp = 0;
			if (th->tid == t->pid &&
			    (err = get_reg(th->tid, offsetof(struct user_regs_struct,
							     rsp), &sp)))
				return err;
			at_stop = th->tid == t->pid && sp > t->entry_sp;
		}
		if (at_stop) {
			t->st->stopped = true;
			return finish(t, th);
		}
		if (max_insns && t->st->insns >= max_insns)
			return finish(t, th);
		if (stop_requests) {
			t->st->interrupted = true;
			return finish(t, th);
		}
		if (t->progress && t->st->insns >= t->next_progress_check)
			report_progress(t, false);
		if ((err = step(t, th)))
			return err;
	}
	return 0;
}

/* Runs the program to its entry point (*entry), where the dynamic loader
 * has mapped every library it links. */
static int run_to_entry(struct tracer *t, const char *exe, uint64_t *entry)
{
	struct hwt_swb_maps maps;
	int err = hwt_swb_maps_read(t->pid, &maps);

	if (err)
		return err;
	err = hwt_swb_entry(&maps, exe, entry);
	hwt_swb_maps_clear(&maps);
	return err ? err : run_to(t, *entry, "the program's entry point");
}

/* The trigger's function, found where tracing starts; one in a library
 * the program has not loaded yet, when tracing would start in the dynamic
 * loader (no --start), is found at the program's entry point, where
 * tracing then starts. */
static int trigger_address(struct tracer *t, const char *exe, bool at_exec,
			   uint64_t *start)
{
	const char *func = t->trigger.func;
	uint64_t entry;

	if (t->trigger.kind == HWT_SWB_TRIGGER_SIGNAL)
		return 0;
	int err = hwt_swb_resolve_spec(t->pid, exe, func, &t->trig.addr, true);
	if (err != HWT_ERR_NOENT || !at_exec)
		return err == HWT_ERR_NOENT
			? hwt_swb_resolve_spec(t->pid, exe, func, &t->trig.addr, false)
			: err;
	if ((err = run_to_entry(t, exe, &entry)))
		return err;
	*start = entry;
	return hwt_swb_resolve_spec(t->pid, exe, func, &t->trig.addr, false);
}

/* opts->trigger, parsed; its windows go to cbs->on_trigger. */
static int trigger_setup(struct tracer *t, const struct hwt_swb_opts *o)
{
	if (!o->trigger)
		return 0;
	int err = hwt_swb_trigger_parse(o->trigger, &t->trigger);
	if (err)
		return err;
	if (!t->cbs->on_trigger)
		return hwt_error(HWT_ERR_INVAL, "a sw_branch trigger needs "
				 "somewhere to write its windows");
	t->have_trigger = true;
	t->trig.trigger = &t->trigger;
	t->trig.fire = t->cbs->on_trigger;
	t->trig.arg = t->cbs->arg;
	/* symbol: and signal: fire once unless told otherwise; latency:
	 * at every slow call. */
	t->trig.max_windows = o->trigger_count ? o->trigger_count :
		t->trigger.kind == HWT_SWB_TRIGGER_LATENCY ? 0 : 1;
	return 0;
}

static int trace(struct tracer *t, const struct hwt_swb_opts *o)
{
	char exe[4096], link[64];
	uint64_t start = 0, stop = 0;
	struct hwt_swb_specs spec;
	int err;

	if ((err = hwt_swb_parse_filter(o, &spec)) || (err = trigger_setup(t, o)))
		return err;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)t->pid);
	ssize_t n = readlink(link, exe, sizeof(exe) - 1);
	if (n <= 0)
		return hwt_error(HWT_ERR_IO, "%s: %s", link, strerror(errno));
	exe[n] = 0;
	snprintf(link, sizeof(link), "/proc/%d/mem", (int)t->pid);
	t->mem_fd = open(link, O_RDONLY | O_CLOEXEC);
	if (t->mem_fd < 0)
		return hwt_error(HWT_ERR_PERM, "%s: %s", link, strerror(errno));

	struct hwt_swb_maps maps;
	if (t->cbs->on_exec) {
		if ((err = hwt_swb_maps_read(t->pid, &maps)))
			return err;
		err = t->cbs->on_exec(t->cbs->arg, t->pid, exe, &maps);
		hwt_swb_maps_clear(&maps);
		if (err)
			return err;
	}
	if (spec.start) {
		err = hwt_swb_resolve_spec(t->pid, exe, spec.start, &start, true);
		if (err == HWT_ERR_NOENT) {
			/* Perhaps in a library: the loader has mapped them all
			 * when the program's entry point runs. */
			uint64_t entry;
			if ((err = run_to_entry(t, exe, &entry)))
				return err;
			err = hwt_swb_resolve_spec(t->pid, exe, spec.start,
						   &start, false);
		}
		if (err)
			return err;
	}
	bool stop_later = false;
	if (spec.stop) {
		err = hwt_swb_resolve_spec(t->pid, exe, spec.stop, &stop, true);
		if (err == HWT_ERR_NOENT && spec.start)
			stop_later = true; /* maybe in a library not loaded yet */
		else if (err)
			return hwt_swb_resolve_spec(t->pid, exe, spec.stop,
						    &stop, false);
	}
	if (spec.start) {
		if ((err = run_to(t, start, spec.start)))
			return err;
	} else if (!t->attached && (err = get_pc(t->pid, &start))) {
		return err; /* (threads attached to start where each stands) */
	}
	if (stop_later &&
	    (err = hwt_swb_resolve_spec(t->pid, exe, spec.stop, &stop, false)))
		return err;
	if (t->have_trigger &&
	    (err = trigger_address(t, exe, !spec.start && !t->attached, &start)))
		return err;
	if (spec.until_return) {
		/* At the function's first instruction the return address is
		 * on top of the stack; the call is over when execution gets
		 * there with the frame popped (recursion passes it too). */
		uint64_t sp = 0;
		if ((err = get_reg(t->pid, offsetof(struct user_regs_struct, rsp),
				   &sp)))
			return err;
		errno = 0;
		long ret = ptrace(PTRACE_PEEKDATA, t->pid, (void *)sp, NULL);
		if (ret == -1 && errno)
			return hwt_error(HWT_ERR_IO, "reading the return address "
					 "of %s: %s", spec.start, strerror(errno));
		stop = (uint64_t)ret;
		t->entry_sp = sp;
		t->until_return = true;
	}
	t->st->start_addr = start;
	t->st->stop_addr = stop;

	if ((err = hwt_swb_maps_read(t->pid, &maps)))
		return err;
	err = known_set(t, &maps);
	if (!err && t->cbs->on_start)
		err = t->cbs->on_start(t->cbs->arg, t->pid, exe, &maps);
	hwt_swb_maps_clear(&maps);
	if (err)
		return err;

	t->t0 = now_ns();
	t->last_progress = t->t0;
	t->trig.armed_ns = t->t0 + o->trigger_after_ns;
	t->trigger_after_ns = o->trigger_after_ns;
	t->armed_at_first_record = false;
	untraced = 0;
	err = step_loop(t, start, stop, o->max_insns);
	untraced = 1;
	t->st->trigger_entries = t->trig.entries;
	t->st->trigger_calls = t->trig.calls_seen;
	t->st->trigger_fired = t->trig.fired;
	t->st->elapsed_ns = now_ns() - t->t0;
	if (t->progress)
		report_progress(t, true);
	/* The request came while stepping: the program gets it now (one
	 * attached to runs on as it was). */
	if (stop_requests && !t->attached)
		kill(t->pid, SIGTERM);
	return err ? err : end_maps(t);
}

/* -p: traces a running program, which is never signalled or killed:
 * when tracing ends every thread is detached and runs on as it was. A
 * thread it started as tracing ended reports once, stopped, and is let
 * go; one that reports later is let go when the tracer exits. */
static int attach_and_trace(struct tracer *t, const struct hwt_swb_opts *o)
{
	struct hwt_swb_specs spec;
	int err = hwt_swb_parse_filter(o, &spec);

	if (err)
		return err;
	if (spec.start)
		return hwt_error(HWT_ERR_CONFIG, "a program attached to (-p) is "
				 "traced from where it stands: --start and "
				 "'filter' do not apply (--stop and --trigger do)");
	err = hwt_swb_attach(o->attach_pid, o->attach_tid, &t->attached,
				 &t->nattached);
	if (err)
		return err;
	t->pid = o->attach_pid;
	t->st->pid = t->pid;
	err = trace(t, o);
	pid_t tid;
	int status;
	while ((tid = waitpid(-1, &status, __WALL | WNOHANG)) > 0)
		if (WIFSTOPPED(status))
			ptrace(PTRACE_DETACH, tid, NULL, NULL);
	return err;
}

/* The program's end after the SIGTERM of a stop request: waited for
 * HWT_TERM_GRACE_MS, saying so, then forced with SIGKILL. */
struct term_wait {
	uint64_t since;     /* when the wait began (0: not yet) */
	bool told, killed;
};

/* One step of that wait: 1 with a child's status in *tid and *status, 0
 * when nothing ended yet (after a 10 ms pause), -1 when no child is left. */
static int wait_after_term(const struct hwt_swb_opts *o, pid_t pid,
			   struct term_wait *tw, pid_t *tid, int *status)
{
	uint64_t now = now_ns();

	if (!tw->since)
		tw->since = now;
	*tid = waitpid(-1, status, __WALL | WNOHANG);
	if (*tid > 0)
		return 1;
	if (*tid < 0)
		return errno == EINTR ? 0 : -1;
	uint64_t waited_ms = (now - tw->since) / 1000000;
	if (!tw->told && waited_ms >= 100) {
		tw->told = true;
		if (o->waiting)
			o->waiting(o->progress_arg, (int)pid, false);
	}
	if (!tw->killed && waited_ms >= HWT_TERM_GRACE_MS) {
		tw->killed = true;
		kill(pid, SIGKILL);
		if (o->waiting)
			o->waiting(o->progress_arg, (int)pid, true);
	}
	usleep(10000);
	return 0;
}

int hwt_swb_trace(const struct hwt_swb_opts *o,
		  const struct hwt_swb_trace_cbs *cbs,
		  struct hwt_swb_stats *stats)
{
	struct tracer t = {.mem_fd = -1, .cbs = cbs, .st = stats};
	int err, status;

	memset(stats, 0, sizeof(*stats));
	if (!o || (!o->attach_pid && (!o->argv || !o->argv[0])) || !cbs ||
	    !cbs->on_record)
		return hwt_error(HWT_ERR_INVAL, "sw_branch needs a program to run "
				 "or one to attach to");
	if ((err = hwt_insn_decoder_new(HWT_ISA_X86_64, &t.dec)))
		return err;
	t.icache = calloc(ICACHE_SIZE, sizeof(*t.icache));
	if (!t.icache) {
		hwt_insn_decoder_free(t.dec);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
	}
	t.progress = o->progress;
	t.progress_arg = o->progress_arg;
	t.progress_ns = (o->progress_ms ? o->progress_ms : 250) * 1000000ull;
	if (o->attach_pid) {
		err = attach_and_trace(&t, o);
		free(t.attached);
	} else if (!(err = hwt_swb_launch(o, &t.pid))) {
		stats->pid = t.pid;
		tracee = t.pid;
		if (stop_requests)
			kill(t.pid, SIGTERM);
		err = trace(&t, o);
		if (err)
			kill(t.pid, SIGKILL);
		else if (!t.nthr && ptrace(PTRACE_DETACH, t.pid, NULL, NULL))
			kill(t.pid, SIGKILL); /* ended before stepping began */
		/* The program runs on untraced: threads it started while
		 * tracing ended are let go as they report; then its end. */
		struct term_wait tw = {0};
		while (!stats->exited) {
			pid_t tid;
			if (stop_requests) {
				int r = wait_after_term(o, t.pid, &tw, &tid, &status);
				if (r < 0)
					break;
				if (r == 0)
					continue;
			} else if ((tid = waitpid(-1, &status, __WALL)) < 0) {
				if (errno == EINTR)
					continue; /* a stop request, perhaps */
				break;
			}
			if (tid == t.pid && (WIFEXITED(status) || WIFSIGNALED(status))) {
				stats->exit_status = status;
				break;
			}
			if (WIFSTOPPED(status))
				ptrace(PTRACE_DETACH, tid, NULL,
				       (void *)(long)(WSTOPSIG(status) == SIGSTOP ||
						      WSTOPSIG(status) == SIGTRAP ?
						      0 : WSTOPSIG(status)));
		}
	}
	tracee = 0;
	if (t.mem_fd >= 0)
		close(t.mem_fd);
	free(t.thr);
	free(t.known);
	free(t.icache);
	hwt_insn_decoder_free(t.dec);
	return err;
}

int hwt_swb_check_arch(void)
{
	return 0;
}

#else

/* What to use instead, on the boards whose trace hardware hwtrace records. */
#if defined(__aarch64__)
#define SWB_ARCH "arm64"
#define SWB_INSTEAD "on an Arm board record with cs_etm (CoreSight)"
#elif defined(__riscv) && __riscv_xlen == 64
#define SWB_ARCH "riscv64"
#define SWB_INSTEAD "on a RISC-V board record with rvtrace (N-Trace)"
#else
#define SWB_ARCH "this architecture"
#define SWB_INSTEAD "record with the machine's trace PMU"
#endif

/* Stepping needs the architecture's single-step and branch classes: A64's
 * or RISC-V's would be PTRACE_SINGLESTEP (which RISC-V Linux does not
 * have) with its own instruction classifier, not written yet. */
int hwt_swb_check_arch(void)
{
	return hwt_error(HWT_ERR_NOSUP, "sw_branch is not supported on "
			 SWB_ARCH ": it steps x86-64 programs only; "
			 SWB_INSTEAD ", or decode captures made elsewhere");
}

int hwt_swb_trace(const struct hwt_swb_opts *o,
		  const struct hwt_swb_trace_cbs *cbs,
		  struct hwt_swb_stats *stats)
{
	return hwt_swb_check_arch();
}

void hwt_swb_trace_catch_stop(void)
{
}

#endif
