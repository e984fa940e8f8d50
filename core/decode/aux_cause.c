/* The cause of each trace on and off (aux_cause.h): the aux_action
 * events' samples of a capture matched to the decode's TRACE_ON and
 * TRACE_OFF elements. The rule, which docs/decode.md states for users:
 * an element takes the latest sample of its kind (a resume for a trace
 * on, a pause for a trace off) of its thread (its CPU when the element
 * names no thread) at or before its time (an element without one, as
 * CoreSight's without timestamps: the time of the AUX write that holds
 * it), unless an element before it took that sample. A kind of its own
 * and one sample per element keep the trace's other ons and offs (a
 * user-only trace entering and leaving the kernel) without a cause. */
#include "core/decode/aux_cause.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/array_grow.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/error.h"
#include "hwtrace/records.h"

/* One sample in an order for matching: its key (tid or CPU), kind and
 * time, and where it is in the table. */
struct aux_cause_key {
	int32_t key;
	uint32_t resume;
	uint64_t time;
	size_t i;
};

static int key_cmp(const void *a, const void *b)
{
	const struct aux_cause_key *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->resume != y->resume)
		return x->resume < y->resume ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The name of attr @index, the table's own copy: the file's event name,
 * else "event N" (its place among the file's events). */
static const char *name_of(struct aux_causes *c, const struct hwt_pd_attr *a,
			   size_t index)
{
	for (size_t i = 0; i < c->nnames; i++)
		if (c->names[i].attr == index)
			return c->names[i].name;
	void *grown = c->names;
	if (!array_grow(&grown, &c->names_cap, sizeof(*c->names), c->nnames + 1))
		return NULL;
	c->names = grown;
	char buf[32];
	const char *name = a->name;
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "event %zu", index);
		name = buf;
	}
	char *copy = strdup(name);
	if (!copy)
		return NULL;
	c->names[c->nnames++] = (struct aux_cause_name){index, copy};
	return copy;
}

int aux_causes_add(struct aux_causes *c, struct hwt_pd_reader *reader,
		   const struct hwt_pd_record *rec)
{
	if (rec->type != PERF_RECORD_SAMPLE || !(rec->sid.present & PERF_SAMPLE_ID))
		return 0;
	const struct hwt_pd_attr *a = hwt_pd_reader_attr_by_id(reader, rec->sid.id);
	if (!a)
		return 0;
	uint32_t action = hwt_attr_aux_action(&a->attr);
	bool pause = action & HWT_AUX_PAUSE, resume = action & HWT_AUX_RESUME;
	/* The kernel refuses an event with both; a file may still say so. */
	if (pause == resume)
		return 0;
	struct hwt_rec_sample_head h;
	if (!hwt_rec_sample_head(rec, a->attr.sample_type, &h) ||
	    !(h.present & PERF_SAMPLE_TIME))
		return 0;
	size_t index = 0;
	while (index < hwt_pd_reader_nr_attrs(reader) &&
	       hwt_pd_reader_attr(reader, index) != a)
		index++;
	const char *name = name_of(c, a, index);
	void *grown = c->v;
	if (!name || !array_grow(&grown, &c->cap, sizeof(*c->v), c->n + 1))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the "
				 "aux_action samples");
	c->v = grown;
	c->v[c->n++] = (struct aux_cause_sample){
		.time = h.time,
		.ip = h.present & PERF_SAMPLE_IP ? h.ip : 0,
		.tid = h.present & PERF_SAMPLE_TID ? (int32_t)h.tid : -1,
		.cpu = h.present & PERF_SAMPLE_CPU ? (int32_t)h.cpu : -1,
		.resume = resume,
		.name = name,
	};
	return 0;
}

static struct aux_cause_key *order_by(const struct aux_causes *c, bool by_tid)
{
	struct aux_cause_key *k = calloc(c->n ? c->n : 1, sizeof(*k));
	if (!k)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		k[i] = (struct aux_cause_key){
			by_tid ? c->v[i].tid : c->v[i].cpu, c->v[i].resume,
			c->v[i].time, i};
	qsort(k, c->n, sizeof(*k), key_cmp);
	return k;
}

int aux_causes_finish(struct aux_causes *c)
{
	free(c->by_tid);
	free(c->by_cpu);
	c->by_tid = order_by(c, true);
	c->by_cpu = order_by(c, false);
	if (!c->by_tid || !c->by_cpu)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the "
				 "aux_action samples");
	return 0;
}

/* The latest sample of @key and kind at or before @time in @order; NULL
 * when none. */
static struct aux_cause_sample *latest(struct aux_causes *c,
				       const struct aux_cause_key *order,
				       int32_t key, bool resume, uint64_t time)
{
	size_t lo = 0, hi = c->n;
	struct aux_cause_key want = {key, resume, time, SIZE_MAX};
	while (lo < hi) { /* the first entry after @want */
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(&order[mid], &want) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || order[lo - 1].key != key || order[lo - 1].resume != resume)
		return NULL;
	return &c->v[order[lo - 1].i];
}

static int cause_emit(void *arg, const struct hwt_elem *e)
{
	struct aux_causes *c = arg;
	if ((e->type != HWT_ELEM_TRACE_ON && e->type != HWT_ELEM_TRACE_OFF) ||
	    !(e->fields & (HWT_FIELD_TID | HWT_FIELD_CPU)))
		return c->next->emit(c->next->arg, e);
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time
		      : c->time_of ? c->time_of(c->time_arg, e) : 0;
	bool resume = e->type == HWT_ELEM_TRACE_ON;
	struct aux_cause_sample *s = NULL;
	if (time && (e->fields & HWT_FIELD_TID))
		s = latest(c, c->by_tid, e->tid,
			   resume, time);
	else if (time)
		s = latest(c, c->by_cpu, e->cpu,
			   resume, time);
	if (!s || s->taken)
		return c->next->emit(c->next->arg, e);
	s->taken = true;
	struct hwt_elem named = *e;
	named.u.trace.cause = s->name;
	named.u.trace.cause_time = s->time;
	named.u.trace.cause_ip = s->ip;
	return c->next->emit(c->next->arg, &named);
}

struct hwt_elem_sink aux_causes_sink(struct aux_causes *c)
{
	struct hwt_elem_sink sink = {cause_emit, c};
	return sink;
}

void aux_causes_free(struct aux_causes *c)
{
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i].name);
	free(c->names);
	free(c->v);
	free(c->by_tid);
	free(c->by_cpu);
	memset(c, 0, sizeof(*c));
}
