/* `decode --edges` for Intel PT: taken-branch edges straight from the
 * packets, without the block decoder.
 *
 * libipt's packet decoder reads the packets (one-byte TNT packets, the
 * bulk of a trace, are read here directly). Code is walked once per start
 * address: a cached block holds the direct jumps and calls from there to
 * the next instruction that needs trace (a conditional branch, an indirect
 * branch, a return, a far branch), as edge indices in the map. A short TNT
 * packet met at a given address is cached too, as the edges its bits take
 * and where they lead, so a repeated pattern costs one lookup (libxdc's
 * scheme): a replay counts itself, its edges added its count times when
 * the edges are read, and the run keeps where the runs of the address it
 * ends at are, so that the next one needs no hash; TIP targets
 * (returns, indirect calls and jumps) are edges like any other, and
 * compressed returns use a return stack as libipt does.
 * The walk to an asynchronous event's or a trace disable's IP is cached
 * by its start and end.
 *
 * What the packet walk does not model (FUP outside PSB+: interrupts and
 * other asynchronous events; TIP.PGE/PGD; overflows; TSX; trace that does
 * not fit the code) is not guessed at: the edges of the chunk since the
 * last commit are dropped and the rest of the chunk goes through the
 * block decoder (pt_dec_chunk), whose branch elements, overflows and
 * errors are counted into the same map. Edges are committed at the end of
 * a chunk, or at a PSB once many are held, so a fallback normally redoes
 * the whole chunk and gives exactly what the block decoder gives.
 *
 * This file holds the op (pt_edges_chunk), the state's life, and the
 * packet loop (fast) with the handlers of the rarer packets it reads
 * itself (TIP.PGD, an asynchronous branch's FUP and TIP). The code walk
 * is pt_edges_walk.c, the cached TNT runs pt_edges_runs.c, the counts
 * held until a commit pt_edges_delta.c; pt_edges_internal.h has the state
 * they share and the hot helpers they inline. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_edges_internal.h"
#include "hwtrace/error.h"

void pt_edges_free(struct pt_edges *e)
{
	if (!e)
		return;
	for (int i = 0; i < 3; i++)
		hwt_insn_decoder_free(e->insn[i]);
	free(e->bbs);
	free(e->runs);
	free(e->walks);
	free(e->counted);
	free(e->delta);
	free(e);
}

static struct pt_edges *edges_new(void)
{
	struct pt_edges *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->bbs = calloc(BB_SLOTS, sizeof(*e->bbs));
	e->runs = calloc(RUN_ALLOC, sizeof(*e->runs));
	e->walks = calloc(WALK_SLOTS, sizeof(*e->walks));
	e->counted = malloc(RUN_ALLOC * sizeof(*e->counted));
	if (!e->bbs || !e->runs || !e->walks || !e->counted) {
		pt_edges_free(e);
		return NULL;
	}
	return e;
}

/* Forgets what was cached for another map, image or process. */
static void edges_retarget(struct pt_edges *e, struct hwt_edges *map,
			   struct hwt_image *image, int32_t pid)
{
	if (e->map == map && e->image == image && e->pid == pid)
		return;
	if (e->map) { /* calloc'd pages need no clearing */
		memset(e->bbs, 0, BB_SLOTS * sizeof(*e->bbs));
		memset(e->runs, 0, RUN_ALLOC * sizeof(*e->runs));
		e->ncounted = 0; /* their counts went with them */
		memset(e->walks, 0, WALK_SLOTS * sizeof(*e->walks));
	}
	e->async_known = false;
	e->map = map;
	e->image = image;
	e->pid = pid;
}

/* TIP.PGD: tracing stops at the next branch that needs trace; with an IP
 * (a filter region left) that branch went there, as the block decoder
 * shows it. */
static bool disable(struct pt_edges *e, const struct pt_packet_ip *p)
{
	uint64_t to;
	bool known = full_ip(e, p, &to);
	e->have_ip = false;
	if (known && e->ip == to)
		return true; /* the branch that left is already taken */
	if (known) {
		/* Tried on a copy: a walk that meets a branch first is
		 * undone. */
		uint64_t ret[RETSTACK], ip = e->ip;
		unsigned int rtop = e->rtop, rn = e->rn;
		memcpy(ret, e->ret, sizeof(ret));
		e->recording = true;
		e->nrec = 0;
		bool reached = pt_edges_walk_to(e, to);
		e->recording = false;
		if (reached)
			return true;
		if (e->nrec > REC_MAX)
			return false; /* cannot undo: the block decoder redoes it */
		for (size_t i = 0; i < e->nrec; i++)
			e->delta[e->rec[i]]--;
		memcpy(e->ret, ret, sizeof(ret));
		e->rtop = rtop;
		e->rn = rn;
		e->ip = ip;
	}
	struct bb *b = pt_edges_walk(e);
	if (b && known && b->end == BB_COND) {
		/* A conditional branch left the region, or fell out of it. */
		if (to == b->target && b->taken >= 0)
			take(e, (uint32_t)b->taken);
		return to == b->target || to == b->next;
	}
	if (!b || (b->end != BB_IND && b->end != BB_RET))
		return false;
	if (known && to != b->next) {
		int64_t i = pt_edges_edge_index(e, b->at, to);
		if (i < 0)
			return false;
		take(e, (uint32_t)i);
	}
	return true;
}

/* The asynchronous branch from an event's FUP to its TIP: its edge.
 * Interrupts come from and go to few places, so the last one's edge is
 * kept. */
static bool async_branch(struct pt_edges *e, uint64_t from, uint64_t to)
{
	if (!e->async_known || e->async_from != from || e->async_to != to) {
		int64_t i = pt_edges_edge_index(e, from, to);
		if (i < 0)
			return false;
		e->async_from = from;
		e->async_to = to;
		e->async_idx = (uint32_t)i;
		e->async_known = true;
	}
	take(e, e->async_idx);
	e->ip = to;
	return true;
}


/* Decodes @chunk from its first PSB: returns 1 when the walk went
 * through it all, 0 when it met what it does not model, or a negative
 * error. A segment of a split chunk (pt_split.c) is walked on through the
 * next segment's PSB+ (its lookahead) to that PSB+'s FUP, where the next
 * segment's walk starts: the direct branches before it are this
 * segment's. */
static int fast(struct pt_edges *e, const struct pt_config *base,
		const struct hwt_aux_chunk *chunk, uint64_t *commit_at,
		uint64_t *first_sync)
{
	struct pt_config config = *base;
	config.begin = (uint8_t *)chunk->data;
	config.end = config.begin + chunk->size;
	uint64_t seg_end = UINT64_MAX;
	if (chunk->lookahead && chunk->size) {
		int n = pt_psb_plus_size(base, config.end,
					 config.end + chunk->lookahead, 0);
		if (n > 0) {
			config.end += n;
			seg_end = chunk->size;
		}
	}
	struct pt_packet_decoder *dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a PT decoder");
	const uint8_t *data = chunk->data;
	uint64_t size = (uint64_t)(config.end - config.begin), off = 0,
		 stop = size;
	bool in_psb = false, fup = false;
	int pending_mode = -1;
	uint64_t fup_ip = 0;

	e->have_ip = false;
	e->rn = 0;
	e->mode = ptem_unknown;
	*first_sync = size;
	if (pt_pkt_sync_forward(dec) < 0 || pt_pkt_get_sync_offset(dec, &off) < 0)
		goto out;
	*commit_at = *first_sync = off;
	for (;;) {
		/* One-byte TNT packets, read here: every even byte but PAD
		 * and the extended-opcode prefix. */
		if (!in_psb && !fup && e->have_ip && off < size && !(data[off] & 1) &&
		    data[off] > 2) {
			off = pt_edges_tnt_replay(e, data, off, size);
			if (off < size && !(data[off] & 1) && data[off] > 2) {
				if (!pt_edges_tnt_short(e, data[off])) {
					stop = off;
					break;
				}
				off++;
			}
			continue;
		}
		/* TIP, the other frequent packet, and FUP, read here too:
		 * opcode xxx01101 and xxx11101, the IP compression in the
		 * top three bits. */
		if (!in_psb && e->have_ip && pending_mode < 0 && off < size &&
		    ((data[off] & 0x1f) == 0x0d ||
		     (!fup && (data[off] & 0x1f) == 0x1d))) {
			static const uint8_t ip_bytes[8] = {0, 2, 4, 6, 6, 0, 8, 0};
			unsigned int ipc = data[off] >> 5, n = ip_bytes[ipc];
			if (n && off + 1 + n <= size) {
				struct pt_packet_ip tp = {(enum pt_ip_compression)ipc, 0};
				uint64_t to;
				/* One 8-byte load where the buffer allows (a
				 * store of n bytes read back whole would
				 * stall); the payload is little-endian. */
				if (off + 9 <= size) {
					memcpy(&tp.ip, data + off + 1, 8);
					if (n < 8)
						tp.ip &= (1ull << (n * 8)) - 1;
				} else {
					memcpy(&tp.ip, data + off + 1, n);
				}
				bool ok = full_ip(e, &tp, &to);
				if (data[off] & 0x10) {
					/* FUP: an interrupt or the like (as
					 * below). */
					ok = ok && pt_edges_walk_to(e, to);
					fup = true;
					fup_ip = to;
				} else if (fup) {
					ok = ok && async_branch(e, fup_ip, to);
					fup = false;
				} else {
					ok = ok && pt_edges_tip(e, to);
				}
				if (!ok) {
					stop = off;
					break;
				}
				off += 1 + n;
				continue;
			}
		}
		if (off >= size)
			break;
		struct pt_packet p;
		if (pt_pkt_sync_set(dec, off) < 0)
			break;
		int n = pt_pkt_next(dec, &p, sizeof(p));
		if (n < 0) {
			if (pt_errcode(n) != pte_eos)
				stop = off;
			break;
		}
		uint64_t at = off, ip;
		off += (uint64_t)n;
		bool ok = true;
		switch (p.type) {
		case ppt_pad:
		case ppt_tsc:
		case ppt_mtc:
		case ppt_cyc:
		case ppt_cbr:
		case ppt_tma:
		case ppt_mnt:
		case ppt_unknown:
			break;
		case ppt_pip:
		case ppt_vmcs:
			/* A new address space or VMCS: the block decoder binds
			 * it to the next MOV CR3, VMLAUNCH, VMRESUME or far
			 * branch, where it changes neither an edge nor the
			 * code read (the image follows the sideband, not CR3
			 * or the VMCS). */
			break;
		case ppt_psb:
			/* A PSB resets IP compression. (The next segment's
			 * is no commit point: a fallback redoes up to it.) */
			if (at - *commit_at >= COMMIT_AT && e->have_ip &&
			    at < seg_end) {
				pt_edges_commit(e);
				*commit_at = at;
			}
			e->last_ip = 0;
			in_psb = true;
			break;
		case ppt_psbend:
			in_psb = false;
			break;
		case ppt_mode:
			if (p.payload.mode.leaf != pt_mol_exec) {
				/* The TSX state a PSB+ restates is no event. */
				ok = in_psb;
				break;
			}
			/* Between a FUP and its TIP: event tracing's
			 * mode change, which the block decoder refuses. */
			if (fup) {
				ok = false;
				break;
			}
			if (in_psb || !e->have_ip)
				e->mode = pt_get_exec_mode(&p.payload.mode.bits.exec);
			else /* binds to the next TIP */
				pending_mode = pt_get_exec_mode(&p.payload.mode.bits.exec);
			break;
		case ppt_fup:
			ok = full_ip(e, &p.payload.ip, &ip);
			if (in_psb) {
				if (ok && !e->have_ip) {
					e->ip = ip;
					e->have_ip = true;
				} else if (ok && at >= seg_end) {
					/* The next segment's: it starts here. */
					ok = pt_edges_walk_to(e, ip);
				}
				break;
			}
			/* An interrupt or the like: a TIP (where it went) or
			 * TIP.PGD (tracing stopped there) follows. */
			ok = ok && e->have_ip && !fup && pt_edges_walk_to(e, ip);
			fup = true;
			fup_ip = ip;
			break;
		case ppt_tip_pge:
			/* Enabled while enabled is an erratum (BDM70) the
			 * block decoder knows about, or an error. */
			ok = !fup && !e->have_ip && full_ip(e, &p.payload.ip, &ip);
			if (ok) {
				e->ip = ip;
				e->have_ip = true;
			}
			break;
		case ppt_tip_pgd:
			if (fup) {
				/* Stopped where the FUP says: nothing taken. */
				e->have_ip = false;
				fup = false;
				full_ip(e, &p.payload.ip, &ip);
				break;
			}
			ok = e->have_ip && !in_psb && disable(e, &p.payload.ip);
			break;
		case ppt_tnt_8:
		case ppt_tnt_64:
			ok = e->have_ip && !in_psb && !fup;
			for (int bit = p.payload.tnt.bit_size - 1; ok && bit >= 0; bit--) {
				bool cond;
				ok = tnt_bit(e, (p.payload.tnt.payload >> bit) & 1,
					     &cond);
			}
			break;
		case ppt_tip:
			ok = e->have_ip && !in_psb && full_ip(e, &p.payload.ip, &ip);
			if (ok && fup) {
				ok = async_branch(e, fup_ip, ip);
				e->ip = ip;
				fup = false;
			} else if (ok) {
				ok = pt_edges_tip(e, ip);
			}
			if (ok && pending_mode >= 0) {
				e->mode = (uint8_t)pending_mode;
				pending_mode = -1;
			}
			break;
		default:
			ok = false;
			break;
		}
		if (!ok || e->nomem) {
			stop = at;
			break;
		}
	}
	/* A MODE.exec with no TIP after it leaves the block decoder
	 * waiting at the end, so that the last branch is not shown: that
	 * decoder decides. */
	if (pending_mode >= 0 && stop == size)
		stop = 0;
out:
	pt_pkt_free_decoder(dec);
	if (e->nomem)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	return stop == size;
}

int pt_edges_chunk(void *priv, const struct hwt_aux_chunk *chunk,
		   struct hwt_edges *map)
{
	struct pt_dec *d = priv;
	/* A per-CPU stream runs whatever the scheduler ran, which the
	 * block decoder follows by time: that path counts its branches. */
	if (d->params.pid_at && chunk->cpu >= 0)
		return HWT_ERR_NOSUP;
	if (!chunk->size)
		return 0;
	if (!d->edges && !(d->edges = edges_new()))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	struct pt_edges *e = d->edges;
	int32_t pid = HWT_PID_ANY;
	if (d->params.pid_at && chunk->tid >= 0)
		pid = d->params.pid_at(d->params.pid_at_arg, -1, chunk->tid, 0);
	edges_retarget(e, map, d->params.image, pid);

	uint64_t commit_at = 0, first_sync = 0;
	pt_edges_drop(e);
	int whole = fast(e, &d->config, chunk, &commit_at, &first_sync);
	if (whole < 0)
		return whole;
	/* As the block decoder: trace before the first PSB, or a chunk
	 * without one, is a gap. */
	if (first_sync > 0)
		hwt_edges_stats(map)->gaps++;
	if (whole) {
		pt_edges_commit(e);
		return 0;
	}
	/* The rest, from the last commit, through the block decoder. */
	pt_edges_drop(e);
	hwt_edges_stats(map)->fallbacks++;
	struct hwt_aux_chunk rest = *chunk;
	rest.data += commit_at;
	rest.size -= commit_at;
	rest.offset += commit_at;
	struct hwt_elem_sink counted = hwt_edges_sink(map);
	const struct hwt_elem_sink *sink = d->params.sink;
	d->params.sink = &counted;
	int err = pt_dec_chunk(d, &rest);
	d->params.sink = sink;
	return err;
}
