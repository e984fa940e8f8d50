/* Following the program between N-Trace messages: instructions read from
 * the memory image, conditional branches by the history bits or the
 * instruction count, direct jumps and implicit returns by the code, and
 * the ranges and branches that come out. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backends/riscv-trace/rvt_decode.h"
#include "hwtrace/image.h"

/* How far a walk may run ahead of the last instruction count: the
 * specification's counters are 22 bits at most, so an encoder reports
 * its count before this many halfwords; a walk that gets further follows
 * code the trace does not describe (the wrong image, or a loop). */
#define WALK_AHEAD_MAX (1ll << 24)

void rvt_elem_init(const struct rvt_dec *d, const struct rvt_hart *h,
		   struct hwt_elem *e, enum hwt_elem_type type)
{
	hwt_elem_clear(e, type);
	e->fields = HWT_FIELD_OFFSET;
	e->trace_offset = d->offset;
	if (d->o.src_bits) {
		e->fields |= HWT_FIELD_CPU;
		e->cpu = (int32_t)h->src;
	} else if (d->cpu >= 0) {
		e->fields |= HWT_FIELD_CPU;
		e->cpu = d->cpu;
	}
	if (d->tid >= 0) {
		e->fields |= HWT_FIELD_TID;
		e->tid = d->tid;
	}
	if (h->have_time && d->o.ts != RVT_TS_OFF) {
		e->fields |= HWT_FIELD_TIME;
		e->time = h->time;
	}
}

int rvt_emit(const struct rvt_dec *d, const struct hwt_elem *e)
{
	return d->sink && d->sink->emit ? d->sink->emit(d->sink->arg, e) : 0;
}

int rvt_range_flush(struct rvt_dec *d, struct rvt_hart *h)
{
	struct hwt_elem e;

	if (!h->range_open)
		return 0;
	h->range_open = false;
	rvt_elem_init(d, h, &e, HWT_ELEM_RANGE);
	e.u.range.start = h->rstart;
	e.u.range.end = h->rend;
	e.u.range.insns = h->rinsns;
	e.u.range.isa = d->o.xlen == 32 ? HWT_ISA_RV32 : HWT_ISA_RV64;
	return rvt_emit(d, &e);
}

void rvt_range_add(struct rvt_hart *h, uint64_t pc, unsigned size)
{
	if (!h->range_open) {
		h->range_open = true;
		h->rstart = pc;
		h->rinsns = 0;
	}
	h->rinsns++;
	h->rend = pc + size;
}

int rvt_taken(struct rvt_dec *d, struct rvt_hart *h, uint64_t from,
	      uint64_t to, enum hwt_branch_kind kind)
{
	struct hwt_elem e;
	int err = rvt_range_flush(d, h);

	if (err < 0)
		return err;
	rvt_elem_init(d, h, &e, HWT_ELEM_BRANCH);
	e.u.branch.from = from;
	e.u.branch.to = to;
	e.u.branch.kind = kind;
	h->pc = to;
	return rvt_emit(d, &e);
}

static bool covers(const struct hwt_image_section *s, uint64_t pc)
{
	return s && pc >= s->vaddr && pc - s->vaddr < s->size;
}

int rvt_fetch(struct rvt_dec *d, uint64_t pc, struct rvt_insn *in)
{
	struct rvt_icache_entry *c = &d->icache[(pc >> 1) % RVT_ICACHE];

	if (c->pc == pc) {
		*in = c->in;
		return 0;
	}
	if (!covers(d->sec, pc) || !d->sec->data) {
		struct hwt_image_section *s =
			d->image ? hwt_image_find(d->image, HWT_PID_ANY, pc) : NULL;
		if (!covers(s, pc)) {
			snprintf(d->detail, sizeof(d->detail), "no code at 0x%"
				 PRIx64 " in the memory image (--elf, --map)", pc);
			return RVT_NO_IMAGE;
		}
		if (!s->data) {
			snprintf(d->detail, sizeof(d->detail), "%s (the code at "
				 "0x%" PRIx64 ") is missing",
				 s->missing_detail ? s->missing_detail : s->path, pc);
			return RVT_NO_IMAGE;
		}
		d->sec = s;
	}
	uint64_t off = pc - d->sec->vaddr;
	const uint8_t *code = d->sec->data + off;
	size_t avail = (size_t)(d->sec->size - off);
	uint8_t buf[8];
	if (avail < 8) {
		/* An instruction may continue in the next section. */
		int n = hwt_image_read(d->image, HWT_PID_ANY, pc, buf, sizeof(buf));
		size_t got = n > 0 ? (size_t)n : 0;
		while (got < sizeof(buf)) {
			n = hwt_image_read(d->image, HWT_PID_ANY, pc + got,
					   buf + got, sizeof(buf) - got);
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		code = buf;
		avail = got;
	}
	if (rvt_insn_decode(code, avail, pc, d->o.xlen, in) < 0) {
		snprintf(d->detail, sizeof(d->detail), "the instruction at 0x%"
			 PRIx64 " is cut short by the end of the image or has "
			 "an unsupported length", pc);
		return RVT_NO_IMAGE;
	}
	if (in->iclass == RVT_I_ILLEGAL) {
		snprintf(d->detail, sizeof(d->detail), "the walk reached an "
			 "illegal instruction at 0x%" PRIx64 " (wrong image, "
			 "xlen or trace)", pc);
		return RVT_FAIL;
	}
	c->pc = pc;
	c->in = *in;
	return 0;
}

static void push(struct rvt_dec *d, struct rvt_hart *h, uint64_t ret)
{
	if (!d->o.callstack)
		return;
	if (h->depth == d->o.callstack) {
		memmove(h->stack, h->stack + 1,
			(h->depth - 1) * sizeof(h->stack[0]));
		h->depth--;
	}
	h->stack[h->depth++] = ret;
}

static bool pop(struct rvt_hart *h, uint64_t *ret)
{
	if (!h->depth)
		return false;
	*ret = h->stack[--h->depth];
	return true;
}

static int fail(struct rvt_dec *d, const char *what, uint64_t pc)
{
	snprintf(d->detail, sizeof(d->detail), "%s at 0x%" PRIx64, what, pc);
	return RVT_FAIL;
}

/* One instruction the code alone says where it goes (a branch by
 * @taken), from h->pc. */
static int step(struct rvt_dec *d, struct rvt_hart *h,
		const struct rvt_insn *in, bool taken)
{
	uint64_t pc = h->pc, next = pc + in->size, ret = 0;

	if (d->o.xlen == 32)
		next &= 0xffffffffull;
	if (h->icnt_left - in->size / 2 < -WALK_AHEAD_MAX)
		return fail(d, "the walk ran 16M halfwords past the last "
			    "instruction count (wrong image or options)", pc);
	/* A return the stack cannot predict did not run as far as the
	 * trace tells: it is not part of the range. */
	if ((in->iclass == RVT_I_RETURN || in->iclass == RVT_I_SWAP) &&
	    !pop(h, &ret))
		return fail(d, in->iclass == RVT_I_RETURN ?
			    "a return with no call on the stack and no address "
			    "in the trace (callstack= too small?)" :
			    "a co-routine swap with no call on the stack and no "
			    "address in the trace", pc);
	h->icnt_left -= in->size / 2;
	rvt_range_add(h, pc, in->size);
	switch (in->iclass) {
	case RVT_I_BRANCH:
		if (taken)
			return rvt_taken(d, h, pc, in->target, HWT_BRANCH_COND);
		break;
	case RVT_I_CALL:
		push(d, h, next);
		return rvt_taken(d, h, pc, in->target, HWT_BRANCH_CALL);
	case RVT_I_JUMP:
		return rvt_taken(d, h, pc, in->target, HWT_BRANCH_JUMP);
	case RVT_I_RETURN:
		return rvt_taken(d, h, pc, ret, HWT_BRANCH_RETURN);
	case RVT_I_SWAP:
		push(d, h, next);
		return rvt_taken(d, h, pc, ret, HWT_BRANCH_INDIRECT);
	default:
		break;
	}
	h->pc = next;
	return 0;
}

/* An instruction a walk may not pass without a message. */
static int stops_walk(struct rvt_dec *d, const struct rvt_insn *in,
		      uint64_t pc, const char *walk)
{
	char what[128];

	if (in->iclass == RVT_I_TRAP) {
		snprintf(what, sizeof(what), "%s reached a trap (ecall, ebreak)",
			 walk);
		return fail(d, what, pc);
	}
	if (in->iclass == RVT_I_CALL_IND || in->iclass == RVT_I_JUMP_IND ||
	    in->iclass == RVT_I_TRAP_RET) {
		snprintf(what, sizeof(what), "%s reached an %s the trace gives no "
			 "address for", walk, rvt_iclass_name(in->iclass));
		return fail(d, what, pc);
	}
	return 0;
}

int rvt_walk_hist(struct rvt_dec *d, struct rvt_hart *h, uint64_t hist)
{
	struct rvt_insn in;
	int err;

	if (!hist)
		return fail(d, "a HIST field without its stop bit", h->pc);
	int nbits = 63 - __builtin_clzll(hist);
	while (nbits > 0) {
		if ((err = rvt_fetch(d, h->pc, &in)) != 0 ||
		    (err = stops_walk(d, &in, h->pc, "the branch history walk")))
			return err;
		bool taken = false;
		if (in.iclass == RVT_I_BRANCH)
			taken = hist >> --nbits & 1;
		if ((err = step(d, h, &in, taken)) != 0)
			return err;
	}
	return 0;
}

static bool is_indirect(enum rvt_iclass c)
{
	return c == RVT_I_CALL_IND || c == RVT_I_JUMP_IND || c == RVT_I_RETURN ||
	       c == RVT_I_SWAP || c == RVT_I_TRAP_RET;
}

static int walk_count(struct rvt_dec *d, struct rvt_hart *h, int64_t halfwords,
		      enum rvt_walk_end end, struct rvt_insn *last,
		      bool *have_last)
{
	struct rvt_insn in;
	int err;

	if (have_last)
		*have_last = false;
	if (halfwords < 0)
		return fail(d, "the instruction count is smaller than the code "
			    "its branch history covers", h->pc);
	if (!halfwords && end == RVT_END_BRANCH)
		return fail(d, "a DirectBranch message with no instructions",
			    h->pc);
	while (halfwords > 0) {
		if ((err = rvt_fetch(d, h->pc, &in)) != 0)
			return err;
		int64_t n = in.size / 2;
		if (n > halfwords)
			return fail(d, "the instruction count ends inside the "
				    "instruction", h->pc);
		bool final = n == halfwords;
		if (final && end == RVT_END_INDIRECT &&
		    is_indirect((enum rvt_iclass)in.iclass)) {
			*last = in;
			*have_last = true;
			return 0;
		}
		if (final && end == RVT_END_BRANCH && in.iclass != RVT_I_BRANCH)
			return fail(d, "a DirectBranch message ends at an "
				    "instruction that is no conditional branch",
				    h->pc);
		if ((err = stops_walk(d, &in, h->pc, "the counted walk")))
			return err;
		if ((err = step(d, h, &in, final && end == RVT_END_BRANCH)) != 0)
			return err;
		halfwords -= n;
	}
	return 0;
}

int rvt_walk_count(struct rvt_dec *d, struct rvt_hart *h, int64_t halfwords,
		   enum rvt_walk_end end, struct rvt_insn *last,
		   bool *have_last)
{
	int err = walk_count(d, h, halfwords, end, last, have_last);

	/* The count included what icnt_left held: the encoder's counter
	 * starts again from 0. */
	h->icnt_left = 0;
	return err;
}

int rvt_jump_to(struct rvt_dec *d, struct rvt_hart *h,
		const struct rvt_insn *last, uint64_t target)
{
	uint64_t pc = h->pc, ret;
	enum hwt_branch_kind kind = HWT_BRANCH_INDIRECT;

	rvt_range_add(h, pc, last->size);
	switch (last->iclass) {
	case RVT_I_CALL_IND:
		push(d, h, pc + last->size);
		kind = HWT_BRANCH_CALL;
		break;
	case RVT_I_RETURN:
		/* Not predicted (the stack was empty, or held another
		 * address): the encoder popped all the same. */
		pop(h, &ret);
		kind = HWT_BRANCH_RETURN;
		break;
	case RVT_I_SWAP:
		pop(h, &ret);
		push(d, h, pc + last->size);
		break;
	case RVT_I_TRAP_RET:
		kind = HWT_BRANCH_ERET;
		break;
	default:
		break;
	}
	return rvt_taken(d, h, pc, target, kind);
}
