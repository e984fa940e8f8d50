/* Waiting elements in groups and 32-byte slots (attr_queue.h). */
#include <stdlib.h>
#include <string.h>

#include "core/decode/attr_queue.h"
#include "hwtrace/error.h"

struct aq_long {
	struct hwt_elem e;
	size_t data; /* 1 + the offset of its payload in the arena; 0: none */
};

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

/* Keeps @e whole, with a copy of what its pointer points to; returns its
 * number (counted from the stream's start), or -1 when out of memory. */
static int64_t keep_whole(struct attr_queue *q, const struct hwt_elem *e)
{
	if (q->nlongs == q->longs_cap) {
		size_t cap = q->longs_cap ? q->longs_cap * 2 : 64;
		struct aq_long *l = realloc(q->longs, cap * sizeof(*l));
		if (!l)
			return -1;
		q->longs = l;
		q->longs_cap = cap;
	}
	struct aq_long *l = &q->longs[q->nlongs];
	l->e = *e;
	l->data = 0;
	size_t len;
	const void *p = hwt_elem_payload(e, &len);
	if (p && len) {
		size_t at = (q->alen + 7) & ~(size_t)7;
		if (at + len > q->acap) {
			size_t cap = q->acap ? q->acap : 4096;
			while (cap < at + len)
				cap *= 2;
			uint8_t *a = realloc(q->arena, cap);
			if (!a)
				return -1;
			q->arena = a;
			q->acap = cap;
		}
		memcpy(q->arena + at, p, len);
		q->alen = at + len;
		l->data = at + 1;
	} else if (p) {
		/* Nothing to point to (an empty branch array). */
		*hwt_elem_pointer(&l->e) = NULL;
	}
	return (int64_t)(q->lbase + q->nlongs++);
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
		int64_t i = keep_whole(q, e);
		if (i < 0)
			return nomem();
		s->type = (uint8_t)e->type;
		s->whole = true;
		s->a = (uint64_t)i;
	}

	struct aq_group *g = q->gend > q->ghead
				     ? &q->group[(q->gend - 1) & (q->group_cap - 1)]
				     : NULL;
	if (!g || g->run != run || g->seg != seg || !same_decision(&g->d, d) ||
	    !elem_same_common(&g->common, e)) {
		if (q->gend - q->ghead == q->group_cap &&
		    ring_grow((void **)&q->group, &q->group_cap, sizeof(*q->group),
			      q->ghead, q->gend) < 0)
			return HWT_ERR_NOMEM;
		g = &q->group[q->gend++ & (q->group_cap - 1)];
		q->tail = g;
		*g = (struct aq_group){
			.first = q->end, .run = run, .seg = seg, .d = *d,
		};
		/* Only the common fields are read. */
		memcpy(&g->common, e, offsetof(struct hwt_elem, u));
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
	if (q->lused < q->nlongs && (q->lused < 1024 || q->lused * 2 < q->nlongs))
		return;
	size_t keep = q->lused;
	size_t cut = q->alen;
	for (size_t i = keep; i < q->nlongs && cut == q->alen; i++)
		if (q->longs[i].data)
			cut = q->longs[i].data - 1;
	cut &= ~(size_t)7; /* the arena's alignment */
	if (cut) {
		memmove(q->arena, q->arena + cut, q->alen - cut);
		q->alen -= cut;
	}
	memmove(q->longs, q->longs + keep, (q->nlongs - keep) * sizeof(*q->longs));
	q->nlongs -= keep;
	for (size_t i = 0; i < q->nlongs; i++)
		if (q->longs[i].data)
			q->longs[i].data -= cut;
	q->lbase += keep;
	q->lused = 0;
}

int aq_pop_head(struct attr_queue *q,
		int (*emit)(void *arg, struct hwt_elem *e,
			    const struct aq_group *g),
		void *arg)
{
	struct aq_group *g = aq_head(q);
	if (!g)
		return 0;
	size_t mask = q->slot_cap - 1;
	struct hwt_elem e;
	int err = 0;
	hwt_elem_clear(&e, HWT_ELEM_RANGE);
	memcpy(&e, &g->common, offsetof(struct hwt_elem, u));
	for (uint64_t i = g->first; i < g->first + g->n && err >= 0; i++) {
		const struct elem_slot *s = &q->slot[i & mask];
		if (s->whole) {
			struct aq_long *l = &q->longs[s->a - q->lbase];
			struct hwt_elem w = l->e;
			if (l->data)
				*hwt_elem_pointer(&w) = q->arena + l->data - 1;
			q->lused = (size_t)(s->a - q->lbase) + 1;
			err = emit(arg, &w, g);
			continue;
		}
		elem_slot_get(s, &e);
		err = emit(arg, &e, g);
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
	q->lbase += q->nlongs;
	q->nlongs = q->lused = 0;
	q->alen = 0;
}

void aq_free(struct attr_queue *q)
{
	free(q->slot);
	free(q->group);
	free(q->longs);
	free(q->arena);
	memset(q, 0, sizeof(*q));
}
