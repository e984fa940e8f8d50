/* The N-Trace decoder: messages in stream order, each one moving its
 * hart's walk through the program (rvt_walk.c) and turned into the
 * element stream. Decoding starts at a synchronizing message; a message
 * that does not fit the code ends the walk until the next one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/riscv-trace/rvt_decode.h"
#include "backends/riscv-trace/rvt_record.h"
#include "hwtrace/error.h"

static struct rvt_hart *hart_for(struct rvt_dec *d, uint32_t src)
{
	for (size_t i = 0; i < d->nharts; i++)
		if (d->harts[i].src == src)
			return &d->harts[i];
	if (d->nharts == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 4;
		struct rvt_hart *n = realloc(d->harts, cap * sizeof(*n));
		if (!n)
			return NULL;
		d->harts = n;
		d->cap = cap;
	}
	struct rvt_hart *h = &d->harts[d->nharts++];
	memset(h, 0, sizeof(*h));
	h->src = src;
	return h;
}

static int emit_gap(struct rvt_dec *d, struct rvt_hart *h,
		    enum hwt_gap_reason reason, uint64_t bytes,
		    const char *detail)
{
	struct hwt_elem e;

	rvt_elem_init(d, h, &e, HWT_ELEM_GAP);
	e.u.gap.reason = reason;
	if (bytes) {
		e.fields |= HWT_FIELD_GAP_BYTES;
		e.u.gap.bytes = bytes;
	}
	e.u.gap.detail = detail;
	return rvt_emit(d, &e);
}

/* The bytes skipped while waiting for a synchronizing message, as one
 * gap at the first of them. */
static int end_skip(struct rvt_dec *d, struct rvt_hart *h)
{
	if (!h->skipping)
		return 0;
	h->skipping = false;
	/* Emitted where the skipping ends, which may be a chunk's end or a
	 * synchronizing message: with what was known where it began. */
	uint64_t at = d->offset, time = h->time;
	bool have_time = h->have_time;
	d->offset = h->skip_from;
	h->time = h->skip_time;
	h->have_time = h->skip_have_time;
	int err = emit_gap(d, h, HWT_GAP_NO_SYNC, h->skip_bytes,
			   "waiting for a synchronizing message");
	d->offset = at;
	h->time = time;
	h->have_time = have_time;
	return err;
}

static void skip(struct rvt_hart *h, const struct rvt_msg *m)
{
	if (!h->skipping) {
		h->skipping = true;
		h->skip_from = m->offset;
		h->skip_bytes = 0;
		h->skip_time = h->time;
		h->skip_have_time = h->have_time;
	}
	h->skip_bytes += m->size;
}

/* The walk could not go on: say why, and wait for a synchronizing
 * message. */
static int lose_sync(struct rvt_dec *d, struct rvt_hart *h, int status)
{
	int err = rvt_range_flush(d, h);

	h->synced = false;
	h->have_last = false;
	if (err < 0)
		return err;
	return emit_gap(d, h, status == RVT_NO_IMAGE ? HWT_GAP_NO_IMAGE
						     : HWT_GAP_DECODE_ERROR,
			0, d->detail);
}

static void set_time(struct rvt_dec *d, struct rvt_hart *h,
		     const struct rvt_msg *m)
{
	bool sync = rvt_tcode_is_sync(m->tcode);

	if (!rvt_msg_has(m, RVT_F_TSTAMP)) {
		/* A synchronizing message without one: the trace has no
		 * time (the time after it may not depend on what came
		 * before, for a decode cut there). */
		if (sync)
			h->have_time = false;
		return;
	}
	if (sync || d->o.ts == RVT_TS_FULL) {
		h->time = m->v[RVT_F_TSTAMP];
		h->have_time = true;
	} else if (h->have_time) {
		h->time += m->v[RVT_F_TSTAMP];
	}
}

static int trace_point(struct rvt_dec *d, struct rvt_hart *h,
		       enum hwt_elem_type type, uint64_t at)
{
	struct hwt_elem e;

	rvt_elem_init(d, h, &e, type);
	e.fields |= HWT_FIELD_AT;
	e.u.trace.at = at;
	return rvt_emit(d, &e);
}

/* The message's target: F-ADDR, or U-ADDR on the last address sent. */
static uint64_t target_of(const struct rvt_dec *d, const struct rvt_hart *h,
			  const struct rvt_msg *m)
{
	if (rvt_msg_has(m, RVT_F_FADDR))
		return rvt_addr_field(m->v[RVT_F_FADDR], m->bits[RVT_F_FADDR], &d->o);
	return h->ref ^ rvt_addr_field(m->v[RVT_F_UADDR], m->bits[RVT_F_UADDR],
				       &d->o);
}

/* An exception or interrupt (B-TYPE 1..3) taken at h->pc, the
 * instruction that did not run. */
static int trap(struct rvt_dec *d, struct rvt_hart *h, unsigned btype,
		uint64_t target)
{
	enum hwt_branch_kind kind = HWT_BRANCH_EXCEPTION;
	struct rvt_insn in;

	if (btype == 3)
		kind = HWT_BRANCH_INTERRUPT;
	else if (rvt_fetch(d, h->pc, &in) == 0 && in.iclass == RVT_I_TRAP)
		kind = HWT_BRANCH_SYSCALL;
	return rvt_taken(d, h, h->pc, target, kind);
}

/* The messages that end a block of code: DirectBranch, IndirectBranch,
 * IndirectBranchHist and their Sync forms, with @target the address
 * they give (0 for DirectBranch). The I-CNT and HIST fields walk the
 * block; the address is where it went. */
static int branch_msg(struct rvt_dec *d, struct rvt_hart *h,
		      const struct rvt_msg *m, uint64_t target)
{
	int err;
	bool sync = rvt_tcode_is_sync(m->tcode);

	if (rvt_msg_has(m, RVT_F_HIST) &&
	    (err = rvt_walk_hist(d, h, m->v[RVT_F_HIST])) != 0)
		return err;
	int64_t count = h->icnt_left + (int64_t)m->v[RVT_F_ICNT];
	h->icnt_left = 0;
	if (m->tcode == RVT_TC_DIRECT_BRANCH ||
	    m->tcode == RVT_TC_DIRECT_BRANCH_SYNC)
		return rvt_walk_count(d, h, count, RVT_END_BRANCH, NULL, NULL);
	unsigned btype = rvt_msg_has(m, RVT_F_BTYPE) ? (unsigned)m->v[RVT_F_BTYPE]
						     : 0;
	if (btype) {
		if ((err = rvt_walk_count(d, h, count, RVT_END_STOP, NULL, NULL)))
			return err;
		return trap(d, h, btype, target);
	}
	struct rvt_insn last;
	bool have_last;
	if ((err = rvt_walk_count(d, h, count, RVT_END_INDIRECT, &last,
				  &have_last)))
		return err;
	if (have_last)
		return rvt_jump_to(d, h, &last, target);
	if (sync || h->pc == target)
		return 0; /* linear code: a synchronization point */
	/* A flow change the code does not show (a custom instruction is
	 * traced this way). */
	return rvt_taken(d, h, h->pc, target, HWT_BRANCH_JUMP);
}

static int sync_msg(struct rvt_dec *d, struct rvt_hart *h,
		    const struct rvt_msg *m)
{
	uint64_t target = target_of(d, h, m);
	int err = end_skip(d, h);

	if (err < 0)
		return err;
	if (h->synced) {
		if (m->tcode == RVT_TC_PROG_TRACE_SYNC) {
			int64_t count = h->icnt_left + (int64_t)m->v[RVT_F_ICNT];
			err = rvt_walk_count(d, h, count, RVT_END_STOP, NULL, NULL);
		} else {
			err = branch_msg(d, h, m, target);
		}
		if (err > 0 && (err = lose_sync(d, h, err)) < 0)
			return err;
		if (err < 0)
			return err;
	}
	if ((err = rvt_range_flush(d, h)) < 0)
		return err;
	bool was = h->synced && h->pc == target;
	h->synced = true;
	h->pc = target;
	h->ref = target;
	h->icnt_left = 0;
	h->depth = 0;
	h->have_last = false;
	return was ? 0 : trace_point(d, h, HWT_ELEM_TRACE_ON, target);
}

static int resource_full(struct rvt_dec *d, struct rvt_hart *h,
			 const struct rvt_msg *m)
{
	int err = 0;

	switch (m->v[RVT_F_RCODE]) {
	case 0:
		h->icnt_left += (int64_t)m->v[RVT_F_RDATA];
		return 0;
	case 1:
		return rvt_walk_hist(d, h, m->v[RVT_F_RDATA]);
	case 2:
		for (uint64_t i = 0; i < m->v[RVT_F_HREPEAT] && !err; i++)
			err = rvt_walk_hist(d, h, m->v[RVT_F_RDATA]);
		return err;
	}
	return 0;
}

static int correlation(struct rvt_dec *d, struct rvt_hart *h,
		       const struct rvt_msg *m)
{
	int err;

	if (rvt_msg_has(m, RVT_F_HIST) &&
	    (err = rvt_walk_hist(d, h, m->v[RVT_F_HIST])) != 0)
		return err;
	int64_t count = h->icnt_left + (int64_t)m->v[RVT_F_ICNT];
	h->icnt_left = 0;
	if ((err = rvt_walk_count(d, h, count, RVT_END_STOP, NULL, NULL)) ||
	    (err = rvt_range_flush(d, h)) < 0)
		return err;
	h->synced = false;
	return trace_point(d, h, HWT_ELEM_TRACE_OFF, h->pc);
}

/* Ownership: PROCESS is {CONTEXT, V, PRV[1:0], FORMAT[1:0]}. */
static int ownership(struct rvt_dec *d, struct rvt_hart *h,
		     const struct rvt_msg *m)
{
	struct hwt_elem e;
	uint64_t v = m->v[RVT_F_PROCESS];
	unsigned format = v & 3;

	if (format == 1)
		return 0; /* reserved */
	rvt_elem_init(d, h, &e, HWT_ELEM_CONTEXT);
	e.fields |= HWT_FIELD_EL;
	e.u.context.el = (uint32_t)(v >> 2 & 3);
	if (format == 2) {
		e.fields |= HWT_FIELD_PID;
		e.pid = (int32_t)(v >> 5);
	} else if (format == 3) {
		e.fields |= HWT_FIELD_VMID;
		e.u.context.vmid = (uint32_t)(v >> 5);
	}
	return rvt_emit(d, &e);
}

static int error_msg(struct rvt_dec *d, struct rvt_hart *h,
		     const struct rvt_msg *m)
{
	int err = rvt_range_flush(d, h);

	if (err < 0)
		return err;
	h->synced = false;
	h->have_last = false;
	snprintf(d->detail, sizeof(d->detail), "the trace encoder lost "
		 "messages (Error message, ETYPE %" PRIu64 ", ECODE 0x%" PRIx64
		 ")", m->v[RVT_F_ETYPE], m->v[RVT_F_ECODE]);
	return emit_gap(d, h, HWT_GAP_OVERFLOW, 0, d->detail);
}

/* A message of a synced hart, other than the synchronizing ones. */
static int flow_msg(struct rvt_dec *d, struct rvt_hart *h,
		    const struct rvt_msg *m)
{
	uint64_t target;
	int err;

	switch (m->tcode) {
	case RVT_TC_DIRECT_BRANCH:
	case RVT_TC_INDIRECT_BRANCH:
	case RVT_TC_INDIRECT_BRANCH_HIST:
		target = m->tcode == RVT_TC_DIRECT_BRANCH ? 0 : target_of(d, h, m);
		if (m->tcode != RVT_TC_DIRECT_BRANCH)
			h->ref = target;
		if ((err = branch_msg(d, h, m, target)) != 0)
			return err;
		h->last = *m;
		h->last_target = target;
		h->have_last = true;
		return 0;
	case RVT_TC_REPEAT_BRANCH:
		if (!h->have_last) {
			snprintf(d->detail, sizeof(d->detail), "a RepeatBranch "
				 "message with no branch message to repeat");
			return RVT_FAIL;
		}
		for (uint64_t i = 0; i < m->v[RVT_F_BCNT]; i++)
			if ((err = branch_msg(d, h, &h->last, h->last_target)))
				return err;
		return 0;
	case RVT_TC_RESOURCE_FULL:
		return resource_full(d, h, m);
	case RVT_TC_PROG_TRACE_CORRELATION:
		return correlation(d, h, m);
	}
	return 0;
}

/* The specification's field limits (its "Maximum Field Sizes"): a
 * value past one is corrupt trace, and would have the walk repeat code
 * for as long as the value says. */
static int over_limit(struct rvt_dec *d, const struct rvt_msg *m)
{
	static const struct { enum rvt_field f; unsigned bits; } max[] = {
		{RVT_F_ICNT, 22}, {RVT_F_HIST, 32}, {RVT_F_HREPEAT, 18},
		{RVT_F_BCNT, 18},
	};
	for (size_t i = 0; i < sizeof(max) / sizeof(max[0]); i++) {
		if (rvt_msg_has(m, max[i].f) && m->v[max[i].f] >> max[i].bits) {
			snprintf(d->detail, sizeof(d->detail), "%s 0x%" PRIx64
				 " of a %s message is wider than the "
				 "specification's %u bits", rvt_field_name(max[i].f),
				 m->v[max[i].f], rvt_tcode_name(m->tcode),
				 max[i].bits);
			return RVT_FAIL;
		}
	}
	/* RDATA is an I-CNT (RCODE 0) or a HIST (1, 2). */
	unsigned rbits = m->v[RVT_F_RCODE] ? 32 : 22;
	if (m->tcode == RVT_TC_RESOURCE_FULL && m->v[RVT_F_RCODE] <= 2 &&
	    m->v[RVT_F_RDATA] >> rbits) {
		snprintf(d->detail, sizeof(d->detail), "RDATA 0x%" PRIx64 " of a "
			 "ResourceFull message is wider than the specification's "
			 "%u bits", m->v[RVT_F_RDATA], rbits);
		return RVT_FAIL;
	}
	return 0;
}

static int handle(struct rvt_dec *d, const struct rvt_msg *m)
{
	struct rvt_hart *h = hart_for(d, (uint32_t)m->v[RVT_F_SRC]);
	int err;

	if (!h)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	d->offset = m->offset;
	if (!m->known) {
		if (!d->vendor_warned && d->warn) {
			char msg[160];
			snprintf(msg, sizeof(msg), "N-Trace message with TCODE %u "
				 "(%s) at offset %" PRIu64 " ignored", m->tcode,
				 rvt_tcode_name(m->tcode), m->offset);
			d->warn(d->warn_arg, msg);
		}
		d->vendor_warned = true;
		return 0;
	}
	set_time(d, h, m);
	if (over_limit(d, m)) {
		if (!h->synced) {
			skip(h, m);
			return 0;
		}
		return lose_sync(d, h, RVT_FAIL);
	}
	if (rvt_tcode_is_sync(m->tcode))
		return sync_msg(d, h, m);
	if (m->tcode == RVT_TC_ERROR)
		return error_msg(d, h, m);
	if (m->tcode == RVT_TC_OWNERSHIP)
		return ownership(d, h, m);
	if (!h->synced) {
		skip(h, m);
		return 0;
	}
	err = flow_msg(d, h, m);
	return err > 0 ? lose_sync(d, h, err) : err;
}

/* A gap in the stream itself, of no hart in particular and at no known
 * time: broken framing, the trace's end inside a message. */
static int stream_gap(struct rvt_dec *d, enum hwt_gap_reason reason,
		      uint64_t bytes, const char *detail)
{
	struct rvt_hart *h = d->nharts ? &d->harts[0] : hart_for(d, 0);
	struct hwt_elem e;

	if (!h)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	rvt_elem_init(d, h, &e, HWT_ELEM_GAP);
	/* The hart's time and number are not this gap's: leave out the
	 * values with their bits (a reader that ignores the bits sees no
	 * stale time, and a decode cut elsewhere gives the same element). */
	e.fields &= ~HWT_FIELD_TIME;
	e.time = 0;
	if (d->o.src_bits) {
		e.fields &= ~HWT_FIELD_CPU;
		e.cpu = 0;
	}
	e.fields |= HWT_FIELD_GAP_BYTES;
	e.u.gap.reason = reason;
	e.u.gap.bytes = bytes;
	e.u.gap.detail = detail;
	return rvt_emit(d, &e);
}

/* A frame that breaks the rules: every hart's walk is lost. */
static int bad_frame(struct rvt_dec *d, uint64_t offset, size_t bytes,
		     const char *why)
{
	int err = 0;

	d->offset = offset;
	snprintf(d->detail, sizeof(d->detail), "%s", why);
	for (size_t i = 0; i < d->nharts && err >= 0; i++) {
		struct rvt_hart *h = &d->harts[i];
		if ((err = rvt_range_flush(d, h)) < 0)
			break;
		h->synced = false;
		h->have_last = false;
	}
	return err < 0 ? err : stream_gap(d, HWT_GAP_DECODE_ERROR, bytes,
					  d->detail);
}

static int end_skips(struct rvt_dec *d);

/* One frame at @p (stream offset @off): a message handled, idle bytes
 * passed. *used: bytes taken, 0 when the frame continues past @n. */
static int frame(struct rvt_dec *d, const uint8_t *p, size_t n, uint64_t off,
		 size_t *used)
{
	struct rvt_msg m;
	const char *why = NULL;

	int err = 0;

	switch (rvt_msg_next(p, n, off, &d->o, &m, used, &why)) {
	case RVT_FRAME_MSG:
		/* Where the split op may cut (a sync message after a stop), a
		 * decode cut there ends its skipped bytes with its segment: so
		 * does the whole decode, or the two would count them apart. */
		if (m.known && m.tcode == RVT_TC_PROG_TRACE_SYNC &&
		    !d->not_after_stop)
			err = end_skips(d);
		d->not_after_stop = !m.known ||
				    (m.tcode != RVT_TC_PROG_TRACE_CORRELATION &&
				     m.tcode != RVT_TC_ERROR);
		return err < 0 ? err : handle(d, &m);
	case RVT_FRAME_BAD:
		d->not_after_stop = true;
		return bad_frame(d, off, *used, why);
	default:
		return 0;
	}
}

static int end_skips(struct rvt_dec *d)
{
	int err = 0;

	for (size_t i = 0; i < d->nharts && err >= 0; i++)
		err = end_skip(d, &d->harts[i]);
	return err;
}

int rvt_dec_feed(struct rvt_dec *d, const struct hwt_aux_chunk *c)
{
	size_t i = 0, used;
	int err = 0;

	d->cpu = c->cpu;
	d->tid = c->tid;
	if (d->npend) {
		/* The rest of the message the last chunk ended inside. */
		size_t take = sizeof(d->pend) - d->npend;
		if (take > c->size)
			take = (size_t)c->size;
		if (take)
			memcpy(d->pend + d->npend, c->data, take);
		err = frame(d, d->pend, d->npend + take, d->pend_off, &used);
		if (err < 0)
			return err;
		if (!used) {
			d->npend += take;
			i = (size_t)c->size;
		} else {
			i = used - d->npend;
			d->npend = 0;
		}
	}
	while (i < c->size) {
		err = frame(d, c->data + i, (size_t)(c->size - i), c->offset + i,
			    &used);
		if (err < 0)
			return err;
		if (!used) {
			d->pend_off = c->offset + i;
			d->npend = (size_t)(c->size - i);
			memcpy(d->pend, c->data + i, d->npend);
			break;
		}
		i += used;
	}
	if (d->npend && c->final && d->capture &&
	    rvt_perf_padding(d->pend, d->npend, d->pend_off + d->npend))
		d->npend = 0;
	if (d->npend && c->final) {
		d->offset = d->pend_off;
		err = stream_gap(d, HWT_GAP_TRUNCATED, d->npend,
				 "the trace ends inside a message");
		d->npend = 0;
		if (err < 0)
			return err;
	}
	return end_skips(d);
}
