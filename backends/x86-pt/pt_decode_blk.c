/* The block-decoder loop: libipt blocks and events to hwtrace elements. */
#include <string.h>

#include "backends/x86-pt/pt_decode.h"
#include "hwtrace/error.h"

/* Puts the stream's fields and time into the range and branch elements
 * that every block emits: done when they change, not per element. */
static void stamp(struct pt_dec *d)
{
	struct hwt_elem *t[2] = {&d->range_elem, &d->branch_elem};
	for (int i = 0; i < 2; i++) {
		t[i]->fields = d->base_fields | (d->have_time ? HWT_FIELD_TIME : 0);
		t[i]->cpu = d->cpu;
		t[i]->tid = d->tid;
		t[i]->pid = d->pid;
		t[i]->time = d->have_time ? d->time : 0;
	}
}

/* Every element goes out here. The first d->skip of a chunk are dropped:
 * the fast path sent them before it gave the chunk up (pt_fast.c). */
static inline void hand_over(struct pt_dec *d, const struct hwt_elem *e)
{
	if (d->stop)
		return;
	if (d->skip) {
		d->skip--;
		return;
	}
	int err = d->params.sink->emit(d->params.sink->arg, e);
	if (err < 0)
		d->stop = err;
	d->sent++;
}

static void split_held(struct pt_dec *d);

/* The held range goes before anything else that happens. */
static inline void release_held(struct pt_dec *d)
{
	if (d->held) {
		d->held = false;
		if (d->params.disasm)
			split_held(d);
		else
			hand_over(d, &d->range_elem);
	}
}

/* Hands over an element stamp() filled in. */
static void emit_stamped(struct pt_dec *d, const struct hwt_elem *e)
{
	release_held(d);
	hand_over(d, e);
}

static void emit(struct pt_dec *d, struct hwt_elem *e)
{
	release_held(d);
	if (d->stop)
		return;
	e->fields |= d->base_fields;
	e->cpu = d->cpu;
	e->tid = d->tid;
	e->pid = d->pid;
	if (d->have_time) {
		e->fields |= HWT_FIELD_TIME;
		e->time = d->time;
	}
	hand_over(d, e);
}

/* Reads code from the image of @pid at the code's time from now on. */
static void use_image(struct pt_dec *d, int32_t pid)
{
	bool same_span = d->code_time == HWT_TIME_UNKNOWN
				 ? d->img_from == HWT_TIME_UNKNOWN
				 : d->img_from != HWT_TIME_UNKNOWN &&
					   d->img_from <= d->code_time &&
					   d->code_time < d->img_until;
	if (pid == d->img_pid && same_span)
		return;
	uint64_t until;
	struct pt_image *img = pt_image_adapter_get(d->ad, pid, d->code_time,
						    &until);
	if (img && (!d->dec || pt_blk_set_image(d->dec, img) >= 0)) {
		d->img = img;
		d->img_pid = pid;
		d->img_from = d->code_time;
		d->img_until = until;
	}
}

/* The code runs at perf time @time from now on: per-CPU trace runs
 * whatever the scheduler ran, and a process's code may change. */
void pt_follow(struct pt_dec *d, uint64_t time)
{
	int32_t pid = d->img_pid;
	if (d->timed_image)
		d->code_time = time;
	if (d->params.pid_at && d->cpu >= 0 && time != d->pid_time) {
		d->pid_time = time;
		pid = d->params.pid_at(d->params.pid_at_arg, d->cpu, d->tid, time);
	}
	use_image(d, pid);
}

/* With @keep_held, a held range that the block just decoded goes on
 * takes the new time: see update_time. */
static void set_time(struct pt_dec *d, uint64_t tsc, bool keep_held)
{
	if (!keep_held)
		release_held(d); /* at the time it had */
	d->have_time = true;
	d->tsc = tsc;
	d->time = pt_tsc_to_time(&d->tc, tsc);
	stamp(d);
	pt_follow(d, d->time);
}

static enum hwt_isa isa_of(enum pt_exec_mode mode)
{
	switch (mode) {
	case ptem_64bit:
		return HWT_ISA_X86_64;
	case ptem_32bit:
		return HWT_ISA_X86_32;
	case ptem_16bit:
		return HWT_ISA_X86_16;
	default:
		return HWT_ISA_UNKNOWN;
	}
}

/* When libipt leaves out the class of a block's last instruction, its
 * opcode tells the branch kind. */
static enum hwt_branch_kind kind_from_opcode(const uint8_t *op, size_t n)
{
	size_t i = 0;
	while (i < n && (op[i] == 0x66 || op[i] == 0x67 || op[i] == 0xf2 ||
			 op[i] == 0xf3 || op[i] == 0x2e || op[i] == 0x3e ||
			 (op[i] & 0xf0) == 0x40))
		i++;
	if (i >= n)
		return HWT_BRANCH_JUMP;
	uint8_t b = op[i];
	if (b == 0xe8 || b == 0x9a)
		return HWT_BRANCH_CALL;
	if (b == 0xc3 || b == 0xc2)
		return HWT_BRANCH_RETURN;
	if ((b & 0xf0) == 0x70 || (b >= 0xe0 && b <= 0xe3))
		return HWT_BRANCH_COND;
	if (b == 0x0f && i + 1 < n) {
		uint8_t c = op[i + 1];
		if ((c & 0xf0) == 0x80)
			return HWT_BRANCH_COND;
		if (c == 0x05 || c == 0x34)
			return HWT_BRANCH_SYSCALL;
		if (c == 0x07 || c == 0x35)
			return HWT_BRANCH_SYSRET;
	}
	if (b == 0xcd || b == 0xcc || b == 0xce)
		return HWT_BRANCH_SYSCALL;
	if (b == 0xcf || b == 0xca || b == 0xcb)
		return HWT_BRANCH_ERET;
	if (b == 0xff && i + 1 < n) {
		unsigned int reg = (op[i + 1] >> 3) & 7;
		if (reg == 2 || reg == 3)
			return HWT_BRANCH_CALL;
		if (reg == 4 || reg == 5)
			return HWT_BRANCH_INDIRECT;
	}
	return HWT_BRANCH_JUMP;
}

static size_t read_code(struct pt_dec *d, uint64_t ip, uint8_t *buf);

/* The pending instruction's bytes, read on first need. */
static const uint8_t *pend_op(struct pt_dec *d)
{
	if (!d->pend_op_valid) {
		memset(d->pend_op, 0, sizeof(d->pend_op));
		uint8_t code[pt_max_insn_size];
		size_t n = read_code(d, d->pend_from, code);
		memcpy(d->pend_op, code, n < sizeof(d->pend_op) ? n : sizeof(d->pend_op));
		d->pend_op_valid = true;
	}
	return d->pend_op;
}

/* What a block's last instruction, by libipt's class, leaves pending:
 * whether it may branch, and the kind of the branch, or KIND_BY_OPCODE
 * when the class does not tell (a jump may be indirect; libipt may not
 * know the class). */
#define KIND_BY_OPCODE 0xff
static const struct {
	bool pends;
	uint8_t kind;
} class_pending[] = {
	[ptic_error] = {true, KIND_BY_OPCODE},
	[ptic_other] = {false, KIND_BY_OPCODE},
	[ptic_call] = {true, HWT_BRANCH_CALL},
	[ptic_return] = {true, HWT_BRANCH_RETURN},
	[ptic_jump] = {true, KIND_BY_OPCODE},
	[ptic_cond_jump] = {true, HWT_BRANCH_COND},
	/* By opcode, as libipt's block cache gives far branches no class:
	 * the kind must not depend on what the cache held (and a far
	 * return may be an iret or a sysret). */
	[ptic_far_call] = {true, KIND_BY_OPCODE},
	[ptic_far_return] = {true, KIND_BY_OPCODE},
	[ptic_far_jump] = {true, KIND_BY_OPCODE},
	[ptic_ptwrite] = {false, KIND_BY_OPCODE},
};
#define NCLASSES (sizeof(class_pending) / sizeof(class_pending[0]))

static enum hwt_branch_kind kind_of(struct pt_dec *d)
{
	if (d->pend_kind != KIND_BY_OPCODE)
		return (enum hwt_branch_kind)d->pend_kind;
	enum hwt_branch_kind k = kind_from_opcode(pend_op(d), sizeof(d->pend_op));
	if (d->pend_class == ptic_jump || d->pend_class == ptic_far_jump)
		return k == HWT_BRANCH_INDIRECT ? k : HWT_BRANCH_JUMP;
	return k;
}

/* The target of a direct jump or call (rel8/rel32), for a branch whose
 * target the trace does not give. */
static bool direct_target(struct pt_dec *d, uint64_t *to)
{
	const uint8_t *op = pend_op(d);
	size_t n = d->pend_len, i = 0;
	if (!n)
		return false;
	while (i < n && (op[i] == 0x66 || op[i] == 0xf2 || op[i] == 0xf3 ||
			 op[i] == 0x2e || op[i] == 0x3e || (op[i] & 0xf0) == 0x40))
		i++;
	if (i >= n)
		return false;
	int64_t rel;
	if ((op[i] == 0xe8 || op[i] == 0xe9) && i + 5 == n) {
		int32_t r;
		memcpy(&r, op + i + 1, 4);
		rel = r;
	} else if (op[i] == 0xeb && i + 2 == n) {
		rel = (int8_t)op[i + 1];
	} else {
		return false; /* indirect, or conditional: not certain */
	}
	*to = d->pend_next + (uint64_t)rel;
	return true;
}

/* A class that branches: one that pends, bar the class libipt left out
 * (ptic_error) and those it did not have when this was written. */
static bool is_branch_class(enum pt_insn_class c)
{
	return (unsigned int)c < NCLASSES && c != ptic_error &&
	       class_pending[c].pends;
}

/* The pending branch, taken to @to, of @kind. */
static void emit_branch(struct pt_dec *d, uint64_t to, enum hwt_branch_kind kind)
{
	struct hwt_elem *e = &d->branch_elem;
	e->u.branch.from = d->pend_from;
	e->u.branch.to = to;
	e->u.branch.kind = kind;
	emit_stamped(d, e);
}

static void emit_taken(struct pt_dec *d, uint64_t to, bool known);

/* The last block's final instruction went to @to (known) or somewhere
 * the trace does not say: emit it as a branch when it was taken. */
static inline void resolve_pending(struct pt_dec *d, uint64_t to, bool known)
{
	if (!d->pend)
		return;
	d->pend = false;
	if (known && d->pend_len) {
		if (to == d->pend_next)
			return; /* fell through */
		if (d->pend_kind != KIND_BY_OPCODE) {
			/* Taken, of a kind libipt's class told: most blocks. */
			emit_branch(d, to, (enum hwt_branch_kind)d->pend_kind);
			return;
		}
	}
	emit_taken(d, to, known);
}

static void emit_taken(struct pt_dec *d, uint64_t to, bool known)
{
	if (!known && !direct_target(d, &to))
		return;
	if (to == d->pend_next && d->pend_len)
		return; /* fell through */
	if (!d->pend_len && to > d->pend_from && to - d->pend_from < 16 &&
	    !is_branch_class(d->pend_class))
		return; /* fell through an instruction we could not size */
	emit_branch(d, to, kind_of(d));
}

/* Reads the code at @ip as the decoder saw it. */
static size_t read_code(struct pt_dec *d, uint64_t ip, uint8_t *buf)
{
	if (!d->params.image)
		return 0;
	int n = hwt_image_read_at(d->params.image, d->img_pid, ip, d->code_time,
				  buf, pt_max_insn_size);
	return n > 0 ? (size_t)n : 0;
}

/* The held range and the range from @start (as emit_range's): joined
 * when the one goes on from the other (true), else the held one is
 * handed over. Apart from the common path, which holds nothing. */
static __attribute__((noinline)) bool join_held(struct pt_dec *d, uint64_t start,
						uint64_t end, uint64_t insns,
						enum hwt_isa isa, bool hold)
{
	struct hwt_elem *e = &d->range_elem;
	d->held = false;
	if (start != e->u.range.end || isa != e->u.range.isa) {
		hand_over(d, e);
		return false;
	}
	e->u.range.end = end;
	e->u.range.insns += insns;
	d->held = hold;
	if (!hold)
		hand_over(d, e);
	return true;
}

/* A range; with @hold, one that ends at an instruction that does not
 * branch, held back for the next block to go on. libipt's block cache,
 * once warm, may end a block at such an instruction where a fresh
 * decoder goes on: the next block, starting where it ended with nothing
 * between, is the same range, and joins it. So a decode comes out the
 * same whatever libipt decoded before it, and its caches can stay warm
 * from one chunk to the next. */
static inline void emit_range(struct pt_dec *d, uint64_t start, uint64_t end,
			      uint64_t insns, enum hwt_isa isa, bool hold)
{
	if (d->held && join_held(d, start, end, insns, isa, hold))
		return;
	struct hwt_elem *e = &d->range_elem;
	e->u.range.start = start;
	e->u.range.end = end;
	e->u.range.insns = insns;
	e->u.range.isa = isa;
	d->held = hold;
	if (!hold)
		hand_over(d, e);
}

/* One range per instruction, for output that shows instructions: the
 * @ninsn contiguous instructions from @start to @end. Apart from the
 * common path, since its code buffer costs every caller a stack guard. */
static __attribute__((noinline)) uint64_t
emit_split(struct pt_dec *d, uint64_t start, uint64_t last,
	   unsigned int last_len, uint64_t end, uint64_t ninsn,
	   enum pt_exec_mode mode)
{
	enum hwt_isa isa = isa_of(mode);
	uint8_t code[pt_max_insn_size];
	uint64_t ip = start;
	if (!d->il) {
		d->il = pt_insn_len_new();
		if (!d->il && !d->stop)
			d->stop = hwt_error(HWT_ERR_NOMEM, "out of memory for "
					    "the instruction lengths of --disasm");
	}
	for (uint64_t i = 0; i < ninsn && !d->stop; i++) {
		unsigned int len = 0;
		if (ip == last && last_len) {
			len = last_len;
		} else {
			size_t n = read_code(d, ip, code);
			len = n ? pt_insn_len_at(d->il, mode, ip, code, n) : 0;
		}
		if (!len) {
			/* Cannot split further: the rest as one range. */
			emit_range(d, ip, end, ninsn - i, isa, false);
			return end;
		}
		emit_range(d, ip, ip + len, 1, isa, false);
		ip += len;
	}
	return ip;
}

/* The held run of instructions, one range each (--disasm). */
static __attribute__((noinline)) void split_held(struct pt_dec *d)
{
	const struct hwt_elem *e = &d->range_elem;
	emit_split(d, e->u.range.start, d->held_last, d->held_last_len,
		   e->u.range.end, e->u.range.insns, d->held_mode);
}

/* --disasm: the instructions from @start to @end, one range each. A run
 * that ends at an instruction that does not branch is held whole, as a
 * range is, and split when it is let go: after the next block's new time
 * when that block goes on from it (update_time), so that its
 * instructions have the time they would have had in one block with the
 * next. */
static __attribute__((noinline)) uint64_t
emit_insns(struct pt_dec *d, uint64_t start, uint64_t last,
	   unsigned int last_len, uint64_t end, uint16_t ninsn,
	   enum pt_exec_mode mode, bool hold)
{
	release_held(d);
	if (!hold)
		return emit_split(d, start, last, last_len, end, ninsn, mode);
	emit_range(d, start, end, ninsn, isa_of(mode), true);
	d->held_last = last;
	d->held_last_len = last_len;
	d->held_mode = mode;
	return end;
}

/* The @ninsn contiguous instructions from @start to the one at @last
 * (@last_len bytes long, 0 when unknown) as a range (held with @hold),
 * or as ranges of one instruction each. Returns where the last ends. */
static inline uint64_t emit_segment(struct pt_dec *d, uint64_t start,
				    uint64_t last, unsigned int last_len,
				    uint16_t ninsn, enum pt_exec_mode mode,
				    bool hold)
{
	uint64_t end = last + (last_len ? last_len : 1);
	if (d->params.disasm)
		return emit_insns(d, start, last, last_len, end, ninsn, mode,
				  hold);
	emit_range(d, start, end, ninsn, isa_of(mode), hold);
	return end;
}

/* A block whose path through direct branches could not be followed:
 * its branches are missing from the output, which says so once. */
static void report_uncut(struct pt_dec *d, const struct pt_block *b,
			 struct pt_block_shape *sh)
{
	sh->reported = true;
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_ERROR);
	snprintf(d->msg, sizeof(d->msg),
		 "cannot follow the code of the block at 0x%llx to its end at "
		 "0x%llx: it is shown as one range, without the direct calls "
		 "and jumps it went through",
		 (unsigned long long)b->ip, (unsigned long long)b->end_ip);
	e.u.error.message = d->msg;
	emit(d, &e);
}

/* The previous block's last branch, or a cut's, went to @to. */
static void pend_cut(struct pt_dec *d, const struct pt_shape_cut *c)
{
	d->pend = true;
	d->pend_from = c->from;
	d->pend_next = c->from + c->len;
	d->pend_class = c->kind == HWT_BRANCH_CALL ? ptic_call : ptic_jump;
	d->pend_len = c->len;
	d->pend_kind = c->kind;
	d->pend_op_valid = false;
}

/* The parts of a block before its last cut, which come out as blocks
 * that end at every call and jump would: before the time this block's
 * trace brings, which the last cut's branch and the last part carry.
 * Returns where the last part starts; @left is its instruction count. */
static uint64_t emit_cut_parts(struct pt_dec *d, const struct pt_block *b,
			       struct pt_block_shape *sh, uint16_t *left)
{
	if (sh->uncut && !sh->reported)
		report_uncut(d, b, sh);
	uint64_t start = b->ip;
	const struct pt_shape_cut *cut = pt_shape_cuts(d->shapes, sh);
	for (uint16_t i = 0; i < sh->ncuts && !d->stop; i++) {
		const struct pt_shape_cut *c = &cut[i];
		resolve_pending(d, start, true);
		emit_segment(d, start, c->from, c->len, c->insns, b->mode,
			     false);
		pend_cut(d, c);
		start = c->to;
		*left -= c->insns;
	}
	return start;
}

/* The time after a block, when it moved: most blocks bring none, and
 * setting the same time again changes nothing. The block's part from
 * @start on carries it. When that part goes on from the held range
 * (@goes_on), the range takes the new time too: libipt's block cache,
 * warm, may end a block at an instruction that does not branch where a
 * fresh decoder goes on, and the time libipt gives after the first block
 * is then older than after the whole one (a TSC read with the next
 * TNT). Held at the time of its own block, the range's time would
 * depend on what the decoder had decoded before. */
static void update_time(struct pt_dec *d, bool goes_on)
{
	uint64_t tsc;
	uint32_t lost_mtc, lost_cyc;
	int err = d->qry ? pt_qry_time(d->qry, &tsc, &lost_mtc, &lost_cyc)
			 : pt_blk_time(d->dec, &tsc, &lost_mtc, &lost_cyc);
	if (err >= 0 && tsc && !(d->have_time && tsc == d->tsc))
		set_time(d, tsc, goes_on);
}

/* Whether a block part from @start in @mode goes on from the held range
 * (emit_range would join them). */
static bool goes_on_held(const struct pt_dec *d, uint64_t start,
			 enum pt_exec_mode mode)
{
	return d->held && start == d->range_elem.u.range.end &&
	       isa_of(mode) == d->range_elem.u.range.isa;
}

void pt_on_block(struct pt_dec *d, const struct pt_block *b)
{
	/* The code as libipt read it: before a new time may change it. */
	pt_on_shaped_block(d, b, pt_shape_of(d->shapes, b, d->img));
}

void pt_on_shaped_block(struct pt_dec *d, const struct pt_block *b,
			struct pt_block_shape *sh)
{
	uint64_t start = b->ip;
	uint16_t left = b->ninsn;
	if (sh->ncuts || sh->uncut)
		start = emit_cut_parts(d, b, sh, &left);

	if (d->timing || d->timed_image)
		update_time(d, goes_on_held(d, start, b->mode));

	/* Instructions that never branch (ptwrite, ...) leave nothing to
	 * resolve; a class libipt left out is judged by the next block. */
	unsigned int c = (unsigned int)b->iclass;
	if (c >= NCLASSES)
		c = ptic_error;

	resolve_pending(d, start, true);
	uint64_t end = emit_segment(d, start, b->end_ip, sh->last_len, left,
				    b->mode, !class_pending[c].pends);

	d->pend = class_pending[c].pends;
	d->pend_kind = class_pending[c].kind;
	d->pend_from = b->end_ip;
	d->pend_next = end;
	d->pend_class = b->iclass;
	d->pend_len = sh->last_len;
	d->pend_op_valid = b->truncated;
	if (b->truncated) {
		memset(d->pend_op, 0, sizeof(d->pend_op));
		memcpy(d->pend_op, b->raw,
		       b->size < sizeof(d->pend_op) ? b->size : sizeof(d->pend_op));
	}
}

/* The IP of a status update that a PSB+'s FUP gives (exec mode and TSX
 * state are bound to it); false for other events. */
static bool status_ip(const struct pt_event *ev, uint64_t *ip)
{
	if (!ev->status_update || ev->ip_suppressed)
		return false;
	if (ev->type == ptev_exec_mode)
		*ip = ev->variant.exec_mode.ip;
	else if (ev->type == ptev_tsx)
		*ip = ev->variant.tsx.ip;
	else
		return false;
	return true;
}

/* How far the decoder in use (the fast path's query decoder or the block
 * decoder) has read into the trace. */
static int read_offset(const struct pt_dec *d, uint64_t *off)
{
	if (d->qry)
		return pt_qry_get_offset(d->qry, off);
	return d->dec ? pt_blk_get_offset(d->dec, off) : -pte_internal;
}

void pt_on_event(struct pt_dec *d, const struct pt_event *ev)
{
	/* Where a decoder of the chunk uncut, going on through a PSB+, ends
	 * a range, as the decoder of the segment after it must. */
	release_held(d);
	struct hwt_elem e;
	/* Its type is set below, by the event. */
	hwt_elem_clear(&e, HWT_ELEM_TIMESTAMP);

	if (ev->has_tsc && ev->tsc) {
		set_time(d, ev->tsc, false);
		d->timing = true;
	}
	uint64_t off;
	if (ev->status_update && d->seg_end != UINT64_MAX &&
	    read_offset(d, &off) >= 0 && off > d->seg_end)
		/* The next segment's PSB+: this segment ends with it. */
		d->seg_over = true;
	uint64_t at;
	if (status_ip(ev, &at))
		/* A PSB+ met on the way: its FUP is where the code runs on,
		 * the target of the block before's last branch. Resolved
		 * here rather than at the next block, so that a decode whose
		 * trace ends with this PSB+ (a segment of a split chunk)
		 * ends as a decode that runs on past it. */
		resolve_pending(d, at, true);
	e.fields = 0;
	switch (ev->type) {
	case ptev_enabled:
		d->pend = false;
		e.type = HWT_ELEM_TRACE_ON;
		if (!ev->ip_suppressed) {
			e.fields |= HWT_FIELD_AT;
			e.u.trace.at = ev->variant.enabled.ip;
		}
		emit(d, &e);
		break;
	case ptev_disabled:
		/* Tracing stopped on a branch: its target, when the packet or
		 * the instruction gives it. */
		resolve_pending(d, ev->variant.disabled.ip, !ev->ip_suppressed);
		e.type = HWT_ELEM_TRACE_OFF;
		if (!ev->ip_suppressed) {
			e.fields |= HWT_FIELD_AT;
			e.u.trace.at = ev->variant.disabled.ip;
		}
		emit(d, &e);
		break;
	case ptev_async_disabled:
		resolve_pending(d, ev->variant.async_disabled.at, true);
		e.type = HWT_ELEM_TRACE_OFF;
		e.fields |= HWT_FIELD_AT;
		e.u.trace.at = ev->variant.async_disabled.at;
		emit(d, &e);
		break;
	case ptev_async_branch:
		/* The branch before the interrupted instruction went there
		 * (the next block would have shown it). */
		resolve_pending(d, ev->variant.async_branch.from, true);
		if (ev->ip_suppressed)
			break;
		e.type = HWT_ELEM_BRANCH;
		e.u.branch.from = ev->variant.async_branch.from;
		e.u.branch.to = ev->variant.async_branch.to;
		e.u.branch.kind = HWT_BRANCH_INTERRUPT;
		e.u.branch.exception = 0;
		emit(d, &e);
		break;
	case ptev_overflow:
		d->pend = false;
		e.type = HWT_ELEM_GAP;
		e.u.gap.reason = HWT_GAP_OVERFLOW;
		e.u.gap.bytes = 0;
		e.u.gap.detail = "the trace unit dropped packets (OVF)";
		emit(d, &e);
		break;
	case ptev_stop:
		d->pend = false;
		e.type = HWT_ELEM_TRACE_OFF;
		emit(d, &e);
		break;
	default:
		break;
	}
}

/* Where decoding failed after a block: libipt follows a direct call or
 * jump that ends a block into its target, the code it could not read. */
static uint64_t failed_at(struct pt_dec *d)
{
	uint64_t to;
	if ((d->pend_class == ptic_call || d->pend_class == ptic_jump) &&
	    direct_target(d, &to))
		return to;
	return d->pend_next;
}

/* Decodes from a synchronisation point until an error or the end. */
static int run(struct pt_dec *d, struct pt_block_decoder *dec, int status)
{
	unsigned int blocks = 0;
	for (;;) {
		while (status & pts_event_pending) {
			struct pt_event ev;
			status = pt_blk_event(dec, &ev, sizeof(ev));
			if (status < 0)
				return status;
			pt_on_event(d, &ev);
			if (d->stop)
				return -pte_eos;
		}
		/* After all of the PSB+'s status updates: its FUP resolves
		 * the last branch, whichever of them brings it. */
		if (d->seg_over)
			return -pte_eos;
		if (status & pts_eos) {
			/* The trace ends here, but where the last branch went
			 * is known: libipt shows it as the next block's start. */
			if (d->pend) {
				struct pt_block b;
				pt_blk_next(dec, &b, sizeof(b));
				resolve_pending(d, b.ip, b.ninsn > 0);
			}
			return -pte_eos;
		}

		struct pt_block b;
		status = pt_blk_next(dec, &b, sizeof(b));
		/* A failing call may still have decoded instructions. */
		if (b.ninsn)
			pt_on_block(d, &b);
		if (d->stop)
			return -pte_eos;
		if (status < 0) {
			d->fail_ip = b.ninsn ? failed_at(d) : b.ip;
			return status;
		}
		/* How far into the chunk, now and then (progress reports). */
		uint64_t off;
		if (d->params.progress && !(++blocks & 8191) &&
		    pt_blk_get_offset(dec, &off) >= 0)
			d->params.progress(d->params.progress_arg, off);
	}
}

static void emit_gap(struct pt_dec *d, enum hwt_gap_reason reason,
		     uint64_t offset, uint64_t bytes, const char *detail)
{
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_GAP);
	e.fields = HWT_FIELD_OFFSET | HWT_FIELD_GAP_BYTES;
	e.trace_offset = offset;
	e.u.gap.reason = reason;
	e.u.gap.bytes = bytes;
	e.u.gap.detail = detail;
	d->pend = false;
	emit(d, &e);
}

/* Code for @ip is missing: name the file the first time only. */
static const char *missing_detail(struct pt_dec *d, uint64_t ip)
{
	if (!d->params.image)
		return NULL;
	struct hwt_image_section *s =
		hwt_image_find_at(d->params.image, d->img_pid, ip, d->code_time);
	if (!s) {
		snprintf(d->msg, sizeof(d->msg), "no code mapped at 0x%llx",
			 (unsigned long long)ip);
		return d->msg;
	}
	if (!hwt_image_section_first_report(s))
		return NULL;
	if (s->missing_detail)
		snprintf(d->msg, sizeof(d->msg), "%s (code at 0x%llx)",
			 s->missing_detail, (unsigned long long)ip);
	else
		snprintf(d->msg, sizeof(d->msg), "%s not found (code at 0x%llx)",
			 s->path, (unsigned long long)ip);
	return d->msg;
}

void pt_emit(struct pt_dec *d, struct hwt_elem *e)
{
	emit(d, e);
}

void pt_set_time(struct pt_dec *d, uint64_t tsc)
{
	set_time(d, tsc, false);
}

void pt_end_pending(struct pt_dec *d, uint64_t to, bool known)
{
	resolve_pending(d, to, known);
}

void pt_release_held(struct pt_dec *d)
{
	release_held(d);
}

void pt_emit_gap(struct pt_dec *d, enum hwt_gap_reason reason, uint64_t offset,
		 uint64_t bytes, const char *detail)
{
	emit_gap(d, reason, offset, bytes, detail);
}

/* Readies @d to decode @chunk from its start, and @config to read it. */
static void chunk_begin(struct pt_dec *d, const struct hwt_aux_chunk *chunk,
			struct pt_config *config)
{
	*config = d->config;
	config->begin = (uint8_t *)chunk->data;
	config->end = config->begin + chunk->size;
	d->seg_end = UINT64_MAX;
	d->seg_over = false;
	if (chunk->lookahead && chunk->size) {
		/* A segment (pt_split.c): decoded through the next one's
		 * PSB+, whose FUP ends this one's last block. */
		int n = pt_psb_plus_size(&d->config, config->end,
					 config->end + chunk->lookahead, 0);
		if (n > 0) {
			config->end += n;
			d->seg_end = chunk->size;
		}
	}

	d->cpu = chunk->cpu;
	d->tid = chunk->tid;
	d->base_fields = (chunk->cpu >= 0 ? HWT_FIELD_CPU : 0) |
			 (chunk->tid >= 0 ? HWT_FIELD_TID : 0) |
			 (chunk->has_pid ? HWT_FIELD_PID : 0);
	d->pid = chunk->has_pid ? chunk->pid : 0;
	d->pend = false;
	d->held = false;
	d->have_time = false;
	hwt_elem_clear(&d->range_elem, HWT_ELEM_RANGE);
	hwt_elem_clear(&d->branch_elem, HWT_ELEM_BRANCH);
	stamp(d);
	/* Asked per block only once the trace shows it has time. */
	d->timing = false;
	d->sent = 0;
}

struct pt_image *pt_chunk_image(struct pt_dec *d,
				const struct hwt_aux_chunk *chunk)
{
	/* A per-thread stream is one process throughout; a per-CPU one
	 * starts unattributed until its first time stamp. */
	int32_t pid = HWT_PID_ANY;
	if (d->params.pid_at && chunk->cpu < 0 && chunk->tid >= 0)
		pid = d->params.pid_at(d->params.pid_at_arg, -1, chunk->tid, 0);
	/* Until its first time stamp, the code of the latest mappings. */
	d->code_time = HWT_TIME_UNKNOWN;
	uint64_t until;
	struct pt_image *img = pt_image_adapter_get(d->ad, pid, d->code_time,
						    &until);
	if (img) {
		d->img = img;
		d->img_pid = pid;
		d->img_from = d->code_time;
		d->img_until = until;
	}
	d->pid_time = 0;
	return img;
}

/* Decodes @chunk with libipt's block decoder. */
static int block_decode(struct pt_dec *d, const struct hwt_aux_chunk *chunk,
			const struct pt_config *config)
{
	struct pt_block_decoder *dec = pt_blk_alloc_decoder(config);
	if (!dec)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a PT decoder");
	struct pt_image *img = pt_chunk_image(d, chunk);
	if (!img || pt_blk_set_image(dec, img) < 0) {
		pt_blk_free_decoder(dec);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the PT image");
	}
	d->dec = dec;
	uint64_t from = 0; /* where trace was last good */
	uint64_t synced_at = 0; /* the sync point before it */
	uint64_t lost_ip = 0;   /* where code was missing (no_image) */
	enum hwt_gap_reason why = HWT_GAP_NO_SYNC;
	const char *detail = NULL;
	char detail_buf[sizeof(d->msg)];
	for (;;) {
		d->fail_ip = 0;
		int status = pt_blk_sync_forward(dec);
		uint64_t at = chunk->size;
		if (status >= 0) {
			uint64_t off;
			if (pt_blk_get_sync_offset(dec, &off) >= 0)
				at = off;
		}
		if (at > from || why != HWT_GAP_NO_SYNC)
			emit_gap(d, why, chunk->offset + from,
				 at > from ? at - from : 0, detail);
		/* The code is missing, the packets are not: what they say
		 * of the flow up to the next sync point comes out. */
		if (why == HWT_GAP_NO_IMAGE && at > from && !d->stop)
			pt_packet_flow(d, config, chunk->offset, synced_at, from,
				       at, lost_ip);
		synced_at = at;
		/* At the next segment's PSB: its decoder goes on from here. */
		if (status < 0 || d->stop || at >= d->seg_end)
			break;
		if (!d->timing || d->timed_image) {
			uint64_t tsc;
			uint32_t lost_mtc, lost_cyc;
			bool timing = pt_blk_time(dec, &tsc, &lost_mtc, &lost_cyc) >= 0 &&
				      tsc;
			d->timing |= timing;
			/* The PSB's time stamp: the code that follows ran then. */
			if (timing && d->timed_image)
				pt_follow(d, pt_tsc_to_time(&d->tc, tsc));
		}

		status = run(d, dec, status);
		if (d->stop || status == -pte_eos)
			break;

		uint64_t off = 0;
		pt_blk_get_offset(dec, &off);
		from = off;
		enum pt_error_code code = pt_errcode(status);
		if (code == pte_nomap) {
			why = HWT_GAP_NO_IMAGE;
			lost_ip = d->fail_ip;
			detail = NULL;
			const char *m = missing_detail(d, d->fail_ip);
			if (m) {
				snprintf(detail_buf, sizeof(detail_buf), "%s", m);
				detail = detail_buf;
			}
		} else {
			struct hwt_elem e;
			hwt_elem_clear(&e, HWT_ELEM_ERROR);
			e.fields = HWT_FIELD_OFFSET;
			e.trace_offset = chunk->offset + off;
			e.u.error.message = pt_errstr(code);
			emit(d, &e);
			why = HWT_GAP_DECODE_ERROR;
			detail = NULL;
		}
		d->pend = false;
	}
	release_held(d);
	pt_blk_free_decoder(dec);
	d->dec = NULL;
	return d->stop;
}

int pt_dec_chunk(struct pt_dec *d, const struct hwt_aux_chunk *chunk)
{
	struct pt_config config;
	chunk_begin(d, chunk, &config);
	if (!chunk->size)
		return 0;
	if (d->fast) {
		int done = pt_fast_chunk(d, chunk, &config);
		if (done != PT_FAST_GAVE_UP)
			return done;
		/* Decoded again by the block decoder, which gives the
		 * elements already sent first. */
		uint64_t sent = d->sent;
		chunk_begin(d, chunk, &config);
		d->skip = sent;
	}
	int err = block_decode(d, chunk, &config);
	if (d->skip && !err) {
		d->skip = 0;
		return hwt_error(HWT_ERR_DECODE, "intel_pt: the fast decoder "
				 "sent elements that libipt's block decoder "
				 "does not give (set HWTRACE_PT_FAST=0 and "
				 "report this)");
	}
	d->skip = 0;
	return err;
}
