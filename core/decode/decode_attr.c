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

#include "core/decode/array_grow.h"
#include "core/decode/attr_queue.h"
#include "core/decode/decode_internal.h"
#include "core/decode/par_batch.h"
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

struct hwt_attr_state {
	/* The elements that wait, in groups of one run and segment. */
	struct attr_queue q;
	uint64_t compacted; /* q.head at the last compact() */
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
	 * undecided group stays undecided, and flush has nothing to do. */
	bool changed;
	/* The last flush left an undecided group at the head. Only a flush
	 * decides groups, and elements join at the tail: it holds until
	 * the next flush, and spares the one after each element finding
	 * the head. */
	bool head_waits;
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

/* Grows *@v (of *@cap elements of @size) to hold index @i, the new
 * elements zero. */
static int room(void **v, size_t *cap, size_t size, size_t i)
{
	size_t old = *cap;
	if (!array_grow(v, cap, size, i + 1))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for attribution");
	memset((uint8_t *)*v + old * size, 0, (*cap - old) * size);
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

/* The candidates of @run: when it is closed, its own; when it is still
 * open and @force, those of the widest span it may have (until the end of
 * the trace); else NULL. */
static const struct task_set *run_set(struct hwt_ctx_sink *cs, uint64_t run,
				      bool force)
{
	struct hwt_attr_state *st = cs->st;
	struct run *r = run_at(st, run);
	if (r->closed)
		return &r->set;
	if (!force)
		return NULL;
	if (st->open_run != run) {
		uint64_t from = st->have_prev && st->prev < st->lo ? st->prev : st->lo;
		st->open_set = set_of(cs, from, UINT64_MAX);
		st->open_run = run;
	}
	return &st->open_set;
}

static void decide_set(struct aq_decision *d, const struct task_set *s)
{
	d->decided = true;
	d->task = (struct hwt_task){-1, -1};
	if (!s->any && s->n == 1)
		d->task = s->t[0];
	else
		d->ambiguous = true;
}

/* Decides the group @q when what is known allows; @force: with what is
 * known. */
static void try_decide(struct hwt_ctx_sink *cs, struct aq_group *q, bool force)
{
	struct hwt_attr_state *st = cs->st;
	struct aq_decision *d = &q->d;
	const struct task_set *rs = run_set(cs, q->run, force);
	if (!cs->segments) {
		if (rs)
			decide_set(d, rs);
		return;
	}
	struct segment *g = seg_at(st, q->seg);
	if (!g->locked && g->closed_runs && !g->inter.any && g->inter.n == 1 &&
	    g->inter.t[0].tid >= 0) {
		g->locked = true;
		g->task = g->inter.t[0];
	}
	if (g->locked) {
		if (!rs)
			return;
		d->decided = true;
		if (set_has(rs, g->task.tid)) {
			d->task = g->task;
		} else {
			/* The times contradict the segment's task (clocks
			 * apart): say so rather than pick one. */
			d->task = (struct hwt_task){-1, -1};
			d->ambiguous = true;
		}
		return;
	}
	bool known = g->ended && g->last_run != UINT64_MAX &&
		     run_at(st, g->last_run)->closed;
	if (known) {
		decide_set(d, g->closed_runs ? &g->inter : &set_any);
	} else if (force && rs) {
		struct task_set s = g->closed_runs ? g->inter : set_any;
		set_intersect(&s, rs);
		decide_set(d, &s);
	}
}

/* Puts a decided group's task on an element of it (aq_pop_head's
 * stamp). */
static void stamp_task(void *arg, struct hwt_elem *e, const struct aq_group *g)
{
	struct hwt_ctx_sink *cs = arg;
	if (e->type == HWT_ELEM_ERROR && !e->u.error.message)
		e->u.error.message = "";
	e->cpu = cs->cpu;
	e->fields |= HWT_FIELD_CPU;
	e->fields &= ~(uint32_t)(HWT_FIELD_PID | HWT_FIELD_TID);
	if (g->d.ambiguous) {
		e->fields |= HWT_FIELD_TASK_AMBIGUOUS;
	} else if (g->d.task.tid >= 0) {
		e->tid = g->d.task.tid;
		e->fields |= HWT_FIELD_TID;
		if (g->d.task.pid >= 0) {
			e->pid = g->d.task.pid;
			e->fields |= HWT_FIELD_PID;
		}
	}
}

/* Drops the runs and segments before the oldest waiting element's (a run
 * or segment is never older than the elements in it). */
static void compact(struct hwt_attr_state *st)
{
	st->compacted = st->q.head;
	const struct aq_group *g = aq_head(&st->q);
	uint64_t run = g ? g->run : st->run_id;
	uint64_t seg = g ? g->seg : st->seg_id;
	memmove(st->runs, run_at(st, run), (st->run_id - run + 1) * sizeof(*st->runs));
	st->run_base = run;
	memmove(st->segs, seg_at(st, seg), (st->seg_id - seg + 1) * sizeof(*st->segs));
	st->seg_base = seg;
}

/* Passes on the decided groups at the head; @force decides all. */
static int flush_groups(struct hwt_ctx_sink *cs, bool force)
{
	/* Deciding, popping and compacting may change the newest group. */
	cs->open = NULL;
	struct hwt_attr_state *st = cs->st;
	struct attr_queue *q = &st->q;
	bool over = q->end - q->head > WAIT_MAX;
	struct aq_group *g;
	st->changed = false;
	/* The oldest elements beyond WAIT_MAX, and WAIT_SLACK more, are
	 * decided by force. */
	uint64_t forced_until = force ? q->end
				: over ? q->end - WAIT_MAX + WAIT_SLACK
				       : q->head;
	int err = 0;
	while (err >= 0 && (g = aq_head(q))) {
		if (!g->d.decided) {
			bool f = g->first < forced_until;
			try_decide(cs, g, f);
			if (!g->d.decided)
				break;
			/* A forced decision holds for the elements it was
			 * forced for; the rest are asked again. */
			if (f && g->first + g->n > forced_until) {
				uint64_t k = forced_until - g->first;
				struct aq_decision d = g->d;
				g->d = (struct aq_decision){0};
				if ((err = aq_split_head(q, k)) < 0)
					break;
				aq_head(q)->d = d;
			}
		}
		g = aq_head(q); /* the front part, after a split */
		if (g->d.ambiguous)
			cs->ambiguous += g->n;
		err = aq_pop_head(q, stamp_task, cs, cs->next);
	}
	if (err < 0)
		return err;
	g = aq_head(q);
	st->head_waits = g && !g->d.decided;
	uint64_t done = q->head - st->compacted;
	if (done >= 256 && done >= q->end - q->head)
		compact(st);
	return 0;
}

/* Inline: for most elements nothing has changed that decides one. */
static inline int flush(struct hwt_ctx_sink *cs, bool force)
{
	struct hwt_attr_state *st = cs->st;
	struct attr_queue *q = &st->q;
	if (!force && !st->changed && st->head_waits &&
	    q->end - q->head <= WAIT_MAX)
		return 0;
	return flush_groups(cs, force);
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
	struct aq_decision d = {.decided = false};
	if (e->fields & HWT_FIELD_TID) {
		/* The trace names the task itself (CoreSight's context ID
		 * is the tid when perf traced it): no guessing needed. */
		d.decided = true;
		d.task = (struct hwt_task){hwt_sideband_thread_pid(cs->sb, e->tid),
					   e->tid};
	} else if (!st->have_run) {
		/* No time yet in this stream: nothing says whose it is. */
		d.decided = true;
		d.task = (struct hwt_task){-1, -1};
	}
	if ((err = aq_push(&st->q, e, st->run_id, st->seg_id, &d)) < 0)
		return err;
	g = seg_at(st, st->seg_id);
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

/* The newest waiting group, when a range or branch with its common
 * fields joins it with nothing else to do: per_cpu_emit's steps would all
 * do nothing (same time, same segment, still open). An undecided newest
 * group of this run and segment means the run is open (have_run) and its
 * time the element's. */
static struct aq_group *open_group(struct hwt_ctx_sink *cs)
{
	struct hwt_attr_state *st = cs->st;
	if (cs->cpu < 0 || !st || seg_at(st, st->seg_id)->ended)
		return NULL;
	return aq_tail_open(&st->q, st->run_id, st->seg_id);
}

/* Whether @e joins cs->open. Asked for nearly every element: cs->open is
 * kept rather than found again, which took a chain of four dependent
 * loads (the state, the segment, the queue's tail, the group) and was
 * the largest part of the attribution's cost per element. */
static inline __attribute__((always_inline)) bool
joins_newest(const struct hwt_ctx_sink *cs, const struct hwt_elem *e)
{
	return cs->open && elem_common_same(&cs->open->common, e);
}

/* The decoder's elements; the decode errors among them are counted (a
 * loss record's error is the capture's, given by hwt_ctx_sink_loss). */
static int ctx_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_ctx_sink *cs = arg;
	/* A range or branch joining the newest group: most elements. */
	if (joins_newest(cs, e) && aq_append_one(&cs->st->q, e))
		return flush(cs, false);
	cs->open = NULL;
	cs->errors += e->type == HWT_ELEM_ERROR;
	if (cs->cpu < 0)
		return per_thread_emit(cs, e);
	int err = per_cpu_emit(cs, e);
	if (err >= 0)
		cs->open = open_group(cs);
	return err;
}

int hwt_ctx_sink_batch(struct hwt_ctx_sink *cs, struct par_batch *b)
{
	struct par_cursor c;
	int err = par_cursor_start(&c, b);
	if (err < 0)
		return err;
	const struct hwt_elem *e;
	while ((e = par_cursor_next(&c))) {
		if ((err = ctx_emit(cs, e)) < 0)
			return err;
		/* The ranges and branches after it join its group: slots
		 * copied in bulk, up to where one more would be over
		 * WAIT_MAX, where one by one the flush after it would
		 * force decisions. Asked first whether they would join, so
		 * that a run that does not (every run of a per-thread
		 * capture) is never measured. */
		size_t k;
		while (joins_newest(cs, &c.e) && (k = par_cursor_run(&c))) {
			struct attr_queue *q = &cs->st->q;
			uint64_t waiting = q->end - q->head;
			if (waiting + k > WAIT_MAX)
				k = (size_t)(WAIT_MAX + 1 - waiting);
			if ((err = aq_append_slots(q, par_cursor_take(&c, k), k)) < 0 ||
			    (err = flush(cs, false)) < 0)
				return err;
		}
	}
	return 0;
}

struct hwt_elem_sink hwt_ctx_sink(struct hwt_ctx_sink *cs)
{
	struct hwt_elem_sink s = {ctx_emit, cs};
	return s;
}

int hwt_ctx_sink_loss(struct hwt_ctx_sink *cs, const struct hwt_elem *e)
{
	cs->open = NULL;
	if (cs->cpu < 0)
		return per_thread_emit(cs, e);
	int err = ensure_state(cs);
	if (err)
		return err;
	/* A record's time is exact: whoever ran then. */
	struct task_set s = set_any;
	if (e->fields & HWT_FIELD_TIME)
		s = set_of(cs, e->time, e->time + 1);
	struct aq_decision d = {.decided = false};
	decide_set(&d, &s);
	if (s.any || s.n != 1) {
		/* A loss in a switch is not an element that ran: leave its
		 * task out without calling it ambiguous. */
		d.ambiguous = false;
	}
	if ((err = aq_push(&cs->st->q, e, cs->st->run_id, cs->st->seg_id, &d)) < 0)
		return err;
	return flush(cs, false);
}

int hwt_ctx_sink_end(struct hwt_ctx_sink *cs)
{
	cs->open = NULL;
	if (!cs->st)
		return 0;
	struct hwt_attr_state *st = cs->st;
	close_run(cs, UINT64_MAX);
	seg_at(st, st->seg_id)->ended = true;
	int err = flush(cs, true);
	/* The next stream starts from nothing. */
	aq_clear(&st->q);
	st->head_waits = false;
	st->compacted = 0;
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
	cs->open = NULL;
	if (!cs->st)
		return;
	aq_free(&cs->st->q);
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
