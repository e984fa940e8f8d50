/* The elements of a per-CPU stream that wait for their task
 * (decode_attr.c), kept small: a run of the trace holds tens of thousands
 * of elements between two time stamps, and a copy of each (88 bytes, 128
 * with what the attribution noted) was written and read back from beyond
 * the core's cache, which cost more than deciding. Consecutive elements
 * with the same common fields (cpu, task, time, offset), run, segment and
 * decision form a group, which holds those once; each element keeps a
 * 32-byte slot: a range or branch in full, anything else (an element
 * with a string or a branch array, or values that do not fit) as an
 * index into a list of whole elements with their payloads copied. */
#ifndef HWT_CORE_DECODE_ATTR_QUEUE_H
#define HWT_CORE_DECODE_ATTR_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/decode/decode_internal.h"
#include "core/decode/elem_slot.h"
#include "core/decode/elem_store.h"
#include "hwtrace/element.h"

/* What is known of a group's task. */
struct aq_decision {
	bool decided, ambiguous;
	struct hwt_task task; /* when decided and not ambiguous */
};

struct aq_group {
	uint64_t first;        /* its first element, counted from the start */
	uint64_t n;            /* its elements */
	uint64_t run, seg;
	struct aq_decision d;
	struct elem_common common; /* the elements' common fields */
};

struct attr_queue {
	struct elem_slot *slot; /* a ring of slot_cap (a power of two) */
	size_t slot_cap;
	uint64_t head, end;   /* waiting elements: [head, end) */
	struct aq_group *group; /* a ring of group_cap (a power of two) */
	size_t group_cap, ghead, gend; /* groups [ghead, gend) */
	struct aq_group *tail; /* the newest group while it takes more */
	/* Whole elements, oldest first: number lbase is longs.e[0], and
	 * the first lused of them are passed on. */
	struct elem_store longs;
	uint64_t lbase;
	size_t lused;
};

/* Appends @e of @run and @seg, with @d when its task is known already
 * (else d->decided is false). Returns 0 or HWT_ERR_NOMEM. */
int aq_push_slow(struct attr_queue *q, const struct hwt_elem *e, uint64_t run,
		 uint64_t seg, const struct aq_decision *d);

/* The newest group when it is of @run and @seg and still takes elements
 * (its task is not decided yet), else NULL. */
static inline struct aq_group *aq_tail_open(const struct attr_queue *q,
					    uint64_t run, uint64_t seg)
{
	struct aq_group *g = q->tail;
	return g && !g->d.decided && g->run == run && g->seg == seg ? g : NULL;
}

/* Whether the newest group, of @run and @seg, still takes elements with
 * @e's common fields. */
static inline bool aq_tail_takes(const struct attr_queue *q,
				 const struct hwt_elem *e, uint64_t run,
				 uint64_t seg)
{
	const struct aq_group *g = aq_tail_open(q, run, seg);
	return g && elem_common_same(&g->common, e);
}

/* Appends @e to the newest group, which takes it (aq_tail_takes), when
 * it is a range or branch: most elements are. Returns false, doing
 * nothing, when it is not. Inline, for each element. */
static inline __attribute__((always_inline)) bool
aq_append_one(struct attr_queue *q, const struct hwt_elem *e)
{
	if (q->end - q->head == q->slot_cap ||
	    !elem_slot_put(&q->slot[q->end & (q->slot_cap - 1)], e))
		return false;
	q->tail->n++;
	q->end++;
	return true;
}

/* Appends the @k slots at @s (ranges and branches, none whole) to the
 * newest group, as @k calls of aq_append_one that each succeed would:
 * the caller has checked that the group takes them (aq_tail_takes).
 * Returns 0 or HWT_ERR_NOMEM. */
int aq_append_slots(struct attr_queue *q, const struct elem_slot *s, size_t k);

static inline int aq_push(struct attr_queue *q, const struct hwt_elem *e,
			  uint64_t run, uint64_t seg, const struct aq_decision *d)
{
	if (!d->decided && aq_tail_takes(q, e, run, seg) && aq_append_one(q, e))
		return 0;
	return aq_push_slow(q, e, run, seg, d);
}

/* The oldest group, NULL when nothing waits. */
static inline struct aq_group *aq_head(struct attr_queue *q)
{
	return q->ghead < q->gend ? &q->group[q->ghead & (q->group_cap - 1)]
				  : NULL;
}

/* Cuts the oldest group after its first @k elements (0 < @k < n): the
 * rest becomes a group of its own, with the same decision. */
int aq_split_head(struct attr_queue *q, uint64_t k);

/* Passes the oldest group's elements, each rebuilt whole with the group's
 * fields and its pointer restored, to @sink, then drops the group (also
 * when the sink fails, after the element it refused). @stamp(@arg, e, g)
 * puts the group's decision on the elements first: once for the slots,
 * which share their common fields, and once for each whole element.
 * Returns 0 or what the sink returned. */
int aq_pop_head(struct attr_queue *q,
		void (*stamp)(void *arg, struct hwt_elem *e,
			      const struct aq_group *g),
		void *arg, const struct hwt_elem_sink *sink);

/* Empties @q, keeping its memory. */
void aq_clear(struct attr_queue *q);
void aq_free(struct attr_queue *q);

#endif
