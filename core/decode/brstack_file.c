/* Branch-stack samples: kept while the records stream by, turned into
 * elements once the sideband has built the memory image. A stack's
 * entry 0 is the newest branch, so its records go out from the last
 * entry to the first, and the code between entry i+1's target and entry
 * i's branch is what ran straight between them (AutoFDO's ranges). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/brstack_internal.h"
#include "core/decode/sample_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/insn.h"

/* AutoFDO and simpleperf take a range longer than this for bogus data. */
#define RANGE_MAX (1u << 20)

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory for branch-stack samples");
}

int hwt_brstack_store_add(struct hwt_brstack_store *bs,
			  struct hwt_pd_reader *reader,
			  const struct hwt_pd_record *rec)
{
	const struct perf_event_attr *attr = hwt_sample_attr(reader, rec);
	if (rec->type != PERF_RECORD_SAMPLE || !attr ||
	    (attr->sample_type & PERF_SAMPLE_AUX) ||
	    !(attr->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	struct hwt_aux_sample s;
	if (hwt_aux_sample_parse(rec->data, attr, &s) < 0) {
		if (!bs->bad++)
			bs->first_bad = rec->file_offset;
		return 0;
	}
	if (bs->n == bs->cap) {
		size_t cap = bs->cap ? bs->cap * 2 : 256;
		void *p = realloc(bs->e, cap * sizeof(*bs->e));
		if (!p)
			return nomem();
		bs->e = p;
		bs->cap = cap;
	}
	/* A file is read again when decoding; a pipe or a compressed file's
	 * records are kept. */
	const void *fdata;
	uint64_t flen;
	bs->in_arena = hwt_pd_reader_is_pipe(reader) ||
		       hwt_pd_reader_feature(reader, HWT_PD_FEAT_COMPRESSED,
					     &fdata, &flen) == 0;
	struct hwt_brstack_sample *e = &bs->e[bs->n];
	size_t na = hwt_pd_reader_nr_attrs(reader);
	for (e->attr = 0; e->attr < na &&
			  &hwt_pd_reader_attr(reader, e->attr)->attr != attr;)
		e->attr++;
	if (e->attr == na)
		return 0; /* not the reader's: cannot be */
	e->size = rec->size;
	e->at = rec->file_offset;
	if (bs->in_arena && hwt_sample_arena_put(&bs->arena, &bs->arena_len,
						 &bs->arena_cap, rec->data,
						 rec->size, &e->at) < 0)
		return nomem();
	bs->n++;
	return 0;
}

void hwt_brstack_store_free(struct hwt_brstack_store *bs)
{
	free(bs->e);
	free(bs->arena);
	memset(bs, 0, sizeof(*bs));
}

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
struct code {
	struct hwt_image *image;
	struct hwt_insn_decoder *dec; /* NULL: no instruction decoder */
	int32_t pid;
	uint64_t time;
	uint8_t buf[512];
	uint64_t buf_at;
	size_t buf_len;
	struct walk_entry *cache; /* NULL: out of memory */
};

static enum walk insn_at(struct code *c, uint64_t addr, struct hwt_insn *in)
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
static enum walk walk(struct code *c, uint64_t start, uint64_t last,
		      uint64_t *end, uint64_t *insns, struct hwt_insn *at_last)
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
static enum walk cached_walk(struct code *c, uint64_t start, uint64_t last,
			     uint64_t *end, uint64_t *insns,
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

/* The fields every element of sample @s has. */
static void common_fields(const struct hwt_aux_sample *s, struct hwt_elem *e)
{
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

static int one_sample(const struct hwt_aux_sample *s,
		      const struct perf_event_attr *attr, struct code *c,
		      enum hwt_isa isa, const struct hwt_elem_sink *out,
		      struct hwt_brstack_stats *st)
{
	/* Only a stack of every taken branch has straight code between
	 * two records; a filtered one (calls, returns) has jumps between. */
	bool every = attr->branch_sample_type & PERF_SAMPLE_BRANCH_ANY;
	struct hwt_elem head;
	memset(&head, 0, sizeof(head));
	common_fields(s, &head);
	c->pid = head.fields & HWT_FIELD_PID ? head.pid : HWT_PID_ANY;
	c->time = head.fields & HWT_FIELD_TIME ? head.time : HWT_TIME_UNKNOWN;
	c->buf_len = 0;
	st->samples++;
	uint64_t prev_to = 0;
	int err = 0;
	for (uint64_t i = s->br_nr; i-- > 0 && err >= 0;) {
		struct hwt_brstack_entry be;
		struct hwt_insn at_from;
		enum walk w = WALK_NO_CODE;
		bool newer = i + 1 < s->br_nr; /* an older record before it */
		hwt_brstack_entry_get(s, i, &be);
		st->records++;
		if (newer && every) {
			struct hwt_elem r = head;
			r.type = HWT_ELEM_RANGE;
			r.u.range.start = prev_to;
			r.u.range.isa = isa;
			w = cached_walk(c, prev_to, be.from, &r.u.range.end,
					&r.u.range.insns, &at_from);
			if (w == WALK_OK) {
				st->ranges++;
				err = out->emit(out->arg, &r);
			} else if (w == WALK_NO_CODE) {
				st->no_code++;
			} else {
				st->not_straight++;
			}
		}
		if (err < 0)
			break;
		struct hwt_elem b = head;
		b.type = HWT_ELEM_BRANCH;
		b.fields |= HWT_FIELD_SAMPLED;
		b.u.branch.from = be.from;
		b.u.branch.to = be.to;
		b.u.branch.weight = s->present & PERF_SAMPLE_PERIOD ? s->period : 0;
		b.u.branch.depth = (uint16_t)(i > UINT16_MAX ? UINT16_MAX : i);
		b.u.branch.priv = be.priv;
		b.u.branch.flags = (uint8_t)((be.mispred ? HWT_BRANCH_MISPRED : 0) |
					     (be.predicted ? HWT_BRANCH_PREDICTED : 0) |
					     (be.in_tx ? HWT_BRANCH_IN_TX : 0) |
					     (be.abort ? HWT_BRANCH_ABORT : 0));
		if (newer && every && w != WALK_NOT_STRAIGHT)
			b.u.branch.flags |= HWT_BRANCH_CONSECUTIVE;
		if (be.cycles) {
			b.fields |= HWT_FIELD_CYCLES;
			b.u.branch.cycles = be.cycles;
		}
		/* The kind the record names, else the instruction's. */
		if (!hwt_brstack_kind(&be, &b.u.branch.kind)) {
			uint64_t end, n;
			if (w != WALK_OK)
				w = cached_walk(c, be.from, be.from, &end, &n,
						&at_from);
			if (w == WALK_OK && at_from.iclass != HWT_INSN_OTHER)
				b.u.branch.kind = hwt_insn_branch_kind(at_from.iclass);
			else /* a jump to stack builders: no frame */
				b.fields |= HWT_FIELD_NO_KIND,
					b.u.branch.kind = HWT_BRANCH_JUMP;
		}
		prev_to = be.to;
		err = out->emit(out->arg, &b);
	}
	return err;
}

int hwt_brstack_store_decode(struct hwt_brstack_store *bs,
			     struct hwt_pd_reader *reader,
			     struct hwt_image *image, enum hwt_isa isa,
			     const struct hwt_elem_sink *out,
			     struct hwt_brstack_stats *stats)
{
	struct code c = {.image = image};
	uint8_t *rec = NULL;
	int err = 0;
	memset(stats, 0, sizeof(*stats));
	/* Without an instruction decoder (no Capstone, an ISA it lacks)
	 * the records still go out, without the ranges between them. */
	if (isa != HWT_ISA_UNKNOWN && hwt_insn_decoder_new(isa, &c.dec) < 0)
		c.dec = NULL;
	if (c.dec && image)
		c.cache = calloc(WALK_CACHE_SIZE, sizeof(*c.cache));
	if (!bs->in_arena && !(rec = malloc(65536)))
		err = nomem();
	for (size_t i = 0; i < bs->n && err >= 0; i++) {
		const struct hwt_brstack_sample *e = &bs->e[i];
		const uint8_t *data = bs->arena + e->at;
		if (!bs->in_arena) {
			err = hwt_pd_reader_read_at(reader, e->at, rec, e->size);
			if (err < 0)
				break;
			data = rec;
		}
		const struct perf_event_attr *attr =
			&hwt_pd_reader_attr(reader, e->attr)->attr;
		struct hwt_aux_sample s;
		/* It parsed when it was kept. */
		if ((err = hwt_aux_sample_parse(data, attr, &s)) < 0)
			break;
		err = one_sample(&s, attr, &c, isa, out, stats);
	}
	if (err >= 0 && bs->bad) {
		char msg[512];
		struct hwt_elem x;
		hwt_elem_clear(&x, HWT_ELEM_ERROR);
		snprintf(msg, sizeof(msg),
			 "%s: %" PRIu64 " branch-stack samples could not be "
			 "parsed (cut short, or lengths past their end) and were "
			 "skipped, the first at byte 0x%" PRIx64 " (hwtrace dump "
			 "shows it)", hwt_pd_reader_path(reader), bs->bad,
			 bs->first_bad);
		x.u.error.message = msg;
		err = out->emit(out->arg, &x);
	}
	free(rec);
	free(c.cache);
	hwt_insn_decoder_free(c.dec);
	return err;
}
