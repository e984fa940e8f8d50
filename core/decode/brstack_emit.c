/* One branch stack out as elements: its records from the oldest to the
 * newest (entry 0), each a BRANCH element marked sampled, and between
 * two records of a stack of every taken branch the RANGE that ran
 * straight from the older one's target to the newer one's branch
 * (AutoFDO's ranges). Shared by the branch-record samples (LBR, BRBE,
 * BRS: brstack_file.c) and the virtual LBR of AUX samples
 * (sample_vlbr.c), so that both give the same records. */
#include <stdlib.h>
#include <string.h>

#include "core/decode/brstack_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/insn.h"

/* AutoFDO and simpleperf take a range longer than this for bogus data. */
#define RANGE_MAX (1u << 20)

enum walk { WALK_OK, WALK_NO_CODE, WALK_NOT_STRAIGHT };

/* A walk done before: stacks repeat the same few ranges (loops), and
 * decoding their instructions again was most of the time spent. */
#define WALK_CACHE_SIZE 4096u
struct walk_entry {
	uint64_t start, last, end, insns;
	struct hwt_insn at_last;
	const struct hwt_image_section *sec; /* holding start then */
	int32_t pid;
	uint8_t w;   /* enum walk */
	bool used;
};

/* Code of one process at one time, read a block at a time. */
struct hwt_brstack_code {
	struct hwt_image *image;
	enum hwt_isa isa;
	struct hwt_insn_decoder *dec; /* NULL: no instruction decoder */
	int32_t pid;
	uint64_t time;
	uint8_t buf[512];
	uint64_t buf_at;
	size_t buf_len;
	struct walk_entry *cache; /* NULL: out of memory */
};

int hwt_brstack_code_new(struct hwt_image *image, enum hwt_isa isa,
			 struct hwt_brstack_code **out)
{
	struct hwt_brstack_code *c = calloc(1, sizeof(*c));
	*out = NULL;
	if (!c)
		return hwt_error(HWT_ERR_NOMEM,
				 "out of memory for branch-stack samples");
	c->image = image;
	c->isa = isa;
	/* Without an instruction decoder (no Capstone, an ISA it lacks)
	 * the records still go out, without the ranges between them. */
	if (isa != HWT_ISA_UNKNOWN && hwt_insn_decoder_new(isa, &c->dec) < 0)
		c->dec = NULL;
	if (c->dec && image)
		c->cache = calloc(WALK_CACHE_SIZE, sizeof(*c->cache));
	*out = c;
	return 0;
}

void hwt_brstack_code_free(struct hwt_brstack_code *c)
{
	if (!c)
		return;
	free(c->cache);
	hwt_insn_decoder_free(c->dec);
	free(c);
}

static enum walk insn_at(struct hwt_brstack_code *c, uint64_t addr,
			 struct hwt_insn *in)
{
	if (!c->image || !c->dec)
		return WALK_NO_CODE;
	uint64_t off = addr - c->buf_at;
	/* Fewer than the longest instruction's bytes left: read again,
	 * unless the section ended there (the last read was short). */
	if (addr < c->buf_at || off >= c->buf_len ||
	    (c->buf_len - off < HWT_INSN_MAX_SIZE && c->buf_len == sizeof(c->buf))) {
		int n = hwt_image_read_at(c->image, c->pid, addr, c->time, c->buf,
					  sizeof(c->buf));
		c->buf_len = n > 0 ? (size_t)n : 0;
		c->buf_at = addr;
		off = 0;
		if (n <= 0)
			return WALK_NO_CODE;
	}
	if (hwt_insn_decode(c->dec, c->buf + off, c->buf_len - off, addr, in) < 0)
		return WALK_NOT_STRAIGHT;
	return WALK_OK;
}

/* Walks the code from @start to the instruction at @last: WALK_OK with
 * *end after it, *insns and *at_last (the instruction at @last) when it
 * runs straight there, nothing taken on the way but system calls. */
static enum walk walk(struct hwt_brstack_code *c, uint64_t start,
		      uint64_t last, uint64_t *end, uint64_t *insns,
		      struct hwt_insn *at_last)
{
	if (last < start || last - start > RANGE_MAX)
		return WALK_NOT_STRAIGHT;
	uint64_t a = start;
	for (uint64_t n = 1;; n++) {
		enum walk w = insn_at(c, a, at_last);
		if (w != WALK_OK)
			return w;
		if (a == last) {
			*end = a + at_last->size;
			*insns = n;
			return WALK_OK;
		}
		/* A system call returns to the next instruction, and the
		 * records of user code (-j any,u) do not show it. */
		if ((hwt_insn_is_unconditional(at_last->iclass) &&
		     at_last->iclass != HWT_INSN_SYSCALL) ||
		    !at_last->size || last - a < at_last->size)
			return WALK_NOT_STRAIGHT;
		a += at_last->size;
	}
}

/* walk, answered from the cache where it can be. */
static enum walk cached_walk(struct hwt_brstack_code *c, uint64_t start,
			     uint64_t last, uint64_t *end, uint64_t *insns,
			     struct hwt_insn *at_last)
{
	struct walk_entry *e = NULL;
	/* The same addresses hold the same code while the section that
	 * maps them is the same (an exec or a new mapping makes another). */
	const struct hwt_image_section *sec =
		c->cache && c->image ? hwt_image_find_at(c->image, c->pid, start,
							 c->time) : NULL;
	*end = *insns = 0;
	memset(at_last, 0, sizeof(*at_last));
	if (sec) {
		uint64_t h = (start * 0x9e3779b97f4a7c15ull) ^ (last * 0xbf58476d1ce4e5b9ull) ^
			     (uint64_t)(uint32_t)c->pid;
		e = &c->cache[(h ^ h >> 29) & (WALK_CACHE_SIZE - 1)];
		if (e->used && e->start == start && e->last == last &&
		    e->pid == c->pid && e->sec == sec) {
			*end = e->end;
			*insns = e->insns;
			*at_last = e->at_last;
			return (enum walk)e->w;
		}
	}
	enum walk w = walk(c, start, last, end, insns, at_last);
	if (e)
		*e = (struct walk_entry){start, last, *end, *insns, *at_last,
					 sec, c->pid, (uint8_t)w, true};
	return w;
}

void hwt_brstack_head(const struct hwt_aux_sample *s, struct hwt_elem *e)
{
	memset(e, 0, sizeof(*e));
	if (s->present & PERF_SAMPLE_CPU) {
		e->fields |= HWT_FIELD_CPU;
		e->cpu = (int32_t)s->cpu;
	}
	if (s->present & PERF_SAMPLE_TID) {
		e->fields |= HWT_FIELD_PID | HWT_FIELD_TID;
		e->pid = (int32_t)s->pid;
		e->tid = (int32_t)s->tid;
	}
	if (s->present & PERF_SAMPLE_TIME) {
		e->fields |= HWT_FIELD_TIME;
		e->time = s->time;
	}
}

/* The BRANCH element of record @r at depth @i; @w what the walk to its
 * branch found (WALK_NO_CODE when none was made). */
static void branch_elem(struct hwt_brstack_code *c,
			const struct hwt_brstack_stack *s, uint64_t i,
			const struct hwt_brstack_rec *r, bool consecutive,
			enum walk w, struct hwt_insn *at_from,
			struct hwt_elem *b)
{
	const struct hwt_brstack_entry *be = &r->e;
	*b = *s->head;
	b->type = HWT_ELEM_BRANCH;
	b->fields |= HWT_FIELD_SAMPLED;
	b->u.branch.from = be->from;
	b->u.branch.to = be->to;
	b->u.branch.weight = s->weight;
	b->u.branch.depth = (uint16_t)(i > UINT16_MAX ? UINT16_MAX : i);
	b->u.branch.priv = be->priv;
	b->u.branch.flags = (uint8_t)((be->mispred ? HWT_BRANCH_MISPRED : 0) |
				      (be->predicted ? HWT_BRANCH_PREDICTED : 0) |
				      (be->in_tx ? HWT_BRANCH_IN_TX : 0) |
				      (be->abort ? HWT_BRANCH_ABORT : 0));
	if (consecutive)
		b->u.branch.flags |= HWT_BRANCH_CONSECUTIVE;
	if (be->cycles) {
		b->fields |= HWT_FIELD_CYCLES;
		b->u.branch.cycles = be->cycles;
	}
	if (r->has_counters) {
		b->fields |= HWT_FIELD_BR_COUNTERS;
		b->u.branch.counters = be->counters;
		b->u.branch.counter_width = r->counter_width;
		b->u.branch.counter_events = r->counter_events;
	}
	/* The kind the record names, else the instruction's. */
	if (r->has_kind) {
		b->u.branch.kind = r->kind;
		return;
	}
	uint64_t end, n;
	if (w != WALK_OK)
		w = cached_walk(c, be->from, be->from, &end, &n, at_from);
	if (w == WALK_OK && at_from->iclass != HWT_INSN_OTHER)
		b->u.branch.kind = hwt_insn_branch_kind(at_from->iclass);
	else /* a jump to stack builders: no frame */
		b->fields |= HWT_FIELD_NO_KIND, b->u.branch.kind = HWT_BRANCH_JUMP;
}

int hwt_brstack_emit_stack(struct hwt_brstack_code *c,
			   const struct hwt_brstack_stack *s,
			   const struct hwt_elem_sink *out,
			   struct hwt_brstack_stats *st)
{
	const struct hwt_elem *head = s->head;
	c->pid = head->fields & HWT_FIELD_PID ? head->pid : HWT_PID_ANY;
	c->time = head->fields & HWT_FIELD_TIME ? head->time : HWT_TIME_UNKNOWN;
	c->buf_len = 0;
	st->samples++;
	uint64_t prev_to = 0;
	int err = 0;
	for (uint64_t i = s->nr; i-- > 0 && err >= 0;) {
		struct hwt_brstack_rec r;
		struct hwt_insn at_from;
		enum walk w = WALK_NO_CODE;
		bool newer = i + 1 < s->nr; /* an older record before it */
		s->get(s->arg, i, &r);
		st->records++;
		memset(&at_from, 0, sizeof(at_from));
		if (newer && s->every) {
			struct hwt_elem range = *head;
			range.type = HWT_ELEM_RANGE;
			range.u.range.start = prev_to;
			range.u.range.isa = c->isa;
			w = cached_walk(c, prev_to, r.e.from, &range.u.range.end,
					&range.u.range.insns, &at_from);
			if (w == WALK_OK) {
				st->ranges++;
				err = out->emit(out->arg, &range);
			} else if (w == WALK_NO_CODE) {
				st->no_code++;
			} else {
				st->not_straight++;
			}
		}
		if (err < 0)
			break;
		struct hwt_elem b;
		branch_elem(c, s, i, &r,
			    newer && s->every && w != WALK_NOT_STRAIGHT, w,
			    &at_from, &b);
		prev_to = r.e.to;
		err = out->emit(out->arg, &b);
	}
	return err;
}
