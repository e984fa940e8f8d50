/* Intel PT's fast path: the block decoder's work, done with libipt's query
 * decoder and a table of the code's blocks.
 *
 * libipt's block decoder spends most of its time walking the code: from a
 * block's start through the instructions that need no trace to the one
 * that does (a conditional branch, an indirect branch, a return), in its
 * block cache or by decoding them. Here that walk is done once per start
 * address and kept: a block's length, its last instruction, a conditional
 * branch's target and the return addresses its direct calls push. Each
 * block then costs a table look-up and the query of its last instruction,
 * and goes through the same steps as a block of libipt's block decoder
 * (pt_on_block, pt_on_event), so the elements are the same.
 *
 * The same queries are made in the same order as the block decoder makes
 * them, so the query decoder reads the trace as far, and the time after
 * each block is the one it gives. Events are taken where the block
 * decoder takes them: the first one fetched right after the block whose
 * query announced it, each next one fetched before the one before is
 * handed on, and a block walked to an event's IP when the event does not
 * bind where the decode stands.
 *
 * Only what is common is done here: 64-bit code; near and far branches;
 * PSB+ status updates (the PIP of a traced kernel among them), core:bus
 * ratios, tracing turned off and on (TIP.PGD, TIP.PGE, FUP and TIP.PGD),
 * interrupts (FUP and TIP, with or without a PIP), PIPs bound to a MOV
 * CR3 or a far branch, overflows, and the tick events libipt makes for
 * code that changes over time (pt_decoder.c). At anything else (a decode
 * error, a PIP bound to VMLAUNCH or VMRESUME, VMCS, TSX, PTWRITE, a power
 * event, another mode, an erratum's workaround that moves an event) the
 * chunk is given up, and the block decoder decodes it again from its
 * start, dropping the elements already sent (pt_dec_chunk): the output
 * is the block decoder's. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_fast.h"
#include "hwtrace/error.h"

/* Instructions walked to an event's IP before giving up. */
#define WALK_MAX 4096
/* Blocks between progress reports (as the block decoder's loop). */
#define PROGRESS_EVERY 8192

int pt_fast_default = 1;
atomic_ullong pt_fast_done, pt_fast_given_up;

/* The decode of one chunk. */
struct run {
	struct pt_dec *d;
	struct pt_fast *f;
	struct pt_query_decoder *q;
	int status;    /* the query decoder's last status */
	uint64_t ip;   /* where the next block starts */
	int mode;      /* enum pt_exec_mode; ptem_unknown before a MODE */
	bool enabled;  /* tracing is on */
	/* Code that changes over time: the block decoder makes a tick event
	 * at a query that finds the time moved since its last event's. */
	bool ticks;
	uint64_t ev_tsc; /* the last event's time */
	/* A walk to a PIP's place ended at a far branch, whose TIP is
	 * asked after the event (walk_to). */
	bool far_next;
	unsigned int blocks;
};

enum { GO_ON = 0, CHUNK_DONE = 2 };

/* Where the block decoder walks to before it hands on an event. */
struct bind {
	bool here;       /* nowhere: it binds where the decode stands */
	bool to_ip;      /* to @at, else to where trace is needed */
	uint64_t at;
	/* The instruction that needs trace on the way ends the walk, in
	 * the block (a disable binds there); else the fast path gives up. */
	bool at_trace;
	/* To the next MOV CR3 or far branch, in the block (a PIP binds
	 * there). */
	bool to_pip;
};

/* Whether @in moves to CR3 (0f 22 /3), where a PIP binds, and where a
 * disable without an IP would bind. */
static bool moves_to_cr3(const struct pt_insn *in)
{
	for (unsigned int i = 0; i + 2 < in->size; i++)
		if (in->raw[i] == 0x0f && in->raw[i + 1] == 0x22)
			return ((in->raw[i + 2] >> 3) & 7) == 3;
	return false;
}

/* Whether @in is VMLAUNCH or VMRESUME (0f 01 c2/c3), where a PIP would
 * bind too, and SKD022's workaround moves a disable. */
static bool is_vmentry(const struct pt_insn *in)
{
	return in->size == 3 && in->raw[0] == 0x0f && in->raw[1] == 0x01 &&
	       (in->raw[2] == 0xc2 || in->raw[2] == 0xc3);
}

static bool is_far_branch(enum pt_insn_class c)
{
	return c == ptic_far_call || c == ptic_far_return || c == ptic_far_jump;
}

/* The block from r->ip the block decoder walks without trace to an
 * event's place (@bd); its calls push their return addresses. Returns its
 * instructions (0 when it is empty), or -1 when the fast path cannot
 * take it. A walk to a PIP's far branch sets r->far_next: the branch is
 * taken (its TIP asked) once the event is handed on. */
static int walk_to(struct run *r, const struct bind *bd, struct pt_block *b)
{
	memset(b, 0, sizeof(*b));
	b->ip = r->ip;
	b->mode = (enum pt_exec_mode)r->mode;
	if (bd->to_ip && r->ip == bd->at)
		return 0;
	if (r->mode != ptem_64bit)
		return -1;
	struct pt_dec *d = r->d;
	int status = pt_shapes_walk_start(d->shapes, r->ip,
					  (enum pt_exec_mode)r->mode, d->img);
	uint64_t ip = r->ip;
	for (unsigned int n = 0; !bd->to_ip || ip != bd->at; n++) {
		struct pt_insn in = {.size = 0};
		if (status < 0 || n == WALK_MAX)
			return -1;
		status = pt_shapes_walk_next(d->shapes, status, &in);
		if (!in.size || in.truncated ||
		    (bd->to_pip ? is_vmentry(&in) : moves_to_cr3(&in)))
			return -1;
		if (!n)
			b->isid = in.isid;
		else if (in.isid != b->isid)
			return -1;
		b->ninsn++;
		b->end_ip = in.ip;
		b->iclass = in.iclass;
		uint64_t to = in.ip + in.size;
		if (bd->to_pip && moves_to_cr3(&in)) {
			r->ip = to;
			return b->ninsn;
		}
		if (bd->to_pip && status < 0) {
			/* Only a far branch: other branches on the way
			 * would need trace before the PIP's place. */
			if (!is_far_branch(in.iclass))
				return -1;
			r->far_next = true;
			return b->ninsn;
		}
		if (status < 0) {
			/* It needs trace (a branch does), or the walker
			 * failed. */
			if (!bd->at_trace || in.iclass == ptic_other ||
			    in.iclass == ptic_ptwrite || in.iclass == ptic_error)
				return -1;
			if (in.iclass == ptic_call)
				ret_push(r->f, in.ip + in.size);
			return b->ninsn;
		}
		if (in.iclass == ptic_call || in.iclass == ptic_jump) {
			if (!pt_fast_rel_target(&in, &to))
				return -1;
			if (in.iclass == ptic_call && to != in.ip + in.size)
				ret_push(r->f, in.ip + in.size);
		}
		ip = to;
	}
	r->ip = bd->at;
	return b->ninsn;
}

/* Whether the instruction at @ip is VMLAUNCH or VMRESUME. */
static bool at_vmentry(const struct run *r, uint64_t ip)
{
	struct pt_dec *d = r->d;
	struct pt_insn in = {.size = 0};
	int status = pt_shapes_walk_start(d->shapes, ip,
					  (enum pt_exec_mode)r->mode, d->img);
	if (status >= 0)
		pt_shapes_walk_next(d->shapes, status, &in);
	return is_vmentry(&in);
}

/* Where the block decoder hands @ev on (@bd), as its trailing events
 * and its event flow decide; false for an event the fast path does not
 * take, or one the block decoder would fail on (checked before anything
 * is sent for it). */
static bool event_binds(const struct run *r, const struct pt_event *ev,
			struct bind *bd)
{
	*bd = (struct bind){.here = true};
	uint64_t at;
	switch (ev->type) {
	case ptev_cbr:
	case ptev_overflow:
	case ptev_tick:
		return true;
	case ptev_enabled:
		return !r->enabled && !ev->ip_suppressed;
	case ptev_disabled:
		/* At the branch that leaves the traced code: the next one
		 * that needs trace, or the one that goes to its IP. */
		bd->here = false;
		bd->to_ip = !ev->ip_suppressed;
		bd->at = ev->variant.disabled.ip;
		bd->at_trace = true;
		/* With address filters, SKL014's workaround may bind a
		 * disable without an IP to a direct branch. */
		return r->enabled &&
		       !(ev->ip_suppressed && r->d->config.errata.skl014 &&
			 r->d->config.addr_filter.config.addr_cfg);
	case ptev_async_disabled:
		at = ev->variant.async_disabled.at;
		/* SKD022's workaround makes one at VMLAUNCH or VMRESUME a
		 * disable of another kind. */
		if (r->d->config.errata.skd022 && at_vmentry(r, at))
			return false;
		break;
	case ptev_async_branch:
		at = ev->variant.async_branch.from;
		break;
	case ptev_exec_mode:
		if (!ev->status_update ||
		    (r->mode != ptem_unknown &&
		     r->mode != (int)ev->variant.exec_mode.mode))
			return false;
		if (ev->ip_suppressed)
			return true;
		at = ev->variant.exec_mode.ip;
		break;
	case ptev_tsx:
		if (!ev->status_update || ev->variant.tsx.speculative ||
		    ev->variant.tsx.aborted)
			return false;
		if (ev->ip_suppressed)
			return true;
		at = ev->variant.tsx.ip;
		break;
	case ptev_paging:
		/* A PIP alone: with tracing off it binds where the decode
		 * stands; with tracing on, to the next MOV CR3 or far branch
		 * (walked to, which then ends the block). Taking a far
		 * branch after the event asks its TIP: kept simple, with
		 * no tick events to make at that query. */
		if (r->enabled)
			*bd = (struct bind){.to_pip = true};
		return true;
	case ptev_async_paging:
		/* A PSB+'s PIP (libipt makes it a status update at the FUP's
		 * IP, as when the kernel is traced), or one bound to an
		 * interrupt's TIP (at its target). */
		if (ev->ip_suppressed)
			return ev->status_update;
		at = ev->variant.async_paging.ip;
		break;
	default:
		return false;
	}
	if (!r->enabled && ev->type != ptev_exec_mode && ev->type != ptev_tsx)
		return false;
	if (r->ip == at)
		return true;
	/* Walked to, which needs tracing on. */
	*bd = (struct bind){.to_ip = true, .at = at};
	return r->enabled;
}

/* What the block decoder does with an event it hands on (event_binds
 * took it). */
static void apply_event(struct run *r, const struct pt_event *ev)
{
	switch (ev->type) {
	case ptev_exec_mode:
		r->mode = (int)ev->variant.exec_mode.mode;
		break;
	case ptev_enabled:
		r->enabled = true;
		r->ip = ev->variant.enabled.ip;
		break;
	case ptev_disabled:
	case ptev_async_disabled:
		r->enabled = false;
		break;
	case ptev_async_branch:
		r->ip = ev->variant.async_branch.to;
		break;
	case ptev_overflow:
		r->enabled = !ev->ip_suppressed;
		r->ip = ev->ip_suppressed ? 0 : ev->variant.overflow.ip;
		break;
	default:
		break;
	}
}

/* Fetches the next event into @ev, and where it binds into @bd; false
 * when the fast path gives the chunk up (the fetch failed, or the event
 * is not one it takes). */
static bool next_event(struct run *r, struct pt_event *ev, struct bind *bd)
{
	r->status = pt_qry_event(r->q, ev, sizeof(*ev));
	if (r->status < 0 || !event_binds(r, ev, bd))
		return false;
	r->ev_tsc = ev->tsc;
	return true;
}

/* Hands on @cur, fetched and taken (event_binds gave @bd), and the
 * events after it, as the block decoder and its loop in pt_decode_blk.c
 * do. Returns GO_ON, CHUNK_DONE (the segment's end, or the sink's error)
 * or PT_FAST_GAVE_UP. */
static int deliver(struct run *r, struct pt_event *cur, struct bind bd)
{
	struct pt_dec *d = r->d;
	for (;;) {
		if (!bd.here) {
			/* The loop has no event in hand: it stops at the
			 * segment's end, or asks for the next block, which
			 * the block decoder walks to the event's IP. */
			if (d->seg_over)
				return CHUNK_DONE;
			struct pt_block b;
			int n = walk_to(r, &bd, &b);
			/* A far branch taken after the event: its TIP is
			 * asked with no other event before it, and no tick
			 * to make. */
			if (n < 0 || (r->far_next &&
				      (r->ticks || (r->status & pts_event_pending))))
				return PT_FAST_GAVE_UP;
			if (n)
				pt_on_block(d, &b);
			if (d->stop)
				return CHUNK_DONE;
		}
		apply_event(r, cur);
		/* The block decoder fetches the next event before it hands
		 * this one over. */
		struct pt_event next;
		bool more = r->status & pts_event_pending;
		if (more && !next_event(r, &next, &bd))
			return PT_FAST_GAVE_UP;
		pt_on_event(d, cur);
		if (d->stop)
			return CHUNK_DONE;
		if (r->far_next) {
			/* The far branch a PIP bound to (walk_to; no event
			 * was pending): its TIP, then the events its query
			 * announced. */
			r->far_next = false;
			int status = pt_qry_indirect_branch(r->q, &r->ip);
			if (status < 0 || (status & pts_ip_suppressed))
				return PT_FAST_GAVE_UP;
			r->status = status;
			more = status & pts_event_pending;
			if (more && !next_event(r, &next, &bd))
				return PT_FAST_GAVE_UP;
		}
		if (!more)
			break;
		*cur = next;
	}
	return d->seg_over ? CHUNK_DONE : GO_ON;
}

/* The block @b, of shape @sh, ended with a query whose status is
 * r->status: hands it on, with the events its query announced. */
static int after_block(struct run *r, const struct pt_block *b,
		       struct pt_block_shape *sh)
{
	struct pt_dec *d = r->d;
	if (!(r->status & pts_event_pending)) {
		pt_on_shaped_block(d, b, sh);
		return d->stop ? CHUNK_DONE : GO_ON;
	}
	/* The block decoder fetches the first event before it returns
	 * the block: the block's time is the one after it. */
	struct pt_event ev;
	struct bind bd;
	if (!next_event(r, &ev, &bd))
		return PT_FAST_GAVE_UP;
	pt_on_shaped_block(d, b, sh);
	if (d->stop)
		return CHUNK_DONE;
	return deliver(r, &ev, bd);
}

/* As after_block, with tick events: a query that finds the time moved
 * since the last event's makes one, handed on before the events the
 * query announced. */
static __attribute__((noinline)) int
after_block_tick(struct run *r, const struct pt_block *b,
		 struct pt_block_shape *sh)
{
	uint64_t tsc;
	uint32_t lost_mtc, lost_cyc;
	int err = pt_qry_time(r->q, &tsc, &lost_mtc, &lost_cyc);
	if (err < 0 && err != -pte_no_time)
		return PT_FAST_GAVE_UP;
	if (tsc == r->ev_tsc)
		return after_block(r, b, sh);
	struct pt_event tick;
	memset(&tick, 0, sizeof(tick));
	tick.type = ptev_tick;
	tick.variant.tick.ip = b->end_ip;
	tick.has_tsc = err != -pte_no_time;
	tick.tsc = tsc;
	tick.lost_mtc = lost_mtc;
	tick.lost_cyc = lost_cyc;
	r->ev_tsc = tsc;
	pt_on_shaped_block(r->d, b, sh);
	if (r->d->stop)
		return CHUNK_DONE;
	return deliver(r, &tick, (struct bind){.here = true});
}

/* The trace ends: where the last branch went is where the next block
 * would start, known when its first instruction decodes. */
static void trace_ends(struct run *r)
{
	struct pt_dec *d = r->d;
	if (!d->pend)
		return;
	struct fast_block *fb = block_at(d, r->f, r->ip, (unsigned int)r->mode);
	pt_end_pending(d, r->ip, fb->decodable);
}

/* The shape of @fb's block @b (pt_on_block's look-up), found once and
 * then kept by its place in the shapes' table while that holds. */
static inline struct pt_block_shape *shape_of(struct pt_shapes *s,
					      struct fast_block *fb,
					      const struct pt_block *b,
					      struct pt_image *img)
{
	if (fb->shape_gen && fb->shape_gen == s->gen + 1)
		return &s->slot[fb->shape_slot];
	struct pt_block_shape *sh = pt_shape_of(s, b, img);
	if (sh != &s->scratch) {
		fb->shape_gen = s->gen + 1;
		fb->shape_slot = (uint32_t)(sh - s->slot);
	}
	return sh;
}

/* One block: its query, and what follows it. */
static inline int next_block(struct run *r)
{
	struct pt_fast *f = r->f;
	struct fast_block *fb = block_at(r->d, f, r->ip, (unsigned int)r->mode);
	if (fb->end == FB_NO)
		return PT_FAST_GAVE_UP;
	for (unsigned int i = 0; i < fb->npush; i++)
		ret_push(f, f->push[fb->first_push + i]);
	uint64_t next;
	int status, taken;
	switch (fb->end) {
	case FB_COND:
		status = pt_qry_cond_branch(r->q, &taken);
		next = taken ? fb->next : fb->end_ip + fb->len;
		break;
	case FB_RET:
		status = pt_qry_cond_branch(r->q, &taken);
		if (status >= 0) {
			/* A compressed return. */
			if (!taken || !ret_pop(f, &next))
				return PT_FAST_GAVE_UP;
		} else if (status == -pte_bad_query) {
			status = pt_qry_indirect_branch(r->q, &next);
		}
		break;
	case FB_CALL:
		ret_push(f, fb->end_ip + fb->len);
		status = pt_qry_indirect_branch(r->q, &next);
		break;
	case FB_JUMP:
	case FB_FAR:
		status = pt_qry_indirect_branch(r->q, &next);
		break;
	default: /* FB_ON */
		status = r->status;
		next = fb->next;
		break;
	}
	if (status < 0 || (status & pts_ip_suppressed))
		return PT_FAST_GAVE_UP;
	r->status = status;
	struct pt_block b = {
		.ip = r->ip, .end_ip = fb->end_ip, .isid = fb->isid,
		.mode = (enum pt_exec_mode)fb->mode,
		.iclass = (enum pt_insn_class)fb->iclass, .ninsn = fb->ninsn,
	};
	r->ip = next;
	struct pt_block_shape *sh = shape_of(r->d->shapes, fb, &b, r->d->img);
	if (r->ticks && fb->end != FB_ON)
		return after_block_tick(r, &b, sh);
	return after_block(r, &b, sh);
}

static int decode(struct run *r, const struct hwt_aux_chunk *chunk)
{
	struct pt_dec *d = r->d;
	r->status = pt_qry_sync_forward(r->q, &r->ip);
	uint64_t at;
	if (r->status < 0 || pt_qry_get_sync_offset(r->q, &at) < 0)
		return PT_FAST_GAVE_UP;
	r->enabled = !(r->status & pts_ip_suppressed);
	r->f->top = r->f->bottom = 0;
	r->mode = ptem_unknown;
	/* The block decoder fetches the PSB+'s first event as it syncs,
	 * and fails to sync when that fails. */
	struct pt_event ev;
	struct bind bd = {.here = true};
	bool events = r->status & pts_event_pending;
	if (events && !next_event(r, &ev, &bd))
		return PT_FAST_GAVE_UP;
	if (at > 0)
		pt_emit_gap(d, HWT_GAP_NO_SYNC, chunk->offset, at, NULL);
	/* At the next segment's PSB: its decoder goes on from here. */
	if (d->stop || at >= d->seg_end)
		return CHUNK_DONE;
	uint64_t tsc;
	uint32_t lost_mtc, lost_cyc;
	bool timing = pt_qry_time(r->q, &tsc, &lost_mtc, &lost_cyc) >= 0 && tsc;
	d->timing |= timing;
	/* The PSB's time stamp: the code that follows ran then. */
	if (timing && d->timed_image)
		pt_follow(d, pt_tsc_to_time(&d->tc, tsc));
	int done = events ? deliver(r, &ev, bd) : GO_ON;
	while (done == GO_ON) {
		if (r->status & pts_eos) {
			trace_ends(r);
			return CHUNK_DONE;
		}
		/* Tracing off with no event to turn it on: the block
		 * decoder reports an error. */
		if (r->mode != ptem_64bit || !r->enabled)
			return PT_FAST_GAVE_UP;
		done = next_block(r);
		uint64_t off;
		if (d->params.progress && !(++r->blocks % PROGRESS_EVERY) &&
		    pt_qry_get_offset(r->q, &off) >= 0)
			d->params.progress(d->params.progress_arg, off);
	}
	return done;
}

int pt_fast_chunk(struct pt_dec *d, const struct hwt_aux_chunk *chunk,
		  const struct pt_config *config)
{
	struct pt_query_decoder *q = pt_qry_alloc_decoder(config);
	if (!q)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a PT decoder");
	if (!pt_chunk_image(d, chunk)) {
		pt_qry_free_decoder(q);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the PT image");
	}
	d->qry = q;
	struct run r = {.d = d, .f = d->fast, .q = q, .ticks = d->timed_image};
	int done = decode(&r, chunk);
	d->qry = NULL;
	pt_qry_free_decoder(q);
	if (done == PT_FAST_GAVE_UP) {
		atomic_fetch_add_explicit(&pt_fast_given_up, 1,
					  memory_order_relaxed);
		return PT_FAST_GAVE_UP;
	}
	atomic_fetch_add_explicit(&pt_fast_done, 1, memory_order_relaxed);
	pt_release_held(d);
	return d->stop;
}
