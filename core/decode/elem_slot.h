/* A range or branch element in 32 bytes: what differs from one element
 * to the next in a stream, without the common fields (cpu, task, time,
 * offset) that its neighbours share. Elements wait in slots for their
 * task (attr_queue.c) and cross from a decoding thread to the calling
 * one in slots (decode_parallel.c): an element is 88 bytes, and writing
 * and reading those back from beyond the core's cache cost more than the
 * work done on them. */
#ifndef HWT_CORE_DECODE_ELEM_SLOT_H
#define HWT_CORE_DECODE_ELEM_SLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/element.h"

struct elem_slot {
	uint64_t a, b, c; /* range: start, end, insns; branch: from, to,
			   * kind | exception << 32; whole: an index */
	uint32_t d;       /* range: ISA */
	uint8_t type;
	bool whole;       /* kept elsewhere whole (a and its owner say where) */
};
_Static_assert(sizeof(struct elem_slot) == 32, "a slot is half a cache line");

/* Writes @e to @s when it is a range without text or a branch; false,
 * leaving @s as it was, otherwise. */
static inline bool elem_slot_put(struct elem_slot *s, const struct hwt_elem *e)
{
	if (e->type == HWT_ELEM_RANGE && !e->u.range.text) {
		s->a = e->u.range.start;
		s->b = e->u.range.end;
		s->c = e->u.range.insns;
		s->d = (uint32_t)e->u.range.isa;
	} else if (e->type == HWT_ELEM_BRANCH) {
		s->a = e->u.branch.from;
		s->b = e->u.branch.to;
		s->c = (uint64_t)e->u.branch.kind |
		       (uint64_t)e->u.branch.exception << 32;
	} else {
		return false;
	}
	s->type = (uint8_t)e->type;
	s->whole = false;
	return true;
}

/* Sets @e's type and union from a slot elem_slot_put wrote. */
static inline void elem_slot_get(const struct elem_slot *s, struct hwt_elem *e)
{
	e->type = (enum hwt_elem_type)s->type;
	if (s->type == HWT_ELEM_RANGE) {
		e->u.range.start = s->a;
		e->u.range.end = s->b;
		e->u.range.insns = s->c;
		e->u.range.isa = (enum hwt_isa)s->d;
		e->u.range.text = NULL;
	} else {
		e->u.branch.from = s->a;
		e->u.branch.to = s->b;
		e->u.branch.kind = (enum hwt_branch_kind)(uint32_t)s->c;
		e->u.branch.exception = (uint32_t)(s->c >> 32);
	}
}

/* Whether @a and @b share their common fields. */
static inline bool elem_same_common(const struct hwt_elem *a,
				    const struct hwt_elem *b)
{
	return a->fields == b->fields && a->time == b->time &&
	       a->cpu == b->cpu && a->pid == b->pid && a->tid == b->tid &&
	       a->trace_offset == b->trace_offset;
}

#endif
