/* Branch-stack samples: kept while the records stream by, turned into
 * elements once the sideband has built the memory image (each stack by
 * brstack_emit.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/brstack_internal.h"
#include "core/decode/sample_internal.h"
#include "hwtrace/brcntr.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory for branch-stack samples");
}

/* The merge's key of the stream sample @s's elements go to (their head:
 * hwt_brstack_head). */
static int64_t stream_key(const struct hwt_aux_sample *s)
{
	if (s->present & PERF_SAMPLE_CPU)
		return s->cpu;
	if (s->present & PERF_SAMPLE_TID)
		return ((int64_t)1 << 32) + s->tid;
	return -1;
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
	 * records are kept. Asked once: the header says it before the
	 * first record, and asking sets the error message (no such
	 * feature) each time. */
	if (!bs->n) {
		const void *fdata;
		uint64_t flen;
		bs->in_arena = hwt_pd_reader_is_pipe(reader) ||
			       hwt_pd_reader_feature(reader, HWT_PD_FEAT_COMPRESSED,
						     &fdata, &flen) == 0;
	}
	struct hwt_brstack_sample *e = &bs->e[bs->n];
	size_t na = hwt_pd_reader_nr_attrs(reader);
	for (e->attr = 0; e->attr < na &&
			  &hwt_pd_reader_attr(reader, e->attr)->attr != attr;)
		e->attr++;
	if (e->attr == na)
		return 0; /* not the reader's: cannot be */
	e->size = rec->size;
	e->at = rec->file_offset;
	int64_t key = stream_key(&s);
	if (!bs->n)
		bs->stream_key = key;
	else if (key != bs->stream_key)
		bs->streams_many = true;
	if ((s.present & PERF_SAMPLE_CPU) && hwt_cpu_set_add(&bs->cpus, s.cpu) < 0)
		return nomem();
	bs->bytes += rec->size;
	if (bs->in_arena && hwt_sample_arena_put(&bs->arena, &bs->arena_len,
						 &bs->arena_cap, rec->data,
						 rec->size, &e->at) < 0)
		return nomem();
	bs->n++;
	return 0;
}

uint32_t hwt_brstack_store_streams(const struct hwt_brstack_store *bs)
{
	return !bs->n ? 0 : bs->streams_many ? 2 : 1;
}

void hwt_brstack_store_free(struct hwt_brstack_store *bs)
{
	free(bs->e);
	free(bs->arena);
	hwt_cpu_set_free(&bs->cpus);
	memset(bs, 0, sizeof(*bs));
}

/* A sample and the split of its counter words (width 0: none). */
struct lbr_arg {
	const struct hwt_aux_sample *s;
	uint8_t width, events;
};

/* Record @i of the sample's stack, its kind the one its type field
 * names where it names one. */
static void lbr_get(const void *arg, uint64_t i, struct hwt_brstack_rec *out)
{
	const struct lbr_arg *a = arg;
	const struct hwt_aux_sample *s = a->s;
	hwt_brstack_entry_get(s, i, &out->e);
	out->has_kind = hwt_brstack_kind(&out->e, &out->kind);
	out->has_counters = s->br_cntr != NULL;
	out->counter_width = out->has_counters ? a->width : 0;
	out->counter_events = out->has_counters ? a->events : 0;
}

/* What the decode knows of each event's counter words: found yet, and
 * the group's width and events (0 and 0: not split). */
struct cntr_split {
	bool known;
	uint8_t width, events;
};

/* The split of event @ai's counter words, asked of the file once per
 * event. A capture that does not say (no CPU_PMU_CAPS width) leaves the
 * words whole; one that says it wrong does too, and the decode says why
 * once, in an ERROR element (*@said). */
static int cntr_split_of(struct cntr_split *cs, struct hwt_pd_reader *reader,
			 size_t ai, bool *said, const struct hwt_elem_sink *out)
{
	struct cntr_split *c = &cs[ai];
	if (c->known)
		return 0;
	c->known = true;
	struct hwt_brcntr_group g;
	int err = hwt_brcntr_group_of(reader, ai, &g);
	if (!err) {
		c->width = (uint8_t)g.width;
		c->events = (uint8_t)g.nr;
		return 0;
	}
	if (err != HWT_ERR_FORMAT || *said) {
		hwt_error_clear();
		return 0;
	}
	*said = true;
	char msg[512];
	struct hwt_elem x;
	hwt_elem_clear(&x, HWT_ELEM_ERROR);
	snprintf(msg, sizeof(msg), "%s; the branch counters are left as words",
		 hwt_errmsg());
	hwt_error_clear();
	x.u.error.message = msg;
	return out->emit(out->arg, &x);
}

static int one_sample(const struct hwt_aux_sample *s,
		      const struct perf_event_attr *attr,
		      const struct cntr_split *split,
		      struct hwt_brstack_code *c,
		      const struct hwt_elem_sink *out,
		      struct hwt_brstack_stats *st)
{
	struct lbr_arg arg = {s, split->width, split->events};
	struct hwt_elem head;
	hwt_brstack_head(s, &head);
	struct hwt_brstack_stack stack = {
		.head = &head,
		.weight = s->present & PERF_SAMPLE_PERIOD ? s->period : 0,
		/* Only a stack of every taken branch has straight code
		 * between two records; a filtered one (calls, returns) has
		 * jumps between. */
		.every = attr->branch_sample_type & PERF_SAMPLE_BRANCH_ANY,
		.nr = s->br_nr,
		.get = lbr_get,
		.arg = &arg,
	};
	return hwt_brstack_emit_stack(c, &stack, out, st);
}

/* Samples kept by file offset are read back a window at a time: a read
 * of each one was a good part of the time. A record is at most 64 KiB,
 * so one always fits. */
#define READ_WINDOW (1u << 20)
struct read_window {
	uint8_t *buf; /* READ_WINDOW bytes */
	uint64_t at;  /* file offset of buf[0] */
	uint64_t len; /* bytes read there */
};

/* *@data: the bytes of kept sample @i, read with the samples after it
 * that fit in the window when they are not there yet. */
static int window_get(const struct hwt_brstack_store *bs,
		      struct hwt_pd_reader *reader, size_t i,
		      struct read_window *w, const uint8_t **data)
{
	const struct hwt_brstack_sample *e = &bs->e[i];
	if (e->at < w->at || e->at - w->at + e->size > w->len) {
		/* Up to the end of the last sample that fits; the samples
		 * were kept in file order, and the file may end there. */
		uint64_t span = e->size;
		for (size_t j = i + 1; j < bs->n; j++) {
			const struct hwt_brstack_sample *x = &bs->e[j];
			if (x->at < e->at || x->at - e->at + x->size > READ_WINDOW)
				break;
			if (x->at - e->at + x->size > span)
				span = x->at - e->at + x->size;
		}
		int err = hwt_pd_reader_read_at(reader, e->at, w->buf, span);
		if (err < 0) {
			w->len = 0;
			return err;
		}
		w->at = e->at;
		w->len = span;
	}
	*data = w->buf + (e->at - w->at);
	return 0;
}

int hwt_brstack_store_decode(struct hwt_brstack_store *bs,
			     struct hwt_pd_reader *reader,
			     struct hwt_image *image, enum hwt_isa isa,
			     const struct hwt_elem_sink *out,
			     struct hwt_brstack_stats *stats)
{
	struct hwt_brstack_code *c = NULL;
	struct read_window win = {0};
	memset(stats, 0, sizeof(*stats));
	int err = hwt_brstack_code_new(image, isa, &c);
	if (err >= 0 && !bs->in_arena && !(win.buf = malloc(READ_WINDOW)))
		err = nomem();
	/* Every attribute is read by now, pipe mode included. */
	struct cntr_split *split = NULL;
	bool said = false;
	size_t na = hwt_pd_reader_nr_attrs(reader);
	if (err >= 0 && !(split = calloc(na ? na : 1, sizeof(*split))))
		err = nomem();
	for (size_t i = 0; i < bs->n && err >= 0; i++) {
		const struct hwt_brstack_sample *e = &bs->e[i];
		/* Samples kept by offset (no arena: arena is NULL) are read
		 * back from the file; arena + at is only formed for an arena. */
		const uint8_t *data;
		if (bs->in_arena)
			data = bs->arena + e->at;
		else if ((err = window_get(bs, reader, i, &win, &data)) < 0)
			break;
		const struct perf_event_attr *attr =
			&hwt_pd_reader_attr(reader, e->attr)->attr;
		struct hwt_aux_sample s;
		/* It parsed when it was kept. */
		if ((err = hwt_aux_sample_parse(data, attr, &s)) < 0)
			break;
		if (s.br_cntr && e->attr < na &&
		    (err = cntr_split_of(split, reader, e->attr, &said, out)) < 0)
			break;
		static const struct cntr_split none;
		err = one_sample(&s, attr, e->attr < na ? &split[e->attr] : &none,
				 c, out, stats);
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
	free(win.buf);
	free(split);
	hwt_brstack_code_free(c);
	return err;
}
