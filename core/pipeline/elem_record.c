/* Elements as the flat records of hwt_cursor_next_batch, and back: one
 * table of which element field is which record field, read both ways. */
#include <stdbool.h>

#include "hwtrace/capture.h"

/* Copies element field @ef into record field @rf (@to_rec) or back. */
#define MOVE(ef, rf)                                          \
	do {                                                  \
		if (to_rec)                                   \
			(rf) = (__typeof__(rf))(ef);          \
		else                                          \
			(ef) = (__typeof__(ef))(rf);          \
	} while (0)

/* A sampled branch record's small fields, packed into the record's
 * sync (capture.h says where each one goes). move() has moved the
 * fields first, so e->fields is known both ways. */
static void move_branch_record(struct hwt_elem *e, struct hwt_elem_record *r,
			       bool to_rec)
{
	if (to_rec) {
		r->sync = (uint64_t)e->u.branch.cycles |
			  (uint64_t)e->u.branch.depth << 16 |
			  (uint64_t)e->u.branch.flags << 32 |
			  (uint64_t)e->u.branch.priv << 40 |
			  (uint64_t)e->u.branch.counter_width << 48 |
			  (uint64_t)e->u.branch.counter_events << 56;
		return;
	}
	e->u.branch.cycles = (uint16_t)r->sync;
	e->u.branch.depth = (uint16_t)(r->sync >> 16);
	e->u.branch.flags = (uint8_t)(r->sync >> 32);
	e->u.branch.priv = (uint8_t)(r->sync >> 40);
	e->u.branch.counter_width = (uint8_t)(r->sync >> 48);
	e->u.branch.counter_events = (uint8_t)(r->sync >> 56);
}

static void move(struct hwt_elem *e, struct hwt_elem_record *r, bool to_rec)
{
	MOVE(e->fields, r->fields);
	MOVE(e->cpu, r->cpu);
	MOVE(e->pid, r->pid);
	MOVE(e->tid, r->tid);
	MOVE(e->time, r->time);
	MOVE(e->trace_offset, r->trace_offset);
	switch (e->type) {
	case HWT_ELEM_RANGE:
		MOVE(e->u.range.isa, r->kind);
		MOVE(e->u.range.start, r->from);
		MOVE(e->u.range.end, r->to);
		MOVE(e->u.range.insns, r->count);
		MOVE(e->u.range.text, r->text);
		break;
	case HWT_ELEM_BRANCH:
		MOVE(e->u.branch.kind, r->kind);
		MOVE(e->u.branch.from, r->from);
		MOVE(e->u.branch.to, r->to);
		MOVE(e->u.branch.exception, r->number);
		/* Only a sampled record's: the others' are not the
		 * element's to show, and a record's unused fields are 0. */
		if (e->fields & HWT_FIELD_SAMPLED) {
			MOVE(e->u.branch.weight, r->count);
			move_branch_record(e, r, to_rec);
		}
		if (e->fields & HWT_FIELD_BR_COUNTERS)
			MOVE(e->u.branch.counters, r->counters);
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		MOVE(e->u.trace.at, r->from);
		break;
	case HWT_ELEM_CONTEXT:
		MOVE(e->u.context.el, r->number);
		MOVE(e->u.context.vmid, r->vmid);
		break;
	case HWT_ELEM_GAP:
		MOVE(e->u.gap.reason, r->kind);
		MOVE(e->u.gap.bytes, r->count);
		MOVE(e->u.gap.detail, r->text);
		break;
	case HWT_ELEM_ERROR:
		MOVE(e->u.error.message, r->text);
		break;
	case HWT_ELEM_SAMPLE:
		MOVE(e->u.sample.ip, r->from);
		MOVE(e->u.sample.window, r->to);
		MOVE(e->u.sample.period, r->count);
		MOVE(e->u.sample.sync, r->sync);
		MOVE(e->u.sample.branches, r->branches);
		MOVE(e->u.sample.nbranches, r->nbranches);
		break;
	case HWT_ELEM_TIMESTAMP:
		break;
	}
}

void hwt_elem_record_from_elem(struct hwt_elem_record *rec,
			       const struct hwt_elem *elem)
{
	*rec = (struct hwt_elem_record){.type = (uint32_t)elem->type};
	/* Only read through: move() writes the record alone here. */
	move((struct hwt_elem *)elem, rec, true);
}

void hwt_elem_record_to_elem(struct hwt_elem *elem,
			     const struct hwt_elem_record *rec)
{
	hwt_elem_clear(elem, (enum hwt_elem_type)rec->type);
	/* Only read through: move() writes the element alone here. */
	move(elem, (struct hwt_elem_record *)rec, false);
}
