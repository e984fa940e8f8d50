/* Sideband that attributes trace to tasks, and losses to show in place. */
#include <stdlib.h>
#include <string.h>

#include "core/decode/decode_internal.h"
#include "hwtrace/error.h"

/* Makes room in *@v (@n used of *@cap, @size bytes each) for one more. */
static int grow(void *v, size_t n, size_t *cap, size_t size)
{
	void **pv = v;
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 64;
	void *nv = realloc(*pv, ncap * size);
	if (!nv)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sideband");
	*pv = nv;
	*cap = ncap;
	return 0;
}

void hwt_sideband_free(struct hwt_sideband *sb)
{
	free(sb->ctx);
	free(sb->loss);
	free(sb->threads);
	free(sb->forks);
	free(sb->traced);
	memset(sb, 0, sizeof(*sb));
}

int hwt_sideband_add_ctx(struct hwt_sideband *sb, const struct hwt_ctx_event *ev)
{
	int err = grow(&sb->ctx, sb->nctx, &sb->ctx_cap, sizeof(*sb->ctx));
	if (err)
		return err;
	sb->ctx[sb->nctx] = *ev;
	sb->ctx[sb->nctx].seq = (uint32_t)sb->nctx;
	sb->nctx++;
	return 0;
}

int hwt_sideband_add_thread(struct hwt_sideband *sb, int32_t pid, int32_t tid)
{
	if (pid < 0 || tid < 0 || hwt_sideband_thread_pid(sb, tid) == pid)
		return 0;
	int err = grow(&sb->threads, sb->nthreads, &sb->threads_cap, sizeof(*sb->threads));
	if (err)
		return err;
	sb->threads[sb->nthreads].tid = tid;
	sb->threads[sb->nthreads].pid = pid;
	sb->nthreads++;
	return 0;
}

int32_t hwt_sideband_thread_pid(const struct hwt_sideband *sb, int32_t tid)
{
	/* The latest word wins: a tid can be reused by a later process. */
	for (size_t i = sb->nthreads; i-- > 0;)
		if (sb->threads[i].tid == tid)
			return sb->threads[i].pid;
	return -1;
}

int hwt_sideband_add_fork(struct hwt_sideband *sb, int32_t ptid, int32_t tid)
{
	if (ptid < 0 || tid < 0 || ptid == tid)
		return 0;
	int err = grow(&sb->forks, sb->nforks, &sb->forks_cap, sizeof(*sb->forks));
	if (err)
		return err;
	sb->forks[sb->nforks].ptid = ptid;
	sb->forks[sb->nforks].tid = tid;
	sb->nforks++;
	return 0;
}

int hwt_sideband_add_loss(struct hwt_sideband *sb, const struct hwt_loss_event *ev)
{
	int err = grow(&sb->loss, sb->nloss, &sb->loss_cap, sizeof(*sb->loss));
	if (err)
		return err;
	sb->loss[sb->nloss++] = *ev;
	return 0;
}

static int cmp_ctx(const void *a, const void *b)
{
	const struct hwt_ctx_event *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

static bool in_sorted(const int32_t *v, size_t n, int32_t x)
{
	return n && bsearch(&x, v, n, sizeof(*v), cmp_i32);
}

/* The traced set of a per-task capture: the tasks of ITRACE_START records
 * (the kernel writes one per trace event, naming the task it started in)
 * and, with inheritance, every task they forked, transitively. */
static int build_traced(struct hwt_sideband *sb)
{
	size_t cap = 0;
	for (size_t i = 0; i < sb->nctx; i++)
		cap += sb->ctx[i].itrace_start;
	cap += sb->nforks;
	sb->traced = malloc((cap ? cap : 1) * sizeof(*sb->traced));
	if (!sb->traced)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sideband");
	sb->ntraced = 0;
	for (size_t i = 0; i < sb->nctx; i++)
		if (sb->ctx[i].itrace_start && sb->ctx[i].tid >= 0)
			sb->traced[sb->ntraced++] = sb->ctx[i].tid;
	qsort(sb->traced, sb->ntraced, sizeof(*sb->traced), cmp_i32);
	/* Forks may come in any order relative to each other: repeat until
	 * nothing is added (a fork chain is short). */
	for (bool added = true; added;) {
		added = false;
		for (size_t i = 0; i < sb->nforks; i++) {
			if (!in_sorted(sb->traced, sb->ntraced, sb->forks[i].ptid) ||
			    in_sorted(sb->traced, sb->ntraced, sb->forks[i].tid))
				continue;
			sb->traced[sb->ntraced++] = sb->forks[i].tid;
			qsort(sb->traced, sb->ntraced, sizeof(*sb->traced), cmp_i32);
			added = true;
		}
	}
	return 0;
}

int hwt_sideband_finish(struct hwt_sideband *sb)
{
	if (sb->nctx > 1)
		qsort(sb->ctx, sb->nctx, sizeof(*sb->ctx), cmp_ctx);
	/* A switch-out record without the task going out (no sample tid)
	 * names it through the event before; a per-thread one does not name
	 * the task coming in: the next switch-in of that CPU does. */
	for (size_t i = 0; i < sb->nctx; i++) {
		struct hwt_ctx_event *e = &sb->ctx[i];
		if (!e->in_switch)
			continue;
		if (e->prev_tid < 0 && i && sb->ctx[i - 1].cpu == e->cpu &&
		    !sb->ctx[i - 1].in_switch) {
			e->prev_pid = sb->ctx[i - 1].pid;
			e->prev_tid = sb->ctx[i - 1].tid;
		}
		if (e->tid < 0 && i + 1 < sb->nctx && sb->ctx[i + 1].cpu == e->cpu &&
		    !sb->ctx[i + 1].in_switch) {
			e->pid = sb->ctx[i + 1].pid;
			e->tid = sb->ctx[i + 1].tid;
		}
	}
	return sb->per_task ? build_traced(sb) : 0;
}

bool hwt_sideband_traced(const struct hwt_sideband *sb, int32_t tid)
{
	return !sb->per_task || in_sorted(sb->traced, sb->ntraced, tid);
}

/* The index after the last event of @cpu at or before @time. */
static size_t upper(const struct hwt_sideband *sb, int32_t cpu, uint64_t time)
{
	size_t lo = 0, hi = sb->nctx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hwt_ctx_event *e = &sb->ctx[mid];
		if (e->cpu < cpu || (e->cpu == cpu && e->time <= time))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Adds @t to @out (@n so far, @max room) unless there or untraced. */
static size_t add_task(const struct hwt_sideband *sb, struct hwt_task t,
		       struct hwt_task *out, size_t n, size_t max)
{
	if (t.tid >= 0 && !hwt_sideband_traced(sb, t.tid))
		return n;
	for (size_t i = 0; i < n && i < max; i++)
		if (out[i].tid == t.tid)
			return n;
	if (n < max)
		out[n] = t;
	return n + 1;
}

static size_t add_event(const struct hwt_sideband *sb,
			const struct hwt_ctx_event *e, struct hwt_task *out,
			size_t n, size_t max)
{
	if (e->in_switch) {
		n = add_task(sb, (struct hwt_task){e->prev_pid, e->prev_tid},
			     out, n, max);
		/* No switch-in followed: in a per-task capture the task
		 * coming in was not traced (a traced one writes its own). */
		if (e->tid < 0 && sb->per_task)
			return n;
	}
	return add_task(sb, (struct hwt_task){e->pid, e->tid}, out, n, max);
}

size_t hwt_sideband_tasks_in(const struct hwt_sideband *sb, int32_t cpu,
			     uint64_t lo, uint64_t hi, struct hwt_task *out,
			     size_t max)
{
	size_t i = upper(sb, cpu, lo), n = 0;
	if (i == 0 || sb->ctx[i - 1].cpu != cpu)
		n = add_task(sb, (struct hwt_task){-1, -1}, out, n, max);
	else
		n = add_event(sb, &sb->ctx[i - 1], out, n, max);
	for (; i < sb->nctx && sb->ctx[i].cpu == cpu && sb->ctx[i].time < hi; i++)
		n = add_event(sb, &sb->ctx[i], out, n, max);
	return n;
}

int32_t hwt_sideband_pid_at(void *arg, int32_t cpu, int32_t tid, uint64_t time)
{
	const struct hwt_sideband *sb = arg;

	if (cpu < 0) {
		/* Per-thread: the process of that thread; without a record
		 * saying so, a thread whose id is its process's (the main
		 * thread) is the best guess for reading code. */
		int32_t pid = hwt_sideband_thread_pid(sb, tid);
		if (pid >= 0)
			return pid;
		return tid >= 0 ? tid : HWT_PID_ANY;
	}
	size_t i = upper(sb, cpu, time);
	if (i == 0 || sb->ctx[i - 1].cpu != cpu)
		return HWT_PID_ANY;
	const struct hwt_ctx_event *e = &sb->ctx[i - 1];
	/* In a switch the code is the kernel's, which every process maps;
	 * a per-task capture can only be in the traced one of the two, and
	 * otherwise the process coming in is taken (its address space is
	 * loaded part way through the switch). */
	if (e->in_switch && e->prev_pid >= 0 &&
	    (e->tid < 0 || !hwt_sideband_traced(sb, e->tid)) &&
	    hwt_sideband_traced(sb, e->prev_tid))
		return e->prev_pid;
	return e->pid >= 0 ? e->pid : HWT_PID_ANY;
}
