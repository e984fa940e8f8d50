/* The code walk of Intel PT's `decode --edges`: the instructions from
 * an address to the next one that needs trace (a conditional branch, an
 * indirect branch, a return, a far branch), read from the image and
 * decoded once per start address and cached as a block of direct-branch
 * edges (bb_build); a TIP's target taken from the block it ends; and
 * the walk to an asynchronous event's or a trace disable's IP, cached by
 * its start and end (pt_edges_walk_to). What the walk takes goes into
 * delta (pt_edges_delta.c). */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_edges_internal.h"

static struct hwt_insn_decoder *insn_decoder(struct pt_edges *e)
{
	int k = e->mode == ptem_64bit ? 0 : e->mode == ptem_32bit ? 1 : 2;
	if (!e->insn[k]) {
		enum hwt_isa isa = k == 0 ? HWT_ISA_X86_64 : k == 1 ? HWT_ISA_X86_32
							       : HWT_ISA_X86_16;
		if (hwt_insn_decoder_new(isa, &e->insn[k]) < 0)
			return NULL;
	}
	return e->insn[k];
}

/* The class as libipt sees it: VMLAUNCH, VMRESUME and VMCALL (0f 01
 * c1..c3), ordinary instructions to Capstone, are far branches. */
static enum hwt_insn_class iclass_of(const struct hwt_insn *in,
				     const uint8_t *code)
{
	if (in->iclass == HWT_INSN_OTHER && in->size == 3 && code[0] == 0x0f &&
	    code[1] == 0x01 && code[2] >= 0xc1 && code[2] <= 0xc3)
		return HWT_INSN_FAR;
	return in->iclass;
}

/* Walks the code from @ip to the next instruction that needs trace. */
static void bb_build(struct pt_edges *e, struct bb *b, uint64_t ip)
{
	memset(b, 0, sizeof(*b));
	b->ip = ip;
	b->mode = e->mode;
	b->end = BB_FAIL;
	b->tip_edge = -1;
	struct hwt_insn_decoder *dec = insn_decoder(e);
	if (!dec || (e->mode != ptem_64bit && e->mode != ptem_32bit &&
		     e->mode != ptem_16bit))
		return;
	for (int n = 0; n < WALK_LIMIT; n++) {
		uint8_t code[HWT_INSN_MAX_SIZE];
		struct hwt_insn in;
		int got = hwt_image_read(e->image, e->pid, ip, code, 15);
		if (got <= 0 || hwt_insn_decode(dec, code, (size_t)got, ip, &in) < 0)
			return;
		uint64_t next = ip + in.size;
		in.iclass = iclass_of(&in, code);
		switch (in.iclass) {
		case HWT_INSN_OTHER:
			ip = next;
			continue;
		case HWT_INSN_CALL:
		case HWT_INSN_JUMP:
			if (!in.has_target)
				goto indirect;
			if (b->nedges == BB_MAX_EDGES) {
				b->end = BB_MORE;
				b->next = ip;
				return;
			}
			if (in.iclass == HWT_INSN_CALL)
				b->push[b->npush++] = next;
			/* A jump to the next instruction is no taken branch
			 * (the block decoder shows none). */
			if (in.target != next) {
				int64_t i = pt_edges_edge_index(e, ip, in.target);
				if (i < 0)
					return;
				b->edges[b->nedges++] = (uint32_t)i;
			}
			ip = in.target;
			continue;
		case HWT_INSN_COND: {
			b->end = BB_COND;
			b->at = ip;
			b->next = next;
			b->target = in.target;
			b->taken = -1;
			if (in.has_target && in.target != next)
				b->taken = pt_edges_edge_index(e, ip, in.target);
			if (!in.has_target || (in.target != next && b->taken < 0))
				b->end = BB_FAIL;
			return;
		}
		case HWT_INSN_RETURN:
			b->end = BB_RET;
			b->at = ip;
			b->next = next;
			return;
		default:
		indirect:
			b->end = BB_IND;
			b->at = ip;
			b->next = next;
			b->push_next = in.iclass == HWT_INSN_CALL ||
				       in.iclass == HWT_INSN_CALL_IND;
			return;
		}
	}
}

static inline struct bb *bb_at(struct pt_edges *e, uint64_t ip)
{
	struct bb *b = &e->bbs[(ip ^ (ip >> 16)) & (BB_SLOTS - 1)];
	if (b->end == BB_NONE || b->ip != ip || b->mode != e->mode)
		bb_build(e, b, ip);
	return b;
}

/* Takes a block's direct branches; returns the block that needs trace
 * (or cannot be walked). */
struct bb *pt_edges_walk(struct pt_edges *e)
{
	for (int hops = 0; hops < WALK_LIMIT; hops++) {
		struct bb *b = bb_at(e, e->ip);
		for (unsigned i = 0; i < b->nedges; i++)
			take(e, b->edges[i]);
		for (unsigned i = 0; i < b->npush; i++)
			push(e, b->push[i]);
		if (b->end != BB_MORE)
			return b;
		e->ip = b->next;
	}
	return NULL;
}

/* A TIP's target for the branch the walk reaches. */
bool pt_edges_tip(struct pt_edges *e, uint64_t to)
{
	struct bb *b = pt_edges_walk(e);
	if (!b || (b->end != BB_IND && b->end != BB_RET))
		return false;
	if (b->push_next)
		push(e, b->next);
	return go(e, b, to);
}

/* Walks from the walk's address to @to through instructions that need no
 * trace (the direct branches on the way are taken): where an
 * asynchronous event (FUP) struck, or tracing stopped. False when a
 * branch that needs trace comes first. A walk that arrives is cached by
 * its start and end, as the blocks are: a real trace stops and starts
 * again at the same few places thousands of times (each walk read and
 * decoded every instruction again, most of --edges' time on a qemu
 * trace). */
bool pt_edges_walk_to(struct pt_edges *e, uint64_t to)
{
	uint64_t ip = e->ip;
	struct walk *w = &e->walks[((ip ^ (to << 1)) * 0x9e3779b97f4a7c15ull) >> 52];
	if (w->used && w->ip == ip && w->to == to && w->mode == e->mode) {
		for (unsigned i = 0; i < w->nedges; i++)
			take(e, w->edges[i]);
		for (unsigned i = 0; i < w->npush; i++)
			push(e, w->push[i]);
		e->ip = to;
		return true;
	}
	struct hwt_insn_decoder *dec = insn_decoder(e);
	struct walk got = {.ip = ip, .to = to, .mode = e->mode, .used = true};
	bool keep = true; /* it fits a cache slot */
	for (int n = 0; ip != to; n++) {
		uint8_t code[HWT_INSN_MAX_SIZE];
		struct hwt_insn in;
		int len = dec ? hwt_image_read(e->image, e->pid, ip, code, 15) : 0;
		if (n == WALK_LIMIT || len <= 0 ||
		    hwt_insn_decode(dec, code, (size_t)len, ip, &in) < 0)
			return false;
		uint64_t next = ip + in.size;
		in.iclass = iclass_of(&in, code);
		if (in.iclass == HWT_INSN_OTHER) {
			ip = next;
			continue;
		}
		if ((in.iclass != HWT_INSN_CALL && in.iclass != HWT_INSN_JUMP) ||
		    !in.has_target)
			return false;
		if (in.iclass == HWT_INSN_CALL) {
			push(e, next);
			if (got.npush < BB_MAX_EDGES)
				got.push[got.npush++] = next;
			else
				keep = false;
		}
		if (in.target != next) {
			int64_t i = pt_edges_edge_index(e, ip, in.target);
			if (i < 0)
				return false;
			take(e, (uint32_t)i);
			if (got.nedges < BB_MAX_EDGES)
				got.edges[got.nedges++] = (uint32_t)i;
			else
				keep = false;
		}
		ip = in.target;
	}
	if (keep)
		*w = got;
	e->ip = ip;
	return true;
}
