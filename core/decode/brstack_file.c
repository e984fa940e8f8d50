/* Branch-stack samples: kept while the records stream by, turned into
 * elements once the sideband has built the memory image (each stack by
 * brstack_emit.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/brstack_internal.h"
#include "core/decode/sample_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

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

/* Record @i of the sample's stack, its kind the one its type field
 * names where it names one. */
static void lbr_get(const void *arg, uint64_t i, struct hwt_brstack_rec *out)
{
	const struct hwt_aux_sample *s = arg;
	hwt_brstack_entry_get(s, i, &out->e);
	out->has_kind = hwt_brstack_kind(&out->e, &out->kind);
	out->has_counters = s->br_cntr != NULL;
}

static int one_sample(const struct hwt_aux_sample *s,
		      const struct perf_event_attr *attr,
		      struct hwt_brstack_code *c,
		      const struct hwt_elem_sink *out,
		      struct hwt_brstack_stats *st)
{
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
		.arg = s,
	};
	return hwt_brstack_emit_stack(c, &stack, out, st);
}

int hwt_brstack_store_decode(struct hwt_brstack_store *bs,
			     struct hwt_pd_reader *reader,
			     struct hwt_image *image, enum hwt_isa isa,
			     const struct hwt_elem_sink *out,
			     struct hwt_brstack_stats *stats)
{
	struct hwt_brstack_code *c = NULL;
	uint8_t *rec = NULL;
	memset(stats, 0, sizeof(*stats));
	int err = hwt_brstack_code_new(image, isa, &c);
	if (err >= 0 && !bs->in_arena && !(rec = malloc(65536)))
		err = nomem();
	for (size_t i = 0; i < bs->n && err >= 0; i++) {
		const struct hwt_brstack_sample *e = &bs->e[i];
		/* Samples kept by offset (no arena: arena is NULL) are read
		 * back from the file; arena + at is only formed for an arena. */
		const uint8_t *data = rec;
		if (bs->in_arena) {
			data = bs->arena + e->at;
		} else {
			err = hwt_pd_reader_read_at(reader, e->at, rec, e->size);
			if (err < 0)
				break;
		}
		const struct perf_event_attr *attr =
			&hwt_pd_reader_attr(reader, e->attr)->attr;
		struct hwt_aux_sample s;
		/* It parsed when it was kept. */
		if ((err = hwt_aux_sample_parse(data, attr, &s)) < 0)
			break;
		err = one_sample(&s, attr, c, out, stats);
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
	hwt_brstack_code_free(c);
	return err;
}
