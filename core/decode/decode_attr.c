/* Which task each element of a per-CPU stream ran in (hwt_ctx_sink).
 *
 * Elements that share a time form a run. A run's time is that of a
 * timing packet (TSC, MTC, CYC, a CoreSight timestamp) near its elements:
 * the last one before them, or, as libipt reads ahead over the timing
 * packets that follow a TNT packet whose last bit it has used, the one
 * just after them. So a run ran after the time of the run before it and
 * before the time of the run after it (the first run of a stream: after
 * its own time, which the sync point's timing packet gives). Sideband
 * events in that span name every task that may have run the run's
 * elements. A run waits until the next run's time is known. */
#include <stdlib.h>
#include <string.h>

#include "core/decode/decode_internal.h"
#include "hwtrace/error.h"

/* More candidate tasks than this are not listed: the set stands for "no
 * constraint", which is what a too-long list amounts to. */
#define SET_MAX 4
/* Elements held at most while waiting for their task; beyond, the oldest
 * are decided with what is known (ambiguous if not enough), WAIT_SLACK
 * more than the excess at once: when runs are longer than WAIT_MAX, the
 * queue then stays full for WAIT_SLACK elements between two such
 * flushes, instead of one element forced out per element queued. */
#define WAIT_MAX 65536
#define WAIT_SLACK 4096

struct task_set {
	bool any;      /* no constraint known */
	uint8_t n;
	struct hwt_task t[SET_MAX];
};

struct run {
	bool closed;
	struct task_set set;
};

/* A stretch of trace between trace_on and trace_off (or a gap): with the
 * kernel not traced, one task ran all of it. */
struct segment {
	bool ended, locked;
	uint32_t closed_runs;
	uint64_t last_run;
	struct task_set inter; /* of its closed runs */
	struct hwt_task task;  /* when locked */
};

struct waiting {
	struct hwt_elem e;
	size_t data; /* offset + 1 in the arena of the element's string or
		      * branch array; 0 when none */
	uint64_t run, seg;
	bool decided, ambiguous;
	struct hwt_task task;
};

struct decision_memo {
	bool valid, decided, ambiguous;
	uint64_t run, seg;
	struct hwt_task task;
};

struct hwt_attr_state {
	/* A ring of cap (a power of two) slots: elements head..n-1 wait,
	 * counted from the stream's start; slot() finds them. */
	struct waiting *q;
	size_t head, n, cap;
	size_t compacted; /* head at the last compact() */
	uint8_t *arena;
	size_t alen, acap;
	bool have_run, have_prev;
	uint64_t lo, prev, run_id, run_base;
	struct run *runs;
	size_t runs_cap;
	uint64_t seg_id, seg_base;
	struct segment *segs;
	size_t segs_cap;
	/* The open run's candidates if it ran until the end of the trace,
	 * for deciding early (too many waiting); valid for run @open_run. */
	uint64_t open_run;
	struct task_set open_set;
	/* Something that decides waiting elements changed (a run closed, a
	 * segment ended) since the last flush: until then the oldest
	 * undecided element stays undecided, and flush has nothing to do. */
	bool changed;
	/* The last decision try_decide made, forced ([1]) and not ([0]),
	 * which stands for every element of the same run and segment until
	 * something changes: with a run longer than WAIT_MAX, each new
	 * element forces out the oldest and then finds the next one
	 * undecided, and asking again each time cost more than the element. */
	struct decision_memo memo[2];
};

static const struct task_set set_any = {.any = true};

static struct task_set set_of(const struct hwt_ctx_sink *cs, uint64_t lo,
			      uint64_t hi)
{
	struct task_set s = {.any = false};
	size_t n = hwt_sideband_tasks_in(cs->sb, cs->cpu, lo, hi, s.t, SET_MAX);
	if (n > SET_MAX)
		return set_any;
	s.n = (uint8_t)n;
	return s;
}

static bool set_has(const struct task_set *s, int32_t tid)
{
	if (s->any)
		return true;
	for (uint8_t i = 0; i < s->n; i++)
		if (s->t[i].tid == tid)
			return true;
	return false;
}

static void set_intersect(struct task_set *a, const struct task_set *b)
{
	if (b->any)
		return;
	if (a->any) {
		*a = *b;
		return;
	}
	uint8_t k = 0;
	for (uint8_t i = 0; i < a->n; i++)
		if (set_has(b, a->t[i].tid))
			a->t[k++] = a->t[i];
	a->n = k;
}

/* Grows *@v (of *@cap elements of @size) to hold index @i. */
static int room(void **v, size_t *cap, size_t size, size_t i)
{
	if (i < *cap)
		return 0;
	size_t ncap = *cap ? *cap : 16;
	while (ncap <= i)
		ncap *= 2;
	void *n = realloc(*v, ncap * size);
	if (!n)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for attribution");
	memset((uint8_t *)n + *cap * size, 0, (ncap - *cap) * size);
	*v = n;
	*cap = ncap;
	return 0;
}

static struct waiting *slot(const struct hwt_attr_state *st, size_t i)
{
	return &st->q[i & (st->cap - 1)];
}

/* Doubles the ring when full, keeping each element at its index. */
static int ring_room(struct hwt_attr_state *st)
{
	if (st->n - st->head < st->cap)
		return 0;
	size_t ncap = st->cap ? st->cap * 2 : 1024;
	struct waiting *q = malloc(ncap * sizeof(*q));
	if (!q)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for attribution");
	for (size_t i = st->head; i < st->n; i++)
		q[i & (ncap - 1)] = *slot(st, i);
	free(st->q);
	st->q = q;
	st->cap = ncap;
	return 0;
}

static struct run *run_at(struct hwt_attr_state *st, uint64_t id)
{
	return &st->runs[id - st->run_base];
}

static struct segment *seg_at(struct hwt_attr_state *st, uint64_t id)
{
	return &st->segs[id - st->seg_base];
}

static int new_segment(struct hwt_attr_state *st)
{
	st->seg_id++;
	int err = room((void **)&st->segs, &st->segs_cap, sizeof(*st->segs),
		       st->seg_id - st->seg_base);
	if (err)
		return err;
	*seg_at(st, st->seg_id) = (struct segment){.inter = set_any,
						   .last_run = UINT64_MAX};
	return 0;
}

static int new_run(struct hwt_attr_state *st, uint64_t lo)
{
	st->run_id++;
	int err = room((void **)&st->runs, &st->runs_cap, sizeof(*st->runs),
		       st->run_id - st->run_base);
	if (err)
		return err;
	*run_at(st, st->run_id) = (struct run){.closed = false};
	st->have_run = true;
	st->changed = true;
	st->lo = lo;
	return 0;
}

/* A time going back (a new buffer, a resync) bounds nothing before it. */
static void forget_prev(struct hwt_attr_state *st, uint64_t time)
{
	if (st->have_prev && st->prev > time)
		st->have_prev = false;
}

/* The open run ends where the trace reached @hi: its candidates narrow
 * the segments its elements are in. */
static void close_run(struct hwt_ctx_sink *cs, uint64_t hi)
{
	struct hwt_attr_state *st = cs->st;
	if (!st->have_run)
		return;
	struct run *r = run_at(st, st->run_id);
	r->closed = true;
	st->changed = true;
	uint64_t from = st->have_prev && st->prev < st->lo ? st->prev : st->lo;
	r->set = set_of(cs, from, hi > st->lo ? hi : st->lo + 1);
	st->have_run = false;
	st->have_prev = true;
	st->prev = st->lo;
	if (!cs->segments)
		return;
	for (uint64_t s = st->seg_id + 1; s-- > st->seg_base;) {
		struct segment *g = seg_at(st, s);
		if (g->last_run != st->run_id)
			break;
		set_intersect(&g->inter, &r->set);
		g->closed_runs++;
	}
}

/* The candidates of @w's run: when it is closed, its own; when it is
 * still open and @force, those of the widest span it may have (until the
 * end of the trace); else NULL. */
static const struct task_set *run_set(struct hwt_ctx_sink *cs,
				      const struct waiting *w, bool force)
{
	struct hwt_attr_state *st = cs->st;
	struct run *r = run_at(st, w->run);
	if (r->closed)
		return &r->set;
	if (!force)
		return NULL;
	if (st->open_run != w->run) {
		uint64_t from = st->have_prev && st->prev < st->lo ? st->prev : st->lo;
		st->open_set = set_of(cs, from, UINT64_MAX);
		st->open_run = w->run;
	}
	return &st->open_set;
}

static void decide_set(struct waiting *w, const struct task_set *s)
{
	w->decided = true;
	w->task = (struct hwt_task){-1, -1};
	if (!s->any && s->n == 1)
		w->task = s->t[0];
	else
		w->ambiguous = true;
}

/* Decides @w when what is known allows; @force: with what is known. */
static void try_decide(struct hwt_ctx_sink *cs, struct waiting *w, bool force)
{
	struct hwt_attr_state *st = cs->st;
	const struct task_set *rs = run_set(cs, w, force);
	if (!cs->segments) {
		if (rs)
			decide_set(w, rs);
		return;
	}
	struct segment *g = seg_at(st, w->seg);
	if (!g->locked && g->closed_runs && !g->inter.any && g->inter.n == 1 &&
	    g->inter.t[0].tid >= 0) {
		g->locked = true;
		g->task = g->inter.t[0];
	}
	if (g->locked) {
		if (!rs)
			return;
		w->decided = true;
		if (set_has(rs, g->task.tid)) {
			w->task = g->task;
		} else {
			/* The times contradict the segment's task (clocks
			 * apart): say so rather than pick one. */
			w->task = (struct hwt_task){-1, -1};
			w->ambiguous = true;
		}
		return;
	}
	bool known = g->ended && g->last_run != UINT64_MAX &&
		     run_at(st, g->last_run)->closed;
	if (known) {
		decide_set(w, g->closed_runs ? &g->inter : &set_any);
	} else if (force && rs) {
		struct task_set s = g->closed_runs ? g->inter : set_any;
		set_intersect(&s, rs);
		decide_set(w, &s);
	}
}

static int pass_on(struct hwt_ctx_sink *cs, struct waiting *w)
{
	/* Passed on from its slot, which it leaves: no copy. */
	struct hwt_elem *e = &w->e;
	/* Its pointer is the copy's, or was made NULL (or "") when queued. */
	if (w->data)
		*hwt_elem_pointer(e) = cs->st->arena + w->data - 1;
	e->cpu = cs->cpu;
	e->fields |= HWT_FIELD_CPU;
	e->fields &= ~(uint32_t)(HWT_FIELD_PID | HWT_FIELD_TID);
	if (w->ambiguous) {
		e->fields |= HWT_FIELD_TASK_AMBIGUOUS;
		cs->ambiguous++;
	} else if (w->task.tid >= 0) {
		e->tid = w->task.tid;
		e->fields |= HWT_FIELD_TID;
		if (w->task.pid >= 0) {
			e->pid = w->task.pid;
			e->fields |= HWT_FIELD_PID;
		}
	}
	return cs->next->emit(cs->next->arg, e);
}

/* Drops what the elements passed on no longer need: their
 * strings, and the runs and segments before the oldest waiting one (a run
 * or segment is never older than the elements in it). */
static void compact(struct hwt_attr_state *st)
{
	st->compacted = st->head;
	bool left = st->head < st->n;
	/* Most streams carry no strings: then there is no arena to walk. */
	size_t cut = st->alen;
	for (size_t i = st->head; i < st->n && cut && cut == st->alen; i++)
		if (slot(st, i)->data)
			cut = slot(st, i)->data - 1;
	cut &= ~(size_t)7; /* keep the arena's alignment */
	if (cut) {
		memmove(st->arena, st->arena + cut, st->alen - cut);
		st->alen -= cut;
		for (size_t i = st->head; i < st->n; i++)
			if (slot(st, i)->data)
				slot(st, i)->data -= cut;
	}
	uint64_t run = left ? slot(st, st->head)->run : st->run_id;
	uint64_t seg = left ? slot(st, st->head)->seg : st->seg_id;
	memmove(st->runs, run_at(st, run), (st->run_id - run + 1) * sizeof(*st->runs));
	st->run_base = run;
	memmove(st->segs, seg_at(st, seg), (st->seg_id - seg + 1) * sizeof(*st->segs));
	st->seg_base = seg;
}

/* Passes on the decided elements at the head; @force decides all. */
static int flush(struct hwt_ctx_sink *cs, bool force)
{
	struct hwt_attr_state *st = cs->st;
	bool over = st->n - st->head > WAIT_MAX;
	if (!force && !over && !st->changed && st->head < st->n &&
	    !slot(st, st->head)->decided)
		return 0;
	if (st->changed)
		st->memo[0].valid = st->memo[1].valid = false;
	st->changed = false;
	/* In locals: the sink called for each element could, for all the
	 * compiler knows, change *st, which it would then read again. */
	struct waiting *q = st->q;
	size_t mask = st->cap - 1, head = st->head, n = st->n;
	/* The oldest elements beyond WAIT_MAX, and WAIT_SLACK more, are
	 * decided by force. */
	size_t forced_until = force ? n
			      : n > head + WAIT_MAX ? n - WAIT_MAX + WAIT_SLACK
						    : head;
	int err = 0;
	while (head < n) {
		struct waiting *w = &q[head & mask];
		if (!w->decided) {
			bool f = head < forced_until;
			struct decision_memo *m = &st->memo[f];
			if (m->valid && m->run == w->run && m->seg == w->seg) {
				w->decided = m->decided;
				w->task = m->task;
				w->ambiguous = m->ambiguous;
			} else {
				try_decide(cs, w, f);
				m->valid = true;
				m->decided = w->decided;
				m->ambiguous = w->ambiguous;
				m->run = w->run;
				m->seg = w->seg;
				m->task = w->task;
			}
			if (!w->decided)
				break;
		}
		head++;
		err = pass_on(cs, w);
		if (err < 0)
			break;
	}
	st->head = head;
	if (err < 0)
		return err;
	size_t done = st->head - st->compacted;
	if (done >= 256 && done >= st->n - st->head)
		compact(st);
	return 0;
}

/* Copies the element's string or branch array into the arena; the
 * element's pointer to them is set when it is passed on. One to nothing
 * (an empty branch array) is made NULL now, an error's missing message
 * "". */
static int keep_data(struct hwt_attr_state *st, struct waiting *w)
{
	size_t len;
	const void *p = hwt_elem_payload(&w->e, &len);
	w->data = 0;
	if (!p && w->e.type == HWT_ELEM_ERROR)
		w->e.u.error.message = "";
	if (p && !len)
		*hwt_elem_pointer(&w->e) = NULL;
	if (!p || !len)
		return 0;
	size_t at = (st->alen + 7) & ~(size_t)7;
	int err = room((void **)&st->arena, &st->acap, 1, at + len);
	if (err)
		return err;
	memcpy(st->arena + at, p, len);
	st->alen = at + len;
	w->data = at + 1;
	return 0;
}

static int append(struct hwt_ctx_sink *cs, const struct hwt_elem *e,
		  struct waiting **out)
{
	struct hwt_attr_state *st = cs->st;
	int err = ring_room(st);
	if (err)
		return err;
	/* Every field is set here or, for the task, when decided. */
	struct waiting *w = slot(st, st->n);
	w->e = *e;
	w->decided = w->ambiguous = false;
	err = keep_data(st, w);
	if (err)
		return err;
	w->run = st->run_id;
	w->seg = st->seg_id;
	st->n++;
	*out = w;
	return 0;
}

static int ensure_state(struct hwt_ctx_sink *cs)
{
	if (cs->st)
		return 0;
	cs->st = calloc(1, sizeof(*cs->st));
	if (!cs->st)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for attribution");
	/* Run and segment 0 stand for "before any time": never closed
	 * with a set, so an element there stays unattributed. */
	int err = room((void **)&cs->st->runs, &cs->st->runs_cap,
		       sizeof(*cs->st->runs), 0);
	if (!err)
		err = room((void **)&cs->st->segs, &cs->st->segs_cap,
			   sizeof(*cs->st->segs), 0);
	if (err)
		return err;
	cs->st->segs[0] = (struct segment){.inter = set_any,
					   .last_run = UINT64_MAX};
	cs->st->open_run = UINT64_MAX;
	return 0;
}

/* Kept out of line: ctx_emit then stays a few instructions and a tail
 * call for per-thread streams. */
static __attribute__((noinline)) int per_cpu_emit(struct hwt_ctx_sink *cs,
						 const struct hwt_elem *e)
{
	int err = cs->st ? 0 : ensure_state(cs);
	if (err)
		return err;
	struct hwt_attr_state *st = cs->st;

	if (e->fields & HWT_FIELD_TIME) {
		if (st->have_run && e->time != st->lo)
			/* Time going back (a new buffer) bounds nothing. */
			close_run(cs, e->time > st->lo ? e->time : UINT64_MAX);
		if (!st->have_run) {
			forget_prev(st, e->time);
			if ((err = new_run(st, e->time)) < 0)
				return err;
		}
	}
	bool breaks = e->type == HWT_ELEM_GAP || e->type == HWT_ELEM_ERROR;
	struct segment *g = seg_at(st, st->seg_id);
	if (breaks || (e->type == HWT_ELEM_TRACE_ON && g->last_run != UINT64_MAX) ||
	    g->ended) {
		g->ended = true;
		st->changed = true;
		if ((err = new_segment(st)) < 0)
			return err;
	}
	struct waiting *w;
	if ((err = append(cs, e, &w)) < 0)
		return err;
	g = seg_at(st, st->seg_id);
	if (e->fields & HWT_FIELD_TID) {
		/* The trace names the task itself (CoreSight's context ID
		 * is the tid when perf traced it): no guessing needed. */
		w->decided = true;
		w->task = (struct hwt_task){hwt_sideband_thread_pid(cs->sb, e->tid),
					    e->tid};
	} else if (!st->have_run) {
		/* No time yet in this stream: nothing says whose it is. */
		w->decided = true;
		w->task = (struct hwt_task){-1, -1};
	}
	g->last_run = st->have_run ? st->run_id : g->last_run;
	if (breaks || e->type == HWT_ELEM_TRACE_OFF) {
		g->ended = true;
		st->changed = true;
	}
	return flush(cs, false);
}

/* A per-thread stream's element, given its task. */
static int per_thread_emit(struct hwt_ctx_sink *cs, const struct hwt_elem *e)
{
	/* Most decoders put the stream's task on already: no copy. */
	if ((cs->pid < 0 || ((e->fields & HWT_FIELD_PID) && e->pid == cs->pid)) &&
	    (cs->tid < 0 || ((e->fields & HWT_FIELD_TID) && e->tid == cs->tid)))
		return cs->next->emit(cs->next->arg, e);
	struct hwt_elem copy = *e;
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

/* The decoder's elements; the decode errors among them are counted (a
 * loss record's error is the capture's, given by hwt_ctx_sink_loss). */
static int ctx_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_ctx_sink *cs = arg;
	cs->errors += e->type == HWT_ELEM_ERROR;
	if (cs->cpu >= 0)
		return per_cpu_emit(cs, e);
	return per_thread_emit(cs, e);
}

struct hwt_elem_sink hwt_ctx_sink(struct hwt_ctx_sink *cs)
{
	struct hwt_elem_sink s = {ctx_emit, cs};
	return s;
}

int hwt_ctx_sink_loss(struct hwt_ctx_sink *cs, const struct hwt_elem *e)
{
	if (cs->cpu < 0)
		return per_thread_emit(cs, e);
	int err = ensure_state(cs);
	struct waiting *w;
	if (err || (err = append(cs, e, &w)) < 0)
		return err;
	/* A record's time is exact: whoever ran then. */
	struct task_set s = set_any;
	if (e->fields & HWT_FIELD_TIME)
		s = set_of(cs, e->time, e->time + 1);
	decide_set(w, &s);
	if (s.any || s.n != 1) {
		/* A loss in a switch is not an element that ran: leave its
		 * task out without calling it ambiguous. */
		w->ambiguous = false;
	}
	return flush(cs, false);
}

int hwt_ctx_sink_end(struct hwt_ctx_sink *cs)
{
	if (!cs->st)
		return 0;
	struct hwt_attr_state *st = cs->st;
	close_run(cs, UINT64_MAX);
	seg_at(st, st->seg_id)->ended = true;
	int err = flush(cs, true);
	/* The next stream starts from nothing. */
	st->head = st->n = st->alen = st->compacted = 0;
	st->memo[0].valid = st->memo[1].valid = false;
	st->have_run = st->have_prev = false;
	st->run_id = st->run_base = 0;
	st->open_run = UINT64_MAX;
	st->seg_id = st->seg_base = 0;
	st->runs[0] = (struct run){.closed = false};
	st->segs[0] = (struct segment){.inter = set_any, .last_run = UINT64_MAX};
	return err;
}

void hwt_ctx_sink_free(struct hwt_ctx_sink *cs)
{
	if (!cs->st)
		return;
	free(cs->st->q);
	free(cs->st->arena);
	free(cs->st->runs);
	free(cs->st->segs);
	free(cs->st);
	cs->st = NULL;
}

int hwt_ctx_sink_start(struct hwt_ctx_sink *cs, const struct hwt_sideband *sb,
		       int32_t cpu, int32_t pid, int32_t tid)
{
	int err = hwt_ctx_sink_end(cs);
	cs->sb = sb;
	cs->cpu = cpu;
	cs->pid = pid;
	cs->tid = tid;
	return err;
}
