/* Sideband that attributes trace to tasks, and losses to show in place. */
#include <stdlib.h>
#include <string.h>

#include "core/decode/decode_internal.h"
#include "hwtrace/error.h"

void hwt_sideband_free(struct hwt_sideband *sb)
{
	free(sb->ctx);
	free(sb->loss);
	free(sb->threads);
	memset(sb, 0, sizeof(*sb));
}

int hwt_sideband_add_ctx(struct hwt_sideband *sb, const struct hwt_ctx_event *ev)
{
	if (sb->nctx == sb->ctx_cap) {
		size_t ncap = sb->ctx_cap ? sb->ctx_cap * 2 : 64;
		void *n = realloc(sb->ctx, ncap * sizeof(*sb->ctx));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sideband");
		sb->ctx = n;
		sb->ctx_cap = ncap;
	}
	sb->ctx[sb->nctx++] = *ev;
	return 0;
}

int hwt_sideband_add_thread(struct hwt_sideband *sb, int32_t pid, int32_t tid)
{
	if (pid < 0 || tid < 0 || hwt_sideband_thread_pid(sb, tid) == pid)
		return 0;
	if (sb->nthreads == sb->threads_cap) {
		size_t ncap = sb->threads_cap ? sb->threads_cap * 2 : 64;
		void *n = realloc(sb->threads, ncap * sizeof(*sb->threads));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sideband");
		sb->threads = n;
		sb->threads_cap = ncap;
	}
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

int hwt_sideband_add_loss(struct hwt_sideband *sb, const struct hwt_loss_event *ev)
{
	if (sb->nloss == sb->loss_cap) {
		size_t ncap = sb->loss_cap ? sb->loss_cap * 2 : 16;
		void *n = realloc(sb->loss, ncap * sizeof(*sb->loss));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sideband");
		sb->loss = n;
		sb->loss_cap = ncap;
	}
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
	return 0;
}

void hwt_sideband_sort(struct hwt_sideband *sb)
{
	if (sb->nctx > 1)
		qsort(sb->ctx, sb->nctx, sizeof(*sb->ctx), cmp_ctx);
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
	/* The last event of @cpu at or before @time. */
	size_t lo = 0, hi = sb->nctx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hwt_ctx_event *e = &sb->ctx[mid];
		if (e->cpu < cpu || (e->cpu == cpu && e->time <= time))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || sb->ctx[lo - 1].cpu != cpu)
		return HWT_PID_ANY;
	return sb->ctx[lo - 1].pid >= 0 ? sb->ctx[lo - 1].pid : HWT_PID_ANY;
}

void hwt_ctx_sink_start(struct hwt_ctx_sink *cs, const struct hwt_sideband *sb,
			int32_t cpu, int32_t pid, int32_t tid)
{
	cs->sb = sb;
	cs->cpu = cpu;
	cs->pid = pid;
	cs->tid = tid;
	cs->pos = cs->end = 0;
	if (cpu < 0)
		return;
	size_t i = 0;
	while (i < sb->nctx && sb->ctx[i].cpu < cpu)
		i++;
	cs->pos = i;
	while (i < sb->nctx && sb->ctx[i].cpu == cpu)
		i++;
	cs->end = i;
}

/* Ranges and branches, nearly every element, copied field by field,
 * each load as wide as the decoder's store of that field: a whole-struct
 * copy's wide loads span several of those fresh stores and each waits
 * for them to reach the cache (a store-forwarding stall per element). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
static void copy_elem(struct hwt_elem *to, const struct hwt_elem *e)
{
	to->type = e->type;
	to->fields = e->fields;
	to->cpu = e->cpu;
	to->pid = e->pid;
	to->tid = e->tid;
	to->time = e->time;
	to->trace_offset = e->trace_offset;
	if (e->type == HWT_ELEM_RANGE) {
		to->u.range.start = e->u.range.start;
		to->u.range.end = e->u.range.end;
		to->u.range.insns = e->u.range.insns;
		to->u.range.isa = e->u.range.isa;
		to->u.range.text = e->u.range.text;
	} else if (e->type == HWT_ELEM_BRANCH) {
		to->u.branch.from = e->u.branch.from;
		to->u.branch.to = e->u.branch.to;
		to->u.branch.kind = e->u.branch.kind;
		to->u.branch.exception = e->u.branch.exception;
	} else {
		to->u = e->u;
	}
}

static int ctx_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_ctx_sink *cs = arg;
	struct hwt_elem copy;
	copy_elem(&copy, e);

	if (e->fields & HWT_FIELD_TIME) {
		while (cs->pos < cs->end && cs->sb->ctx[cs->pos].time <= e->time) {
			cs->pid = cs->sb->ctx[cs->pos].pid;
			cs->tid = cs->sb->ctx[cs->pos].tid;
			cs->pos++;
		}
	}
	if (cs->cpu >= 0) {
		copy.cpu = cs->cpu;
		copy.fields |= HWT_FIELD_CPU;
	}
	if (cs->pid >= 0) {
		copy.pid = cs->pid;
		copy.fields |= HWT_FIELD_PID;
	}
	if (cs->tid >= 0) {
		copy.tid = cs->tid;
		copy.fields |= HWT_FIELD_TID;
	}
	return cs->next->emit(cs->next->arg, &copy);
}

struct hwt_elem_sink hwt_ctx_sink(struct hwt_ctx_sink *cs)
{
	struct hwt_elem_sink s = {ctx_emit, cs};
	return s;
}
