/* Per-thread call stacks from the element stream (include/hwtrace/stack.h).
 * Each thread keeps its frames in a heap array, so depth is bounded by
 * memory, not by hwtrace's own C stack. Totals are counted once, in the
 * thread: a frame remembers the thread's counters when it was pushed, and
 * its children's totals, so its self and total fall out when it ends. */
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"

/* Kernel addresses: the upper half on x86-64 and AArch64 alike. A syscall
 * whose target is there enters a traced kernel; one whose target is not
 * resumes user code (the kernel itself was not traced). */
#define KERNEL_START 0xffff000000000000ull

/* The longest call instruction of any ISA: a return up to this far past a
 * call site matches it when the call's length is unknown. */
#define MAX_CALL_LEN 15

struct frame_rec {
	struct hwt_frame f;
	/* The function the frame runs in, parts counted as their parent's
	 * (0: not looked up yet). */
	uint64_t parent;
	uint64_t insns_at_entry, branches_at_entry;
	uint64_t child_insns, child_branches;
	uint64_t child_time;
};

struct thread {
	int64_t key;
	int32_t pid, tid, cpu;
	struct frame_rec *v;
	size_t n, cap;
	uint64_t insns, branches; /* executed so far */
	bool has_time;
	uint64_t last_time;
	/* The last range: a call inside it returns to its end. */
	bool have_range;
	uint64_t range_start, range_end;
	/* Trace went off before this address: if it comes back on there,
	 * nothing was missed and the frames stay. */
	bool off_pending;
	uint64_t off_at;
};

struct hwt_stack {
	struct hwt_stack_ops ops;
	struct thread *threads;  /* in order of appearance */
	size_t nthreads, cap;
	size_t *slots;           /* open addressing: index + 1, 0 empty */
	size_t nslots;
	struct hwt_stack_stats stats;
};

static uint64_t hash_key(int64_t key)
{
	uint64_t x = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 29);
}

static int rehash(struct hwt_stack *s, size_t nslots)
{
	size_t *slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return HWT_ERR_NOMEM;
	for (size_t i = 0; i < s->nthreads; i++) {
		size_t h = hash_key(s->threads[i].key) & (nslots - 1);
		while (slots[h])
			h = (h + 1) & (nslots - 1);
		slots[h] = i + 1;
	}
	free(s->slots);
	s->slots = slots;
	s->nslots = nslots;
	return 0;
}

/* The thread an element belongs to: its tid, else its cpu, else one
 * stream for everything. */
static int64_t thread_key(const struct hwt_elem *e)
{
	if ((e->fields & HWT_FIELD_TID) && e->tid >= 0)
		return e->tid;
	if (e->fields & HWT_FIELD_CPU)
		return -2 - (int64_t)e->cpu;
	return -1;
}

static struct thread *find_thread(struct hwt_stack *s, int64_t key)
{
	if (!s->nslots)
		return NULL;
	size_t h = hash_key(key) & (s->nslots - 1);
	while (s->slots[h]) {
		struct thread *t = &s->threads[s->slots[h] - 1];
		if (t->key == key)
			return t;
		h = (h + 1) & (s->nslots - 1);
	}
	return NULL;
}

static struct thread *get_thread(struct hwt_stack *s, int64_t key)
{
	struct thread *t = find_thread(s, key);
	if (t)
		return t;
	void *grown = s->threads;
	if (!array_grow(&grown, &s->cap, sizeof(*s->threads), s->nthreads + 1,
			16))
		return NULL;
	s->threads = grown;
	if ((s->nthreads + 1) * 2 > s->nslots &&
	    rehash(s, s->nslots ? s->nslots * 2 : 64) < 0)
		return NULL;
	t = &s->threads[s->nthreads++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	t->pid = t->tid = t->cpu = -1;
	size_t h = hash_key(key) & (s->nslots - 1);
	while (s->slots[h])
		h = (h + 1) & (s->nslots - 1);
	s->slots[h] = s->nthreads;
	s->stats.threads = s->nthreads;
	return t;
}

/* The public frame with its caller linked, for a callback. */
static const struct hwt_frame *view(struct thread *t, size_t i)
{
	t->v[i].f.caller = i ? &t->v[i - 1].f : NULL;
	return &t->v[i].f;
}

static int push(struct hwt_stack *s, struct thread *t,
		const struct hwt_frame *f)
{
	void *grown = t->v;
	if (!array_grow(&grown, &t->cap, sizeof(*t->v), t->n + 1, 32))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->v = grown;
	struct frame_rec *r = &t->v[t->n++];
	memset(r, 0, sizeof(*r));
	r->f = *f;
	r->f.pid = t->pid;
	r->f.tid = t->tid;
	r->f.cpu = t->cpu;
	r->f.has_time = t->has_time;
	if (f->start != HWT_FRAME_INFERRED || !f->call_time)
		r->f.call_time = t->last_time;
	r->f.end = HWT_FRAME_OPEN;
	r->insns_at_entry = t->insns;
	r->branches_at_entry = t->branches;
	if (hwt_frame_is_call(&r->f))
		s->stats.entered++;
	if (t->n > s->stats.max_depth)
		s->stats.max_depth = t->n;
	return s->ops.on_enter ? s->ops.on_enter(s->ops.arg, view(t, t->n - 1))
			       : 0;
}

/* Ends the top frame with @end. */
static int pop(struct hwt_stack *s, struct thread *t, enum hwt_frame_end end)
{
	size_t i = t->n - 1;
	struct frame_rec *r = &t->v[i];
	r->f.end = end;
	r->f.return_time = t->last_time;
	r->f.has_time = r->f.has_time && t->has_time;
	r->f.insns_total = t->insns - r->insns_at_entry;
	r->f.branches_total = t->branches - r->branches_at_entry;
	r->f.insns_self = r->f.insns_total - r->child_insns;
	r->f.branches_self = r->f.branches_total - r->child_branches;
	uint64_t duration = r->f.has_time ? r->f.return_time - r->f.call_time
					  : 0;
	r->f.self_time = duration > r->child_time ? duration - r->child_time
						  : 0;
	int err = s->ops.on_exit ? s->ops.on_exit(s->ops.arg, view(t, i)) : 0;
	if (i) {
		t->v[i - 1].child_insns += r->f.insns_total;
		t->v[i - 1].child_branches += r->f.branches_total;
		t->v[i - 1].child_time += duration;
	}
	t->n--;
	return err;
}

/* Ends every open frame of @t (lost trace, trace off, end of trace). */
static int cut(struct hwt_stack *s, struct thread *t, enum hwt_frame_end end)
{
	int err = 0;
	if (end == HWT_FRAME_TRACE_OFF)
		s->stats.cut_by_trace_off += t->n;
	else if (end != HWT_FRAME_END)
		s->stats.cut_by_gap += t->n;
	while (t->n && !err)
		err = pop(s, t, end);
	t->have_range = false;
	t->off_pending = false;
	return err;
}

/* The first element of a thread (or after a cut): the function it runs in
 * was never seen called. */
static int ensure_root(struct hwt_stack *s, struct thread *t, uint64_t addr)
{
	if (t->n)
		return 0;
	struct hwt_frame f = {.func = addr, .start = HWT_FRAME_INFERRED};
	return push(s, t, &f);
}

/* The innermost frame that began a syscall/interrupt/exception level. */
static size_t level_base(const struct thread *t)
{
	for (size_t i = t->n; i-- > 0;)
		if (t->v[i].f.start == HWT_FRAME_TRAP)
			return i;
	return 0;
}

static bool returns_to(const struct frame_rec *r, uint64_t to)
{
	if (r->f.return_addr)
		return r->f.return_addr == to;
	return r->f.call_site && to > r->f.call_site &&
	       to - r->f.call_site <= MAX_CALL_LEN;
}

/* The trace began inside the function that returns: its caller, running
 * since the thread's first element, becomes an inferred frame below it. */
static int infer_caller(struct hwt_stack *s, struct thread *t, uint64_t to)
{
	struct frame_rec root = t->v[0];
	struct hwt_frame f = {
		.func = to,
		.start = HWT_FRAME_INFERRED,
		.depth = root.f.depth - 1,
		.call_time = root.f.call_time,
	};
	int err = 0;
	if (s->ops.on_caller) {
		struct hwt_frame shown = f;
		shown.pid = t->pid;
		shown.tid = t->tid;
		shown.cpu = t->cpu;
		shown.has_time = root.f.has_time && t->has_time;
		err = s->ops.on_caller(s->ops.arg, &shown, t->last_time);
	}
	if (!err)
		err = pop(s, t, HWT_FRAME_RETURNED);
	if (err)
		return err;
	s->stats.inferred++;
	err = push(s, t, &f);
	/* It was running all along: what its callee did is its total. */
	t->v[0].insns_at_entry = root.insns_at_entry;
	t->v[0].branches_at_entry = root.branches_at_entry;
	t->v[0].child_insns = t->insns - root.insns_at_entry;
	t->v[0].child_branches = t->branches - root.branches_at_entry;
	t->v[0].f.has_time = root.f.has_time;
	t->v[0].child_time = root.f.has_time ? t->last_time - root.f.call_time
					     : 0;
	return err;
}

static int on_return(struct hwt_stack *s, struct thread *t, uint64_t to)
{
	s->stats.returns++;
	size_t lo = level_base(t);
	for (size_t i = t->n; i-- > lo;) {
		if (!returns_to(&t->v[i], to))
			continue;
		int err = 0;
		while (t->n - 1 > i && !err) {
			s->stats.no_return++;
			err = pop(s, t, HWT_FRAME_NO_RETURN);
		}
		return err ? err : pop(s, t, HWT_FRAME_RETURNED);
	}
	if (t->n == 1 && t->v[0].f.start != HWT_FRAME_TRAP)
		return infer_caller(s, t, to);
	s->stats.unmatched_returns++;
	return 0;
}

/* Unwinds to the trap frame @i: it returns, what it left open does not. */
static int leave_trap(struct hwt_stack *s, struct thread *t, size_t i)
{
	int err = 0;
	while (t->n - 1 > i && !err) {
		s->stats.no_return++;
		err = pop(s, t, HWT_FRAME_NO_RETURN);
	}
	return err ? err : pop(s, t, HWT_FRAME_RETURNED);
}

static int enter_trap(struct hwt_stack *s, struct thread *t,
		      const struct hwt_elem *e, uint64_t resume)
{
	s->stats.traps++;
	struct hwt_frame f = {
		.func = e->u.branch.to,
		.call_site = e->u.branch.from,
		.return_addr = resume,
		.depth = t->v[t->n - 1].f.depth + 1,
		.start = HWT_FRAME_TRAP,
	};
	return push(s, t, &f);
}

/* The function holding @addr, its split-off parts counted as their
 * parent's; false without symbols for it. */
static bool parent_of(struct hwt_stack *s, const struct thread *t,
		      uint64_t addr, uint64_t *start)
{
	if (s->ops.function_parent)
		return s->ops.function_parent(s->ops.sym_arg, t->pid, addr,
					      start);
	return s->ops.function_start(s->ops.sym_arg, t->pid, addr, start);
}

/* The function frame @r runs in (inferred frames hold the first address
 * seen in them, not their function's start), looked up once. */
static uint64_t frame_function(struct hwt_stack *s, const struct thread *t,
			       struct frame_rec *r)
{
	if (!r->parent && !parent_of(s, t, r->f.func, &r->parent))
		r->parent = r->f.func;
	return r->parent;
}

/* An indirect jump into function @parent, mid-body: when that function
 * is a frame further down this level (longjmp, an exception's landing
 * pad), the frames above it end without returning, now. */
static int unwind_into(struct hwt_stack *s, struct thread *t, uint64_t parent)
{
	size_t lo = level_base(t);
	for (size_t i = t->n - 1; i-- > lo;) {
		if (frame_function(s, t, &t->v[i]) != parent)
			continue;
		int err = 0;
		while (t->n - 1 > i && !err) {
			s->stats.no_return++;
			err = pop(s, t, HWT_FRAME_NO_RETURN);
		}
		return err;
	}
	return 0;
}

static int on_branch(struct hwt_stack *s, struct thread *t,
		     const struct hwt_elem *e)
{
	uint64_t from = e->u.branch.from, to = e->u.branch.to;
	int err = ensure_root(s, t, from);
	if (err)
		return err;
	t->branches++;
	struct frame_rec *top = &t->v[t->n - 1];
	switch (e->u.branch.kind) {
	case HWT_BRANCH_CALL: {
		s->stats.calls++;
		bool in_range = t->have_range && from >= t->range_start &&
				from < t->range_end;
		struct hwt_frame f = {
			.func = to,
			.call_site = from,
			.return_addr = in_range ? t->range_end : 0,
			.depth = top->f.depth + 1,
			.start = HWT_FRAME_CALLED,
		};
		return push(s, t, &f);
	}
	case HWT_BRANCH_RETURN:
		return on_return(s, t, to);
	case HWT_BRANCH_JUMP:
	case HWT_BRANCH_INDIRECT: {
		uint64_t start, parent;
		if (!s->ops.function_start ||
		    !s->ops.function_start(s->ops.sym_arg, t->pid, to, &start))
			return 0;
		if (!parent_of(s, t, to, &parent))
			parent = start;
		/* Within the running function, or between it and its parts
		 * (main -> main.cold and back): the same frame. A jump to its
		 * own entry is a call of itself, in tail position. */
		if (parent == frame_function(s, t, top) &&
		    !(to == start && start == parent))
			return 0;
		if (start != to)
			return e->u.branch.kind == HWT_BRANCH_INDIRECT
				       ? unwind_into(s, t, parent)
				       : 0;
		s->stats.tail_calls++;
		struct hwt_frame f = {
			.func = to,
			.call_site = from,
			.return_addr = top->f.return_addr,
			.depth = top->f.depth,
			.start = top->f.start == HWT_FRAME_TRAP ? HWT_FRAME_TRAP
							       : HWT_FRAME_TAIL,
		};
		if (!top->f.return_addr && top->f.call_site &&
		    top->f.start != HWT_FRAME_TRAP)
			f.call_site = top->f.call_site; /* matched by site */
		err = pop(s, t, HWT_FRAME_REPLACED);
		return err ? err : push(s, t, &f);
	}
	case HWT_BRANCH_SYSCALL:
		/* rt_sigreturn (or any syscall) resuming where a trap left. */
		for (size_t i = t->n; i-- > 0;)
			if (t->v[i].f.start == HWT_FRAME_TRAP &&
			    t->v[i].f.return_addr == to)
				return leave_trap(s, t, i);
		return to >= KERNEL_START ? enter_trap(s, t, e, 0) : 0;
	case HWT_BRANCH_INTERRUPT:
	case HWT_BRANCH_EXCEPTION:
		return enter_trap(s, t, e, from);
	case HWT_BRANCH_SYSRET:
	case HWT_BRANCH_ERET: {
		size_t i = level_base(t);
		if (t->v[i].f.start == HWT_FRAME_TRAP)
			return leave_trap(s, t, i);
		return 0;
	}
	case HWT_BRANCH_COND:
		return 0;
	}
	return 0;
}

/* Lost trace on a CPU: every thread last seen there may have run in it. */
static int cut_cpu(struct hwt_stack *s, const struct hwt_elem *e,
		   enum hwt_frame_end end)
{
	int err = 0;
	bool any_cpu = !(e->fields & HWT_FIELD_CPU);
	for (size_t i = 0; i < s->nthreads && !err; i++) {
		struct thread *t = &s->threads[i];
		if (any_cpu || t->cpu == e->cpu)
			err = cut(s, t, end);
	}
	return err;
}

static void note_context(struct hwt_stack *s, struct thread *t,
			 const struct hwt_elem *e, uint64_t *time)
{
	if (e->fields & HWT_FIELD_PID)
		t->pid = e->pid;
	if (e->fields & HWT_FIELD_TID)
		t->tid = e->tid;
	if (e->fields & HWT_FIELD_CPU)
		t->cpu = e->cpu;
	if (!(e->fields & HWT_FIELD_TIME))
		return;
	if (t->has_time && e->time < t->last_time) {
		s->stats.time_backwards++;
		*time = t->last_time;
	} else {
		*time = e->time;
	}
	t->last_time = *time;
	t->has_time = true;
}

static int stack_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_stack *s = arg;
	int64_t key = thread_key(e);
	bool lost = e->type == HWT_ELEM_GAP || e->type == HWT_ELEM_ERROR;
	if (lost && key < 0)
		return cut_cpu(s, e, e->type == HWT_ELEM_GAP ? HWT_FRAME_GAP
							    : HWT_FRAME_ERROR);
	struct thread *t = get_thread(s, key);
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	uint64_t time = 0;
	note_context(s, t, e, &time);
	int err = 0;
	if (t->off_pending && e->type != HWT_ELEM_TIMESTAMP &&
	    e->type != HWT_ELEM_CONTEXT) {
		bool resumed = e->type == HWT_ELEM_TRACE_ON &&
			       (e->fields & HWT_FIELD_AT) &&
			       e->u.trace.at == t->off_at;
		t->off_pending = false;
		if (!resumed && (err = cut(s, t, HWT_FRAME_TRACE_OFF)))
			return err;
	}
	switch (e->type) {
	case HWT_ELEM_RANGE:
		if ((err = ensure_root(s, t, e->u.range.start)))
			return err;
		t->insns += e->u.range.insns;
		t->have_range = true;
		t->range_start = e->u.range.start;
		t->range_end = e->u.range.end;
		return 0;
	case HWT_ELEM_BRANCH:
		/* Where the flow went with no word of where from (the code
		 * was missing, and the gap before cut the stack) says
		 * nothing of calls and returns. */
		if (e->fields & HWT_FIELD_NO_FROM)
			return 0;
		/* A sampled stack (LBR, BRBE, BRS) is a window of its own:
		 * what the stack before it left open does not go on into
		 * it, and that is no loss. */
		if ((e->fields & HWT_FIELD_SAMPLED) &&
		    !(e->u.branch.flags & HWT_BRANCH_CONSECUTIVE) && t->n) {
			uint64_t kept = s->stats.cut_by_gap;
			err = cut(s, t, HWT_FRAME_TRACE_OFF);
			s->stats.cut_by_gap = kept;
			if (err)
				return err;
		}
		return on_branch(s, t, e);
	case HWT_ELEM_TRACE_OFF:
		if ((e->fields & HWT_FIELD_AT) &&
		    !(e->fields & HWT_FIELD_TRACE_END)) {
			t->off_pending = true;
			t->off_at = e->u.trace.at;
			return 0;
		}
		return cut(s, t, HWT_FRAME_TRACE_OFF);
	case HWT_ELEM_GAP:
		return cut(s, t, HWT_FRAME_GAP);
	case HWT_ELEM_ERROR:
		return cut(s, t, HWT_FRAME_ERROR);
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TIMESTAMP:
	case HWT_ELEM_CONTEXT:
	case HWT_ELEM_SAMPLE:
		return 0;
	}
	return 0;
}

struct hwt_stack *hwt_stack_new(const struct hwt_stack_ops *ops)
{
	struct hwt_stack *s = calloc(1, sizeof(*s));
	if (s && ops)
		s->ops = *ops;
	return s;
}

void hwt_stack_free(struct hwt_stack *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nthreads; i++)
		free(s->threads[i].v);
	free(s->threads);
	free(s->slots);
	free(s);
}

struct hwt_elem_sink hwt_stack_sink(struct hwt_stack *s)
{
	struct hwt_elem_sink sink = {stack_emit, s};
	return sink;
}

struct close_order {
	uint64_t last_time;
	size_t index;
};

/* Threads by the time of their last element, then in order of
 * appearance. */
static int by_last_time(const void *a, const void *b)
{
	const struct close_order *x = a, *y = b;
	if (x->last_time != y->last_time)
		return x->last_time < y->last_time ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int hwt_stack_finish(struct hwt_stack *s)
{
	/* Each thread's open frames end at its last time: in that order,
	 * what the callbacks see never goes back in time. */
	struct close_order *order = malloc((s->nthreads + 1) * sizeof(*order));
	if (!order)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < s->nthreads; i++)
		order[i] = (struct close_order){s->threads[i].last_time, i};
	qsort(order, s->nthreads, sizeof(*order), by_last_time);
	int err = 0;
	for (size_t i = 0; i < s->nthreads && !err; i++) {
		struct thread *t = &s->threads[order[i].index];
		err = cut(s, t, t->off_pending ? HWT_FRAME_TRACE_OFF
					       : HWT_FRAME_END);
	}
	free(order);
	return err;
}

void hwt_stack_get_stats(const struct hwt_stack *s,
			 struct hwt_stack_stats *stats)
{
	*stats = s->stats;
}

bool hwt_frame_is_call(const struct hwt_frame *f)
{
	return f->start != HWT_FRAME_INFERRED;
}

const char *hwt_frame_start_name(enum hwt_frame_start start)
{
	switch (start) {
	case HWT_FRAME_CALLED: return "called";
	case HWT_FRAME_INFERRED: return "inferred";
	case HWT_FRAME_TAIL: return "tail";
	case HWT_FRAME_TRAP: return "trap";
	}
	return "unknown";
}

const char *hwt_frame_end_name(enum hwt_frame_end end)
{
	switch (end) {
	case HWT_FRAME_OPEN: return "open";
	case HWT_FRAME_RETURNED: return "returned";
	case HWT_FRAME_NO_RETURN: return "no_return";
	case HWT_FRAME_REPLACED: return "replaced";
	case HWT_FRAME_GAP: return "gap";
	case HWT_FRAME_ERROR: return "error";
	case HWT_FRAME_TRACE_OFF: return "trace_off";
	case HWT_FRAME_END: return "end";
	}
	return "unknown";
}
