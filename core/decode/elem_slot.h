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
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/element.h"

struct elem_slot {
	uint64_t a, b, c; /* range: start, end, insns; branch: from, to,
			   * kind | exception << 32; whole: an index */
	uint32_t d;       /* range: ISA */
	uint8_t type;
	bool whole;       /* kept elsewhere whole (a and its owner say where) */
};
_Static_assert(sizeof(struct elem_slot) == 32, "a slot is half a cache line");

/* Writes @e to @s when it is a range without text or a branch (not a
 * sampled branch record, whose fields do not fit); false, leaving @s as
 * it was, otherwise. */
static inline bool elem_slot_put(struct elem_slot *s, const struct hwt_elem *e)
{
	if (e->type == HWT_ELEM_RANGE && !e->u.range.text) {
		s->a = e->u.range.start;
		s->b = e->u.range.end;
		s->c = e->u.range.insns;
		s->d = (uint32_t)e->u.range.isa;
	} else if (e->type == HWT_ELEM_BRANCH &&
		   !(e->fields & HWT_FIELD_SAMPLED)) { /* a record: whole */
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

/* An element's common fields alone: its bytes before the union (the type
 * comes along, unread), less than half an element, kept once for the
 * elements that share them (a batch's, an attribution group's). */
struct elem_common {
	_Alignas(8) unsigned char head[offsetof(struct hwt_elem, u)];
};
_Static_assert(offsetof(struct hwt_elem, u) == 40,
	       "the common fields end where the union starts");

/* The common fields lie in two runs of 16 bytes: fields, cpu, pid and
 * tid; time and trace_offset. */
_Static_assert(offsetof(struct hwt_elem, fields) == 4 &&
		       offsetof(struct hwt_elem, tid) == 16 &&
		       offsetof(struct hwt_elem, time) == 24 &&
		       offsetof(struct hwt_elem, trace_offset) == 32,
	       "elem_common_same compares the common fields as two runs");

/* Whether @e has the common fields @c holds. Asked for nearly every
 * element: two 16-byte compares instead of six. */
static inline bool elem_common_same(const struct elem_common *c,
				    const struct hwt_elem *e)
{
	const char *x = (const char *)c->head, *y = (const char *)e;
	return !memcmp(x + 4, y + 4, 16) && !memcmp(x + 24, y + 24, 16);
}

#endif
