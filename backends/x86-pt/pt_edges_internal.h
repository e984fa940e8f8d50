/* The state that the files of Intel PT's `decode --edges` path share
 * (pt_edges.c: the packet loop and the op; pt_edges_walk.c: the code
 * walk; pt_edges_runs.c: the cached TNT runs; pt_edges_delta.c: the
 * takings since the last commit), and the helpers on the hot path that
 * more than one of them calls. Those are static inline here, not
 * functions of their own, so that each file's loop inlines them as it
 * did when the path was one file: a call per taken edge or return
 * address would cost more than the work. */
#ifndef HWT_BACKENDS_X86_PT_PT_EDGES_INTERNAL_H
#define HWT_BACKENDS_X86_PT_PT_EDGES_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "backends/x86-pt/pt_decode.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/insn.h"

#define BB_SLOTS 16384u      /* cached blocks, direct-mapped */
#define RUN_SLOTS 16384u     /* where a row of cached TNT runs starts (2^14) */
#define RUN_ALLOC (RUN_SLOTS + 128u) /* run slots: the last row's end */
#define RUN_PUSH 10          /* return addresses a cached run pushes */
#define BB_MAX_EDGES 12      /* direct branches kept in one block */
#define WALK_LIMIT 4096      /* instructions walked for one block */
#define RETSTACK 64          /* libipt's return stack depth */
#define COMMIT_AT (16u << 20) /* trace bytes that make a PSB a commit point */
#define REC_MAX (WALK_LIMIT + 64) /* edges one recording holds */
#define RUN_POPS 4           /* returns a cached run may check and pop */
#define WALK_SLOTS 4096u     /* cached walks to an event's IP (2^12) */

enum bb_end {
	BB_NONE,  /* slot unused */
	BB_COND,  /* conditional branch: a TNT bit */
	BB_IND,   /* indirect jump or call, far branch: a TIP */
	BB_RET,   /* return: a TNT bit (compressed) or a TIP */
	BB_MORE,  /* too many direct branches: walk on from next */
	BB_FAIL,  /* no code, or not an instruction */
};

struct bb {
	uint64_t ip;
	uint8_t mode;
	uint8_t end;
	uint8_t nedges, npush;
	bool push_next;       /* the indirect branch is a call */
	uint64_t at;          /* the branch that ends the block */
	uint64_t next;        /* the instruction after it */
	uint64_t target;      /* BB_COND's target */
	int64_t taken;        /* BB_COND's taken edge, -1 when it is next */
	uint64_t tip_to;      /* the last TIP or return target seen here, */
	int64_t tip_edge;     /* and its edge (-1: none yet) */
	uint32_t edges[BB_MAX_EDGES];
	uint64_t push[BB_MAX_EDGES]; /* return addresses of direct calls */
};

/* The edges that the bits of one short TNT packet take from one address.
 * The fields a replay reads come first; 256 bytes, so that a slot's
 * address is a shift. */
struct run {
	uint64_t ip;
	uint64_t end;         /* where the bits leave the walk */
	struct run *end_row;  /* the runs' row of end (run_row) */
	uint64_t count;       /* replays not yet added to delta */
	uint16_t key;         /* run_key(packet byte, mode); 0: unused */
	uint8_t nedges, npush;
	uint8_t depth;        /* the most return addresses it held at once */
	uint8_t npop;         /* returns to popv[] (the stack's top first) */
	/* Replayed without a branch on its counts (pt_edges_tnt_replay)
	 * when the stack holds rn_lo to rn_lo + rn_span addresses; rn_lo
	 * 255: never. */
	uint8_t rn_lo, rn_span;
	bool listed;          /* its slot is in pt_edges.counted */
	uint64_t popv[RUN_POPS];
	uint64_t push[RUN_PUSH];
	uint32_t edges[BB_MAX_EDGES * 2];
};

_Static_assert(sizeof(struct run) == 256, "a run slot is 256 bytes");

/* The runs from one address sit side by side in a row of 128 slots, one
 * for each short TNT packet byte (even: the byte's half). Rows start at
 * any of RUN_SLOTS slots and overlap; the table has a row's length more
 * than that, so that a row needs no wrapping. A run keeps the row of the
 * address it ends at, so that the next run is found without hashing its
 * address (a loop's runs follow one another). */
static inline struct run *run_row(struct run *runs, uint64_t ip)
{
	return runs + ((ip * 0x9e3779b97f4a7c15ull) >> 50);
}

/* A run's key: its packet byte and mode, which no unused slot (0), no odd
 * byte (its slot is the byte below's) and no byte 2 (an extended
 * opcode, never recorded) matches. */
static inline uint16_t run_key(unsigned int tnt, unsigned int mode)
{
	return (uint16_t)(tnt | mode << 8);
}

/* A walk from one address to an asynchronous event's or a trace
 * disable's IP (pt_edges_walk_to): the direct branches on the way, as
 * edge indices, and the return addresses of its direct calls, in order. */
struct walk {
	uint64_t ip, to;
	uint8_t mode;
	bool used;
	uint8_t nedges, npush;
	uint32_t edges[BB_MAX_EDGES];
	uint64_t push[BB_MAX_EDGES];
};

struct pt_edges {
	struct hwt_edges *map;
	struct hwt_image *image;
	int32_t pid;
	struct hwt_insn_decoder *insn[3]; /* 64, 32, 16 bit */
	struct bb *bbs;
	struct run *runs;
	struct walk *walks;
	/* Takings since the last commit, by edge index: added to the map
	 * at a commit, dropped when the block decoder redoes the part. */
	uint64_t *delta;
	size_t ndelta, dmax;  /* capacity; indices below dmax were made */
	/* The slots of the runs whose count may be above 0: a replay only
	 * counts itself, and a run's edges are added to delta (its count
	 * times) when delta is read or the slot is reused. Adding every
	 * replay's edges one by one was most of the time. */
	uint32_t *counted;
	size_t ncounted;
	/* The edges taken while recording (a TNT run to cache, a walk that
	 * may be undone); nrec > REC_MAX: too many to keep. */
	bool recording;
	size_t nrec;
	uint32_t rec[REC_MAX];
	bool nomem;
	/* The last asynchronous branch's edge (async_branch). */
	bool async_known;
	uint64_t async_from, async_to;
	uint32_t async_idx;
	/* The walk. */
	uint64_t ip, last_ip;
	bool have_ip;
	uint8_t mode;         /* enum pt_exec_mode */
	uint64_t ret[RETSTACK];
	unsigned int rtop, rn;
	/* While recording a TNT run: the return addresses it pushed and
	 * has not popped, the most it held, and whether it popped one it
	 * did not push (then its outcome depends on the stack before it). */
	uint64_t own[BB_MAX_EDGES];
	unsigned int nown, maxown;
	bool own_lost;
	/* ... and the addresses it popped from the stack before it. */
	uint64_t fpop[RUN_POPS];
	unsigned int nfpop;
};

/* pt_edges_delta.c */

/* The index of the edge @from -> @to, with room for it in delta; -1 (and
 * nomem set) when the map is full or memory ran out. */
int64_t pt_edges_edge_index(struct pt_edges *e, uint64_t from, uint64_t to);
/* Adds delta, the run counts with it, to the map, and clears it. */
void pt_edges_commit(struct pt_edges *e);
/* Forgets delta and the run counts: the block decoder redoes them. */
void pt_edges_drop(struct pt_edges *e);

/* pt_edges_walk.c */

/* Takes the direct branches from the walk's address on; returns the
 * block at the branch that needs trace, NULL when the code cannot be
 * walked. */
struct bb *pt_edges_walk(struct pt_edges *e);
/* A TIP's target @to for the branch the walk reaches. */
bool pt_edges_tip(struct pt_edges *e, uint64_t to);
/* Walks to @to through branches that need no trace (an asynchronous
 * event's or a trace disable's IP); false when one that does comes
 * first. */
bool pt_edges_walk_to(struct pt_edges *e, uint64_t to);

/* pt_edges_runs.c */

/* Replays the cached runs of the short TNT packets of @data from @off
 * on; returns the offset of the first packet it did not take. */
uint64_t pt_edges_tnt_replay(struct pt_edges *e, const uint8_t *data,
			     uint64_t off, uint64_t size);
/* Walks the bits of the short TNT packet byte @tnt, which has no cached
 * run here, and caches them when it can; false when the trace does not
 * fit the code. */
bool pt_edges_tnt_short(struct pt_edges *e, uint8_t tnt);

/* The hot helpers. */

/* @idx was made room for in delta by pt_edges_edge_index. */
static inline void take(struct pt_edges *e, uint32_t idx)
{
	e->delta[idx]++;
	if (e->recording && e->nrec++ < REC_MAX)
		e->rec[e->nrec - 1] = idx;
}

/* Adds the replays of run @r to delta. */
static inline void run_flush(struct pt_edges *e, struct run *r)
{
	for (unsigned i = 0; i < r->nedges; i++)
		e->delta[r->edges[i]] += r->count;
	r->count = 0;
}

/* One more replay of run @r. A slot is listed once until the list is
 * read (a run recorded again in its slot keeps the place), so the list
 * holds at most every slot. */
static inline void run_count(struct pt_edges *e, struct run *r)
{
	if (!r->listed) {
		r->listed = true;
		e->counted[e->ncounted++] = (uint32_t)(r - e->runs);
	}
	r->count++;
}

static inline void push(struct pt_edges *e, uint64_t ret)
{
	e->rtop = (e->rtop + 1) % RETSTACK;
	e->ret[e->rtop] = ret;
	if (e->rn < RETSTACK)
		e->rn++;
	if (e->recording) {
		if (e->nown < BB_MAX_EDGES)
			e->own[e->nown++] = ret;
		else
			e->own_lost = true;
		if (e->nown > e->maxown)
			e->maxown = e->nown;
	}
}

static inline bool pop(struct pt_edges *e, uint64_t *ret)
{
	if (!e->rn)
		return false;
	if (e->recording) {
		if (e->nown)
			e->nown--;
		else if (e->nfpop < RUN_POPS)
			e->fpop[e->nfpop++] = e->ret[e->rtop];
		else
			e->own_lost = true;
	}
	*ret = e->ret[e->rtop];
	e->rtop = (e->rtop + RETSTACK - 1) % RETSTACK;
	e->rn--;
	return true;
}

/* The branch ending @b went to @to (a TIP, or a compressed return's
 * address): its edge, unless it fell through. */
static inline bool go(struct pt_edges *e, struct bb *b, uint64_t to)
{
	if (to != b->next) {
		/* Most indirect branches and returns go to one place most of
		 * the time. */
		if (b->tip_edge < 0 || b->tip_to != to) {
			b->tip_edge = pt_edges_edge_index(e, b->at, to);
			b->tip_to = to;
			if (b->tip_edge < 0)
				return false;
		}
		take(e, (uint32_t)b->tip_edge);
	}
	e->ip = to;
	return true;
}

/* One TNT bit. Returns false when the trace does not fit the code. */
static inline bool tnt_bit(struct pt_edges *e, bool taken, bool *cond)
{
	struct bb *b = pt_edges_walk(e);
	if (!b)
		return false;
	*cond = b->end == BB_COND;
	if (b->end == BB_COND) {
		if (!taken) {
			e->ip = b->next;
		} else {
			if (b->taken >= 0)
				take(e, (uint32_t)b->taken);
			e->ip = b->target;
		}
		return true;
	}
	if (b->end == BB_RET && taken) { /* a compressed return */
		uint64_t to;
		if (!pop(e, &to))
			return false;
		return go(e, b, to);
	}
	return false;
}

/* libipt's last-IP decompression; false for a suppressed IP. */
static inline bool full_ip(struct pt_edges *e, const struct pt_packet_ip *p,
		    uint64_t *ip)
{
	switch (p->ipc) {
	case pt_ipc_update_16:
		e->last_ip = (e->last_ip & ~0xffffull) | (p->ip & 0xffffull);
		break;
	case pt_ipc_update_32:
		e->last_ip = (e->last_ip & ~0xffffffffull) | (p->ip & 0xffffffffull);
		break;
	case pt_ipc_update_48:
		e->last_ip = (e->last_ip & ~0xffffffffffffull) |
			     (p->ip & 0xffffffffffffull);
		break;
	case pt_ipc_sext_48:
		e->last_ip = (uint64_t)((int64_t)(p->ip << 16) >> 16);
		break;
	case pt_ipc_full:
		e->last_ip = p->ip;
		break;
	default:
		return false;
	}
	*ip = e->last_ip;
	return true;
}

#endif
