/* Threads, their names over time and the context switches, from the typed
 * views of COMM, FORK and SWITCH records (perfdata_threads.h). */
#include <stdlib.h>
#include <string.h>

#include "core/perfdata/perfdata_threads.h"
#include "hwtrace/error.h"
#include "hwtrace/records.h"

/* A record the switches need, with the time they are put in order by. */
struct pd_sw_event {
	uint64_t time;
	size_t order;                 /* file order, for equal times */
	uint32_t type;
	bool out, preempt;            /* SWITCH */
	int32_t pid, tid;             /* COMM, FORK: the thread; SWITCH: the
				       * sample's */
	int32_t other_pid, other_tid; /* FORK: the parent; CPU-wide SWITCH:
				       * the next or previous task */
	int32_t cpu;
	const char *comm;             /* COMM: its name */
};

struct pd_last_name {
	int32_t tid;
	size_t order;
	const char *name;
};

static int grow(void *vp, size_t *cap, size_t n, size_t elem)
{
	void **v = vp;
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(*v, c * elem);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	*v = p;
	*cap = c;
	return 0;
}

/* A copy of @len bytes of @s, owned by @t; NULL when out of memory. */
static const char *keep(struct hwt_pd_threads *t, const char *s, size_t len)
{
	if (grow(&t->strs, &t->strs_cap, t->nstrs, sizeof(*t->strs)))
		return NULL;
	char *copy = malloc(len + 1);
	if (!copy) {
		hwt_error(HWT_ERR_NOMEM, "out of memory");
		return NULL;
	}
	memcpy(copy, s, len);
	copy[len] = 0;
	t->strs[t->nstrs++] = copy;
	return copy;
}

/* The name @tid has so far in file order, as a FORK copies it. */
static const char *task_name(const struct hwt_pd_threads *t, int32_t tid)
{
	for (size_t i = t->ntasks; i-- > 0;)
		if (t->tasks[i].tid == tid && t->tasks[i].name)
			return t->tasks[i].name;
	return NULL;
}

static int add_task(struct hwt_pd_threads *t, struct hwt_capture_task task)
{
	if (grow(&t->tasks, &t->tasks_cap, t->ntasks, sizeof(*t->tasks)))
		return HWT_ERR_NOMEM;
	t->tasks[t->ntasks++] = task;
	return 0;
}

static int add_event(struct hwt_pd_threads *t, struct pd_sw_event e)
{
	if (grow(&t->events, &t->events_cap, t->nevents, sizeof(*t->events)))
		return HWT_ERR_NOMEM;
	e.order = t->nevents;
	t->events[t->nevents++] = e;
	return 0;
}

int hwt_pd_threads_add(struct hwt_pd_threads *t, const struct hwt_pd_record *rec)
{
	struct hwt_rec v;
	if ((rec->type != PERF_RECORD_COMM && rec->type != PERF_RECORD_FORK &&
	     rec->type != PERF_RECORD_SWITCH &&
	     rec->type != PERF_RECORD_SWITCH_CPU_WIDE) ||
	    !hwt_rec_parse(rec, &v))
		return 0;
	uint64_t time = rec->sid.present & PERF_SAMPLE_TIME ? rec->sid.time : 0;
	struct pd_sw_event e = {.time = time, .type = rec->type, .cpu = -1};
	if (rec->type == PERF_RECORD_COMM) {
		const char *name = keep(t, v.u.comm.comm.s, v.u.comm.comm.len);
		if (!name)
			return HWT_ERR_NOMEM;
		/* The header and pid/tid alone: a COMM that names nothing. */
		int err = rec->size > 16
				  ? add_task(t, (struct hwt_capture_task){
					    v.u.comm.pid, v.u.comm.tid, -1, -1,
					    time, false, name})
				  : 0;
		e.pid = v.u.comm.pid;
		e.tid = v.u.comm.tid;
		e.comm = name;
		return err ? err : add_event(t, e);
	}
	if (rec->type == PERF_RECORD_FORK) {
		const struct hwt_rec_fork *f = &v.u.fork;
		int err = add_task(t, (struct hwt_capture_task){
			f->pid, f->tid, f->ppid, f->ptid, time, true,
			task_name(t, f->ptid)});
		e.pid = f->pid;
		e.tid = f->tid;
		e.other_pid = f->ppid;
		e.other_tid = f->ptid;
		return err ? err : add_event(t, e);
	}
	if (!(rec->sid.present & PERF_SAMPLE_TID))
		return 0; /* a switch of no thread that could be named */
	e.pid = (int32_t)rec->sid.pid;
	e.tid = (int32_t)rec->sid.tid;
	if (rec->sid.present & PERF_SAMPLE_CPU)
		e.cpu = (int32_t)rec->sid.cpu;
	e.out = v.u.sw.out;
	e.preempt = v.u.sw.preempt;
	e.other_pid = v.u.sw.next_prev_pid;
	e.other_tid = v.u.sw.next_prev_tid;
	return add_event(t, e);
}

static int by_time(const void *a, const void *b)
{
	const struct pd_sw_event *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The threads known at a point of the switches' time order. */
struct known {
	struct pd_last_name *v;
	size_t n, cap;
};

static const char *known_name(const struct known *k, int32_t tid)
{
	for (size_t i = k->n; i-- > 0;)
		if (k->v[i].tid == tid)
			return k->v[i].name;
	return tid == 0 ? "swapper" : NULL; /* the idle task, as perf names it */
}

static int know(struct known *k, int32_t tid, const char *name)
{
	for (size_t i = k->n; i-- > 0;)
		if (k->v[i].tid == tid) {
			k->v[i].name = name;
			return 0;
		}
	if (grow(&k->v, &k->cap, k->n, sizeof(*k->v)))
		return HWT_ERR_NOMEM;
	k->v[k->n++] = (struct pd_last_name){tid, 0, name};
	return 0;
}

/* The switch @e, its sides named by @k: false when it is left out. */
static bool name_switch(const struct known *k, const struct pd_sw_event *e,
			struct hwt_capture_switch *s)
{
	const char *na = known_name(k, e->tid);
	const char *nb = e->other_tid >= 0 ? known_name(k, e->other_tid) : NULL;
	bool idle_a = na && e->tid == 0 && e->pid == 0;
	bool idle_b = nb && e->other_tid == 0 && e->other_pid == 0;
	if ((!na || idle_a) && (!nb || idle_b))
		return false;
	int32_t apid = na ? e->pid : -1, atid = na ? e->tid : -1;
	int32_t bpid = nb ? e->other_pid : -1, btid = nb ? e->other_tid : -1;
	*s = (struct hwt_capture_switch){
		.time = e->time, .cpu = e->cpu,
		.out_pid = e->out ? apid : bpid, .out_tid = e->out ? atid : btid,
		.in_pid = e->out ? bpid : apid, .in_tid = e->out ? btid : atid,
		.out = e->out, .preempt = e->out && e->preempt,
		.out_comm = e->out ? na : nb, .in_comm = e->out ? nb : na,
	};
	return true;
}

static int make_switches(struct hwt_pd_threads *t)
{
	if (!t->nevents)
		return 0;
	qsort(t->events, t->nevents, sizeof(*t->events), by_time);
	t->switches = malloc(t->nevents * sizeof(*t->switches));
	if (!t->switches)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	struct known k = {0};
	int err = 0;
	for (size_t i = 0; !err && i < t->nevents; i++) {
		const struct pd_sw_event *e = &t->events[i];
		if (e->type == PERF_RECORD_COMM) {
			err = know(&k, e->tid, e->comm);
		} else if (e->type == PERF_RECORD_FORK) {
			const char *parent = known_name(&k, e->other_tid);
			err = parent ? know(&k, e->tid, parent) : 0;
		} else if (name_switch(&k, e, &t->switches[t->nswitches])) {
			t->nswitches++;
		}
	}
	free(k.v);
	return err;
}

static int by_tid_then_order(const void *a, const void *b)
{
	const struct pd_last_name *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Each named thread's last name, sorted by tid for the lookup. */
static int make_last_names(struct hwt_pd_threads *t)
{
	t->last = malloc((t->ntasks ? t->ntasks : 1) * sizeof(*t->last));
	if (!t->last)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < t->ntasks; i++)
		if (t->tasks[i].name)
			t->last[n++] = (struct pd_last_name){
				t->tasks[i].tid, i, t->tasks[i].name};
	if (n)
		qsort(t->last, n, sizeof(*t->last), by_tid_then_order);
	t->nlast = 0;
	for (size_t i = 0; i < n; i++) {
		bool later_same = i + 1 < n && t->last[i + 1].tid == t->last[i].tid;
		if (!later_same)
			t->last[t->nlast++] = t->last[i];
	}
	return 0;
}

static int copy_build_ids(struct hwt_pd_threads *t,
			  const struct hwt_pd_reader *reader)
{
	struct hwt_pd_build_id b;
	size_t cap = 0;
	for (size_t i = 0; hwt_pd_reader_build_id(reader, i, &b) > 0; i++) {
		if (!b.filename)
			continue;
		if (grow(&t->ids, &cap, t->nids, sizeof(*t->ids)))
			return HWT_ERR_NOMEM;
		const char *path = keep(t, b.filename, strlen(b.filename));
		if (!path)
			return HWT_ERR_NOMEM;
		struct hwt_capture_build_id *id = &t->ids[t->nids++];
		*id = (struct hwt_capture_build_id){
			.pid = b.pid, .path = path,
			.size = b.size < sizeof(b.id) ? b.size : sizeof(b.id)};
		memcpy(id->id, b.id, id->size);
	}
	return 0;
}

int hwt_pd_threads_finish(struct hwt_pd_threads *t,
			  const struct hwt_pd_reader *reader)
{
	int err = make_switches(t);
	if (!err)
		err = make_last_names(t);
	if (!err && reader)
		err = copy_build_ids(t, reader);
	return err;
}

const char *hwt_pd_threads_last_name(const struct hwt_pd_threads *t,
				     int32_t tid)
{
	size_t lo = 0, hi = t->nlast;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->last[mid].tid == tid)
			return t->last[mid].name;
		if (t->last[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void hwt_pd_threads_free(struct hwt_pd_threads *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->tasks);
	free(t->events);
	free(t->switches);
	free(t->last);
	free(t->ids);
	memset(t, 0, sizeof(*t));
}
