/* Waiting elements in groups and 32-byte slots (attr_queue.h). */
#include <stdlib.h>
#include <string.h>

#include "core/decode/attr_queue.h"
#include "hwtrace/error.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory for attribution");
}

/* Doubles a ring of @cap elements of @size (a power of two; 0: none yet),
 * keeping each element of the absolute range [@from, @to) at its index. */
static int ring_grow(void **ring, size_t *cap, size_t size, uint64_t from,
		     uint64_t to)
{
	size_t ncap = *cap ? *cap * 2 : 1024;
	uint8_t *n = malloc(ncap * size);
	if (!n)
		return nomem();
	for (uint64_t i = from; i < to; i++)
		memcpy(n + (i & (ncap - 1)) * size,
		       (uint8_t *)*ring + (i & (*cap - 1)) * size, size);
	free(*ring);
	*ring = n;
	*cap = ncap;
	return 0;
}

static inline bool same_decision(const struct aq_decision *a,
				 const struct aq_decision *b)
{
	if (a->decided != b->decided)
		return false;
	return !a->decided || (a->ambiguous == b->ambiguous &&
			       a->task.pid == b->task.pid &&
			       a->task.tid == b->task.tid);
}

int aq_push_slow(struct attr_queue *q, const struct hwt_elem *e, uint64_t run,
		 uint64_t seg, const struct aq_decision *d)
{
	if (q->end - q->head == q->slot_cap &&
	    ring_grow((void **)&q->slot, &q->slot_cap, sizeof(*q->slot),
		      q->head, q->end) < 0)
		return HWT_ERR_NOMEM;
	struct elem_slot *s = &q->slot[q->end & (q->slot_cap - 1)];
	if (!elem_slot_put(s, e)) {
		int64_t i = elem_store_put(&q->longs, e);
		if (i < 0)
			return nomem();
		s->type = (uint8_t)e->type;
		s->whole = true;
		s->a = q->lbase + (uint64_t)i;
	}

	struct aq_group *g = q->gend > q->ghead
				     ? &q->group[(q->gend - 1) & (q->group_cap - 1)]
				     : NULL;
	if (!g || g->run != run || g->seg != seg || !same_decision(&g->d, d) ||
	    !elem_common_same(&g->common, e)) {
		if (q->gend - q->ghead == q->group_cap &&
		    ring_grow((void **)&q->group, &q->group_cap, sizeof(*q->group),
			      q->ghead, q->gend) < 0)
			return HWT_ERR_NOMEM;
		g = &q->group[q->gend++ & (q->group_cap - 1)];
		q->tail = g;
		*g = (struct aq_group){
			.first = q->end, .run = run, .seg = seg, .d = *d,
		};
		memcpy(g->common.head, e, sizeof(g->common.head));
	}
	g->n++;
	q->end++;
	return 0;
}

int aq_append_slots(struct attr_queue *q, const struct elem_slot *s, size_t k)
{
	while (q->end - q->head + k > q->slot_cap)
		if (ring_grow((void **)&q->slot, &q->slot_cap, sizeof(*q->slot),
			      q->head, q->end) < 0)
			return HWT_ERR_NOMEM;
	size_t mask = q->slot_cap - 1, at = (size_t)(q->end & mask);
	size_t first = k < q->slot_cap - at ? k : q->slot_cap - at;
	memcpy(&q->slot[at], s, first * sizeof(*s));
	memcpy(&q->slot[0], s + first, (k - first) * sizeof(*s));
	q->tail->n += k;
	q->end += k;
	return 0;
}

int aq_split_head(struct attr_queue *q, uint64_t k)
{
	if (q->gend - q->ghead == q->group_cap) {
		if (ring_grow((void **)&q->group, &q->group_cap, sizeof(*q->group),
			      q->ghead, q->gend) < 0)
			return HWT_ERR_NOMEM;
		q->tail = &q->group[(q->gend - 1) & (q->group_cap - 1)];
	}
	/* The head moves one place back; its first k elements go there. */
	size_t mask = q->group_cap - 1;
	struct aq_group *rest = &q->group[q->ghead & mask];
	struct aq_group *front = &q->group[(q->ghead - 1) & mask];
	*front = *rest;
	front->n = k;
	rest->first += k;
	rest->n -= k;
	q->ghead--;
	return 0;
}

/* Drops the whole elements already passed on (lused) and the payloads
 * only they held: when none is left, or when they are most of the list
 * and many. */
static void compact_longs(struct attr_queue *q)
{
	size_t n = q->longs.n;
	if (q->lused < n && (q->lused < 1024 || q->lused * 2 < n))
		return;
	elem_store_drop(&q->longs, q->lused);
	q->lbase += q->lused;
	q->lused = 0;
}

int aq_pop_head(struct attr_queue *q,
		void (*stamp)(void *arg, struct hwt_elem *e,
			      const struct aq_group *g),
		void *arg, const struct hwt_elem_sink *sink)
{
	struct aq_group *g = aq_head(q);
	if (!g)
		return 0;
	size_t mask = q->slot_cap - 1;
	struct hwt_elem e;
	int err = 0;
	hwt_elem_clear(&e, HWT_ELEM_RANGE);
	memcpy(&e, g->common.head, sizeof(g->common.head));
	stamp(arg, &e, g);
	for (uint64_t i = g->first; i < g->first + g->n && err >= 0; i++) {
		const struct elem_slot *s = &q->slot[i & mask];
		if (s->whole) {
			struct hwt_elem w;
			q->lused = (size_t)(s->a - q->lbase) + 1;
			elem_store_get(&q->longs, q->lused - 1, &w);
			stamp(arg, &w, g);
			err = sink->emit(sink->arg, &w);
			continue;
		}
		elem_slot_get(s, &e);
		err = sink->emit(sink->arg, &e);
	}
	q->head = g->first + g->n;
	if (g == q->tail)
		q->tail = NULL;
	q->ghead++;
	if (q->lused)
		compact_longs(q);
	return err;
}

void aq_clear(struct attr_queue *q)
{
	q->head = q->end = 0;
	q->ghead = q->gend = 0;
	q->tail = NULL;
	q->lbase += q->longs.n;
	q->lused = 0;
	elem_store_clear(&q->longs);
}

void aq_free(struct attr_queue *q)
{
	free(q->slot);
	free(q->group);
	elem_store_free(&q->longs);
	memset(q, 0, sizeof(*q));
}
