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
 * ends at are, so that the next one needs no hash; TIP targets (returns, indirect calls and jumps) are edges like
 * any other, and compressed returns use a return stack as libipt does.
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
 * the whole chunk and gives exactly what the block decoder gives. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/error.h"
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
	/* Replayed without a branch on its counts (tnt_replay) when the
	 * stack holds rn_lo to rn_lo + rn_span addresses; rn_lo 255:
	 * never. */
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
 * disable's IP (walk_to): the direct branches on the way, as edge
 * indices, and the return addresses of its direct calls, in order. */
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

/* @idx was made room for in delta by edge_index. */
static inline void take(struct pt_edges *e, uint32_t idx)
{
	e->delta[idx]++;
	if (e->recording && e->nrec++ < REC_MAX)
		e->rec[e->nrec - 1] = idx;
}

/* Adds the replays of run @r to delta. */
static void run_flush(struct pt_edges *e, struct run *r)
{
	for (unsigned i = 0; i < r->nedges; i++)
		e->delta[r->edges[i]] += r->count;
	r->count = 0;
}

/* Adds every run's replays to delta (before delta is read). */
static void runs_flush(struct pt_edges *e)
{
	for (size_t i = 0; i < e->ncounted; i++) {
		struct run *r = &e->runs[e->counted[i]];
		run_flush(e, r);
		r->listed = false;
	}
	e->ncounted = 0;
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

static void commit(struct pt_edges *e)
{
	runs_flush(e);
	for (size_t i = 0; i < e->dmax; i++) {
		if (e->delta[i])
			hwt_edges_count_index(e->map, (uint32_t)i, e->delta[i]);
		e->delta[i] = 0;
	}
}

static void drop(struct pt_edges *e)
{
	for (size_t i = 0; i < e->ncounted; i++) {
		e->runs[e->counted[i]].count = 0;
		e->runs[e->counted[i]].listed = false;
	}
	e->ncounted = 0;
	if (e->dmax)
		memset(e->delta, 0, e->dmax * sizeof(*e->delta));
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

static int64_t edge_index(struct pt_edges *e, uint64_t from, uint64_t to)
{
	int64_t i = hwt_edges_index(e->map, from, to);
	if (i >= 0 && (size_t)i >= e->ndelta) {
		size_t n = e->ndelta ? e->ndelta : 1024;
		while (n <= (size_t)i)
			n *= 2;
		uint64_t *d = realloc(e->delta, n * sizeof(*d));
		if (!d) {
			e->nomem = true;
			return -1;
		}
		memset(d + e->ndelta, 0, (n - e->ndelta) * sizeof(*d));
		e->delta = d;
		e->ndelta = n;
	}
	if (i < 0)
		e->nomem = true;
	else if ((size_t)i >= e->dmax)
		e->dmax = (size_t)i + 1;
	return i;
}

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
				int64_t i = edge_index(e, ip, in.target);
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
				b->taken = edge_index(e, ip, in.target);
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
static struct bb *walk(struct pt_edges *e)
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

/* The branch ending @b went to @to (a TIP, or a compressed return's
 * address): its edge, unless it fell through. */
static bool go(struct pt_edges *e, struct bb *b, uint64_t to)
{
	if (to != b->next) {
		/* Most indirect branches and returns go to one place most of
		 * the time. */
		if (b->tip_edge < 0 || b->tip_to != to) {
			b->tip_edge = edge_index(e, b->at, to);
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
static bool tnt_bit(struct pt_edges *e, bool taken, bool *cond)
{
	struct bb *b = walk(e);
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

/* Replays the cached runs of the short TNT packets from @off on, while
 * each is cached and fits the return stack as when it was recorded;
 * returns the offset of the first packet it did not take. The walk's
 * state is kept in locals for the loop (its own function, so that they
 * stay in registers): most of a trace is this loop. */
static __attribute__((noinline)) uint64_t
tnt_replay(struct pt_edges *e, const uint8_t *data, uint64_t off,
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
 * (tnt_replay) here: walked, and cached when it can be. */
static bool tnt_short(struct pt_edges *e, uint8_t tnt)
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

/* A TIP's target for the branch the walk reaches. */
static bool tip(struct pt_edges *e, uint64_t to)
{
	struct bb *b = walk(e);
	if (!b || (b->end != BB_IND && b->end != BB_RET))
		return false;
	if (b->push_next)
		push(e, b->next);
	return go(e, b, to);
}

static inline bool full_ip(struct pt_edges *e, const struct pt_packet_ip *p,
			   uint64_t *ip);

/* Walks from the walk's address to @to through instructions that need no
 * trace (the direct branches on the way are taken): where an
 * asynchronous event (FUP) struck, or tracing stopped. False when a
 * branch that needs trace comes first. A walk that arrives is cached by
 * its start and end, as the blocks are: a real trace stops and starts
 * again at the same few places thousands of times (each walk read and
 * decoded every instruction again, most of --edges' time on a qemu
 * trace). */
static bool walk_to(struct pt_edges *e, uint64_t to)
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
			int64_t i = edge_index(e, ip, in.target);
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
		bool reached = walk_to(e, to);
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
	struct bb *b = walk(e);
	if (b && known && b->end == BB_COND) {
		/* A conditional branch left the region, or fell out of it. */
		if (to == b->target && b->taken >= 0)
			take(e, (uint32_t)b->taken);
		return to == b->target || to == b->next;
	}
	if (!b || (b->end != BB_IND && b->end != BB_RET))
		return false;
	if (known && to != b->next) {
		int64_t i = edge_index(e, b->at, to);
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
		int64_t i = edge_index(e, from, to);
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
			off = tnt_replay(e, data, off, size);
			if (off < size && !(data[off] & 1) && data[off] > 2) {
				if (!tnt_short(e, data[off])) {
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
					ok = ok && walk_to(e, to);
					fup = true;
					fup_ip = to;
				} else if (fup) {
					ok = ok && async_branch(e, fup_ip, to);
					fup = false;
				} else {
					ok = ok && tip(e, to);
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
				commit(e);
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
					ok = walk_to(e, ip);
				}
				break;
			}
			/* An interrupt or the like: a TIP (where it went) or
			 * TIP.PGD (tracing stopped there) follows. */
			ok = ok && e->have_ip && !fup && walk_to(e, ip);
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
				ok = tip(e, ip);
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
	drop(e);
	int whole = fast(e, &d->config, chunk, &commit_at, &first_sync);
	if (whole < 0)
		return whole;
	/* As the block decoder: trace before the first PSB, or a chunk
	 * without one, is a gap. */
	if (first_sync > 0)
		hwt_edges_stats(map)->gaps++;
	if (whole) {
		commit(e);
		return 0;
	}
	/* The rest, from the last commit, through the block decoder. */
	drop(e);
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
