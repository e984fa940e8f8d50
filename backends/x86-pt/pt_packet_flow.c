/* The packet-only flow: what the packets between a lost walk and the next
 * sync point say without the code (DESIGN.md §3, docs/decode.md "Without
 * the binaries").
 *
 * Where libipt's block decoder stops for want of code (pte_nomap), TNT
 * bits mean nothing, but the packets that carry an IP still say where the
 * flow was. This reads them as perf's decoder does once its walk failed,
 * so that the same branches come out:
 *
 *  - lost: the place in the code is unknown. The first IP packet whose
 *    IP can be read gives it: a TIP is an indirect branch whose target is
 *    known and whose source is not (HWT_FIELD_NO_FROM), a TIP.PGE is
 *    trace on, a TIP.PGD trace off, a FUP the flow is at its IP again
 *    (trace on). The walk would go on from there, and fails at once: the
 *    next packet that needs the code (TNT, TIP, a FUP elsewhere) is read
 *    over and the flow is lost again.
 *  - at IP: a FUP at that very IP needs no code, so a FUP and the TIP
 *    after it are an asynchronous branch (an interrupt) from the FUP to
 *    the TIP, and a FUP and a TIP.PGD the trace going off there.
 *
 * Like perf, a lost walk forgets the last IP that compressed IPs build
 * on until a packet carries a full one: the bytes in between are not
 * trusted to be the ones the walk last read. */
#include <stdbool.h>
#include <stdint.h>

#include "backends/x86-pt/pt_decode.h"

enum flow_state {
	FLOW_LOST,   /* where the code runs is unknown */
	FLOW_AT_IP,  /* it is at flow.ip, and nothing since needed code */
	FLOW_AT_FUP, /* a FUP at flow.ip waits for its TIP or TIP.PGD */
};

struct flow {
	struct pt_dec *d;
	uint64_t chunk_offset;
	enum flow_state state;
	uint64_t ip;
	/* The IP compressed IPs build on, and whether it is trusted. */
	uint64_t last_ip;
	bool have_last_ip;
	bool tracing; /* off after a TIP.PGD until the next TIP.PGE */
};

/* The IP of an IP packet, from the last one (Intel SDM, "IP
 * Compression"); false when it is suppressed or cannot be rebuilt. */
static bool packet_ip(struct flow *f, const struct pt_packet_ip *p,
		      uint64_t *ip)
{
	uint64_t v = p->ip;
	switch (p->ipc) {
	case pt_ipc_sext_48:
		v &= 0xffffffffffffull;
		if (v & 0x800000000000ull)
			v |= 0xffff000000000000ull;
		break;
	case pt_ipc_full:
		break;
	case pt_ipc_update_16:
		v = (f->last_ip & ~0xffffull) | (v & 0xffffull);
		break;
	case pt_ipc_update_32:
		v = (f->last_ip & ~0xffffffffull) | (v & 0xffffffffull);
		break;
	case pt_ipc_update_48:
		v = (f->last_ip & ~0xffffffffffffull) | (v & 0xffffffffffffull);
		break;
	case pt_ipc_suppressed:
	default:
		return false;
	}
	bool needs_last = p->ipc != pt_ipc_sext_48 && p->ipc != pt_ipc_full;
	if (needs_last && !f->have_last_ip)
		return false;
	f->last_ip = v;
	f->have_last_ip = true;
	*ip = v;
	return true;
}

static void emit_at(struct flow *f, enum hwt_elem_type type, uint64_t ip,
		    uint64_t offset)
{
	struct hwt_elem e;
	hwt_elem_clear(&e, type);
	e.fields = HWT_FIELD_OFFSET | HWT_FIELD_AT;
	e.trace_offset = f->chunk_offset + offset;
	e.u.trace.at = ip;
	pt_emit(f->d, &e);
}

/* A branch to @to; from @from with @kind, or from where the trace does
 * not say (@from_known false: neither source nor kind is known). */
static void emit_branch_to(struct flow *f, bool from_known, uint64_t from,
			   enum hwt_branch_kind kind, uint64_t to,
			   uint64_t offset)
{
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_BRANCH);
	e.fields = HWT_FIELD_OFFSET;
	if (!from_known)
		e.fields |= HWT_FIELD_NO_FROM | HWT_FIELD_NO_KIND;
	e.trace_offset = f->chunk_offset + offset;
	e.u.branch.from = from_known ? from : 0;
	e.u.branch.to = to;
	e.u.branch.kind = kind;
	pt_emit(f->d, &e);
}

/* The flow is lost: the walk needed code it does not have. */
static void lose(struct flow *f)
{
	f->state = FLOW_LOST;
	f->have_last_ip = false;
}

static void at_ip(struct flow *f, uint64_t ip)
{
	f->state = FLOW_AT_IP;
	f->ip = ip;
}

/* An IP packet while the flow is lost. */
static void find_ip(struct flow *f, const struct pt_packet *p, uint64_t offset)
{
	uint64_t ip;
	if (!packet_ip(f, &p->payload.ip, &ip) || !ip)
		return;
	switch (p->type) {
	case ppt_tip:
		f->tracing = true;
		emit_branch_to(f, false, 0, HWT_BRANCH_INDIRECT, ip, offset);
		at_ip(f, ip);
		break;
	case ppt_tip_pge:
		f->tracing = true;
		emit_at(f, HWT_ELEM_TRACE_ON, ip, offset);
		at_ip(f, ip);
		break;
	case ppt_tip_pgd:
		f->tracing = false;
		emit_at(f, HWT_ELEM_TRACE_OFF, ip, offset);
		lose(f);
		break;
	case ppt_fup:
		emit_at(f, HWT_ELEM_TRACE_ON, ip, offset);
		at_ip(f, ip);
		break;
	default:
		break;
	}
}

/* An IP packet or TNT while the flow is at f->ip (or a FUP there). */
static void follow(struct flow *f, const struct pt_packet *p, uint64_t offset)
{
	uint64_t ip = 0;
	bool have_ip = p->type != ppt_tnt_8 && p->type != ppt_tnt_64 &&
		       packet_ip(f, &p->payload.ip, &ip);
	if (f->state == FLOW_AT_FUP) {
		uint64_t fup = f->ip;
		if (p->type == ppt_tip && have_ip) {
			emit_branch_to(f, true, fup, HWT_BRANCH_INTERRUPT, ip,
				       offset);
			at_ip(f, ip);
			return;
		}
		if (p->type == ppt_tip_pgd) {
			f->tracing = false;
			emit_at(f, HWT_ELEM_TRACE_OFF, fup, offset);
			lose(f);
			return;
		}
	} else if (p->type == ppt_fup && have_ip && ip == f->ip) {
		f->state = FLOW_AT_FUP;
		return;
	} else if (p->type == ppt_tip_pge && !f->tracing && have_ip) {
		f->tracing = true;
		emit_at(f, HWT_ELEM_TRACE_ON, ip, offset);
		at_ip(f, ip);
		return;
	}
	/* Anything else is the walk's to follow, through code it lacks. */
	lose(f);
}

static bool is_flow_packet(enum pt_packet_type t)
{
	return t == ppt_tip || t == ppt_tip_pge || t == ppt_tip_pgd ||
	       t == ppt_fup || t == ppt_tnt_8 || t == ppt_tnt_64;
}

void pt_packet_flow(struct pt_dec *d, const struct pt_config *config,
		    uint64_t chunk_offset, uint64_t synced_at, uint64_t from,
		    uint64_t to, uint64_t lost_ip)
{
	struct pt_packet_decoder *pkt = pt_pkt_alloc_decoder(config);
	if (!pkt)
		return;
	struct flow f = {
		.d = d,
		.chunk_offset = chunk_offset,
		.state = FLOW_LOST,
		.tracing = true,
	};
	/* From the sync point, for the last IP and time where the walk
	 * stopped. */
	if (pt_pkt_sync_set(pkt, synced_at) < 0)
		goto out;
	bool started = false;
	for (;;) {
		uint64_t offset;
		if (pt_pkt_get_offset(pkt, &offset) < 0 || offset >= to)
			break;
		if (!started && offset >= from) {
			started = true;
			/* The walk stopped there, at an IP it could not
			 * read: a FUP at that IP needs no code. */
			if (lost_ip && f.have_last_ip)
				at_ip(&f, lost_ip);
		}
		struct pt_packet p;
		if (pt_pkt_next(pkt, &p, sizeof(p)) < 0)
			break;
		if (p.type == ppt_psb) {
			/* Compressed IPs start again from zero. */
			f.last_ip = 0;
			f.have_last_ip = true;
			continue;
		}
		if (p.type == ppt_ovf) {
			lose(&f);
			continue;
		}
		if (p.type == ppt_tsc) {
			/* Before the stop the walk has set the time. */
			if (started)
				pt_set_time(d, p.payload.tsc.tsc);
			continue;
		}
		if (!is_flow_packet(p.type))
			continue;
		if (!started) {
			uint64_t ip;
			if (p.type != ppt_tnt_8 && p.type != ppt_tnt_64)
				packet_ip(&f, &p.payload.ip, &ip);
			continue;
		}
		if (f.state == FLOW_LOST) {
			if (p.type != ppt_tnt_8 && p.type != ppt_tnt_64)
				find_ip(&f, &p, offset);
		} else {
			follow(&f, &p, offset);
		}
	}
out:
	pt_pkt_free_decoder(pkt);
}
