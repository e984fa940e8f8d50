#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/records.h"
#include "capture_switches.h"

/* A record that matters here, with the time to sort by. */
struct event {
	uint64_t time;
	size_t order;      /* file order, for equal times */
	uint32_t type;
	uint16_t misc;
	int32_t pid, tid;  /* COMM/FORK: the thread; SWITCH: the sample's */
	int32_t other_pid, other_tid; /* FORK: parent; CPU_WIDE: next/prev */
	int32_t cpu;
	char comm[32];     /* COMM: the name */
};

struct events {
	struct event *v;
	size_t n, cap;
};

/* The threads named so far, with their names then. */
struct known {
	struct {
		int32_t tid;
		char comm[32];
	} *v;
	size_t n, cap;
};

static int push(void *vp, size_t *n, size_t *cap, size_t size)
{
	void **v = vp;
	if (*n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(*v, c * size);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	*v = p;
	*cap = c;
	return 0;
}

/* @tid's name now, NULL when it has none. */
static const char *name_of(const struct known *k, int32_t tid)
{
	for (size_t i = k->n; i-- > 0;)
		if (k->v[i].tid == tid)
			return k->v[i].comm;
	if (tid == 0)
		return "swapper"; /* the idle task, as perf names it */
	return NULL;
}

static int set_name(struct known *k, int32_t tid, const char *comm)
{
	size_t i = k->n;
	while (i-- > 0 && k->v[i].tid != tid)
		;
	if (i == (size_t)-1) {
		int err = push(&k->v, &k->n, &k->cap, sizeof(*k->v));
		if (err)
			return err;
		i = k->n++;
		k->v[i].tid = tid;
	}
	if (comm != k->v[i].comm)
		snprintf(k->v[i].comm, sizeof(k->v[i].comm), "%s", comm);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int read_events(const char *file, struct events *ev)
{
	struct hwt_pd_reader *r;
	int err = hwt_pd_reader_open(file, &r);
	if (err)
		return err;
	uint32_t types[] = {PERF_RECORD_COMM, PERF_RECORD_FORK,
			    PERF_RECORD_SWITCH, PERF_RECORD_SWITCH_CPU_WIDE};
	hwt_pd_reader_set_load_aux(r, false);
	hwt_pd_reader_select_types(r, types, 4);
	struct hwt_pd_record rec;
	while ((err = hwt_pd_reader_next(r, &rec)) > 0) {
		struct hwt_rec v;
		struct event e = {.type = rec.type, .misc = rec.misc,
				  .order = ev->n, .cpu = -1};
		if (rec.sid.present & PERF_SAMPLE_TIME)
			e.time = rec.sid.time;
		if (!hwt_rec_parse(&rec, &v)) {
			continue;
		} else if (rec.type == PERF_RECORD_COMM) {
			e.pid = v.u.comm.pid;
			e.tid = v.u.comm.tid;
			size_t max = v.u.comm.comm.len < sizeof(e.comm) - 1
					     ? v.u.comm.comm.len : sizeof(e.comm) - 1;
			memcpy(e.comm, v.u.comm.comm.s, max);
			e.comm[max] = 0;
		} else if (rec.type == PERF_RECORD_FORK) {
			e.pid = v.u.fork.pid;
			e.other_pid = v.u.fork.ppid;
			e.tid = v.u.fork.tid;
			e.other_tid = v.u.fork.ptid;
		} else {
			if (!(rec.sid.present & PERF_SAMPLE_TID))
				continue; /* no thread to name */
			e.pid = (int32_t)rec.sid.pid;
			e.tid = (int32_t)rec.sid.tid;
			e.cpu = rec.sid.present & PERF_SAMPLE_CPU
					? (int32_t)rec.sid.cpu : -1;
			e.other_pid = v.u.sw.next_prev_pid;
			e.other_tid = v.u.sw.next_prev_tid;
		}
		if ((err = push(&ev->v, &ev->n, &ev->cap, sizeof(*ev->v))))
			break;
		ev->v[ev->n++] = e;
	}
	hwt_pd_reader_free(r);
	return err < 0 ? err : 0;
}

int cli_context_switches(const char *file,
			 int (*sw)(void *arg, const struct hwt_export_switch *s),
			 void *arg)
{
	struct events ev = {0};
	struct known k = {0};
	int err = read_events(file, &ev);
	/* perf handles the records in time order. */
	if (!err && ev.n)
		qsort(ev.v, ev.n, sizeof(*ev.v), by_time);
	for (size_t i = 0; !err && i < ev.n; i++) {
		const struct event *e = &ev.v[i];
		if (e->type == PERF_RECORD_COMM) {
			err = set_name(&k, e->tid, e->comm);
			continue;
		}
		if (e->type == PERF_RECORD_FORK) {
			const char *parent = name_of(&k, e->other_tid);
			char copy[32];
			if (parent) {
				snprintf(copy, sizeof(copy), "%s", parent);
				err = set_name(&k, e->tid, copy);
			}
			continue;
		}
		const char *na = name_of(&k, e->tid);
		const char *nb = e->other_tid >= 0 ? name_of(&k, e->other_tid)
						   : NULL;
		bool a = na, b = nb;
		bool idle_a = a && e->tid == 0 && e->pid == 0;
		bool idle_b = b && e->other_tid == 0 && e->other_pid == 0;
		if ((!a || idle_a) && (!b || idle_b))
			continue;
		bool out = e->misc & PERF_RECORD_MISC_SWITCH_OUT;
		bool preempt = out &&
			       (e->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		int32_t apid = a ? e->pid : -1, atid = a ? e->tid : -1;
		int32_t bpid = b ? e->other_pid : -1, btid = b ? e->other_tid : -1;
		struct hwt_export_switch s = {
			.time = e->time, .cpu = e->cpu,
			.out_pid = out ? apid : bpid, .out_tid = out ? atid : btid,
			.in_pid = out ? bpid : apid, .in_tid = out ? btid : atid,
			.flags = (out ? 1 : 0) | (preempt ? 2 : 0),
			.out_comm = out ? na : nb, .in_comm = out ? nb : na,
		};
		err = sw(arg, &s);
	}
	free(ev.v);
	free(k.v);
	return err;
}
