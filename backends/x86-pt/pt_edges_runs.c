/* The cached TNT runs of Intel PT's `decode --edges`: a short TNT
 * packet met at an address is walked once (pt_edges_tnt_short) and kept
 * as the edges its bits take, the return addresses it checks and pushes,
 * and where it leads; a repeat of the pattern is then one lookup and a
 * count (libxdc's scheme). Runs sit in rows of 128 slots, one per packet
 * byte, and each keeps the row of the address it ends at, so that a
 * loop's runs follow one another without a hash. pt_edges_tnt_replay is
 * most of a trace's time: its state lives in locals in a function of its
 * own so that it stays in registers. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_edges_internal.h"

/* Replays the cached runs of the short TNT packets from @off on, while
 * each is cached and fits the return stack as when it was recorded;
 * returns the offset of the first packet it did not take. The walk's
 * state is kept in locals for the loop (its own function, so that they
 * stay in registers): most of a trace is this loop. */
__attribute__((noinline)) uint64_t
pt_edges_tnt_replay(struct pt_edges *e, const uint8_t *data, uint64_t off,
		    uint64_t size)
{
	uint64_t ip = e->ip;
	struct run *row = run_row(e->runs, ip);
	unsigned int rtop = e->rtop, rn = e->rn;
	const unsigned int mode = e->mode;
	uint64_t *ret = e->ret;
	for (; off < size; off++) {
		unsigned int tnt = data[off];
		if (!tnt)
			break; /* PAD; other bytes that are no short TNT
				* packet match no run's key */
		struct run *r = row + (tnt >> 1);
		if (r->ip != ip || r->key != run_key(tnt, mode))
			break;
		unsigned int npop = r->npop, npush = r->npush;
		if (__builtin_expect(rn - r->rn_lo <= r->rn_span, 1)) {
			/* Without a branch on the counts, which vary from
			 * run to run: two returns checked (those past npop
			 * masked off), two pushes written (the slots past
			 * the top are free: rn_span keeps rn - npop + 2
			 * within the stack). */
			uint64_t m0 = -(uint64_t)(npop >= 1),
				 m1 = -(uint64_t)(npop >= 2);
			uint64_t t0 = ret[rtop & (RETSTACK - 1)],
				 t1 = ret[(rtop - 1) & (RETSTACK - 1)];
			if (((t0 ^ r->popv[0]) & m0) | ((t1 ^ r->popv[1]) & m1))
				break;
			rtop -= npop;
			ret[(rtop + 1) & (RETSTACK - 1)] = r->push[0];
			ret[(rtop + 2) & (RETSTACK - 1)] = r->push[1];
			rtop += npush;
		} else {
			/* Replayed only where its pushes drop nothing from
			 * the stack, as when it was recorded; its returns to
			 * addresses pushed before it go where the stack says
			 * now. */
			if (rn + r->depth > RETSTACK || rn < npop)
				break;
			for (unsigned int i = 0; i < npop; i++)
				if (ret[(rtop - i) & (RETSTACK - 1)] != r->popv[i])
					goto out;
			rtop -= npop;
			for (unsigned int i = 0; i < npush; i++) {
				rtop = (rtop + 1) & (RETSTACK - 1);
				ret[rtop] = r->push[i];
			}
		}
		rn += npush - npop;
		run_count(e, r);
		ip = r->end;
		row = r->end_row;
	}
out:
	e->ip = ip;
	e->rtop = rtop & (RETSTACK - 1);
	e->rn = rn;
	return off;
}

/* The bits of a short TNT packet (byte @tnt) that has no cached run
 * (pt_edges_tnt_replay) here: walked, and cached when it can be. */
bool pt_edges_tnt_short(struct pt_edges *e, uint8_t tnt)
{
	uint64_t ip = e->ip;
	struct run *r = run_row(e->runs, ip) + (tnt >> 1);
	if (r->count)
		run_flush(e, r); /* the walk may record a new run here */
	int top = 31 - __builtin_clz(tnt); /* the stop bit */
	/* Cacheable unless a compressed return pops an address pushed
	 * before the run, or the stack overflows during it. */
	e->recording = true;
	e->nrec = 0;
	e->nown = e->maxown = e->nfpop = 0;
	e->own_lost = false;
	unsigned int rn0 = e->rn;
	for (int bit = top - 1; bit >= 1; bit--) {
		bool cond;
		if (!tnt_bit(e, (tnt >> bit) & 1, &cond)) {
			e->recording = false;
			return false;
		}
	}
	e->recording = false;
	size_t nedges = e->nrec;
	unsigned int npush = e->nown;
	if (e->own_lost || rn0 + e->maxown > RETSTACK ||
	    nedges > BB_MAX_EDGES * 2 || npush > RUN_PUSH || e->nomem)
		return true;
	r->ip = ip;
	r->key = run_key(tnt, e->mode);
	r->end = e->ip;
	r->end_row = run_row(e->runs, e->ip);
	r->nedges = (uint8_t)nedges;
	memcpy(r->edges, e->rec, nedges * sizeof(*r->edges));
	r->npush = (uint8_t)npush;
	r->depth = (uint8_t)e->maxown;
	r->npop = (uint8_t)e->nfpop;
	memcpy(r->popv, e->fpop, e->nfpop * sizeof(*r->popv));
	memcpy(r->push, e->own, npush * sizeof(*r->push));
	/* The branchless replay pops up to 2 and writes 2 pushes above
	 * what is left: at least npop held, and at most 64 - depth (no
	 * push dropped) and 62 (two free slots). */
	unsigned int hi = RETSTACK - r->depth < RETSTACK - 2 ? RETSTACK - r->depth
							     : RETSTACK - 2;
	bool small = npush <= 2 && r->npop <= 2 && r->npop <= hi;
	r->rn_lo = small ? r->npop : 255;
	r->rn_span = small ? (uint8_t)(hi - r->npop) : 0;
	return true;
}
