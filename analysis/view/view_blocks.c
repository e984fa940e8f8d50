/* Adding up the calls shorter than a pixel of the timeline: one block for
 * each pixel column and depth of a thread, as long as its calls' first
 * start to last end, named for their function when they are all one.
 * The page's writer does it once the threads' whole time is known; while
 * the calls come, the view does it with the time seen so far whenever
 * the calls kept grow large, which keeps memory bounded: a pixel then is
 * never wider than the page's will be, so what it adds up the page would
 * have added up too (its blocks are added up again, into the page's). */
#include <stdlib.h>

#include "analysis/util/array_grow.h"
#include "analysis/view/view_internal.h"
#include "hwtrace/error.h"

/* Calls kept before the view adds up the short ones (32 bytes each). */
#define VIEW_COMPACT_AT (1u << 18)

struct block {
	bool open;
	uint64_t column;
	struct view_slice s;  /* s.name UINT32_MAX: several functions */
};

static int put_block(const struct view_put *to, struct block *b,
		     struct hwt_view_stats *st)
{
	if (!b->open)
		return 0;
	b->open = false;
	st->blocks++;
	return to->put(to->arg, &b->s);
}

/* Each thread's slices come in the order they ended: at one depth of one
 * thread that is the order they started in, so a block is complete when
 * a slice of another column comes. */
int view_add_up(const struct hwt_view *v, uint64_t first, uint64_t pixel,
		const struct view_put *to, struct hwt_view_stats *st)
{
	st->slices = st->slices_short = st->blocks = 0;
	struct block **blocks = calloc(v->nthreads ? v->nthreads : 1,
				       sizeof(*blocks));
	int err = blocks ? 0 : hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t t = 0; t < v->nthreads && !err; t++) {
		size_t depths = (size_t)(v->threads[t].max_depth -
					 v->threads[t].min_depth) + 1;
		blocks[t] = calloc(depths, sizeof(**blocks));
		if (!blocks[t])
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < v->nslices && !err; i++) {
		const struct view_slice *s = &v->slices[i];
		struct block *b = &blocks[s->thread][s->depth -
						     v->threads[s->thread].min_depth];
		if (s->end - s->start >= pixel) {
			/* Wide enough to draw alone (a block added up
			 * before, with a narrower pixel, may be too). */
			err = put_block(to, b, st);
			if (s->calls > 1) {
				st->blocks++;
				st->slices_short += s->calls;
			} else {
				st->slices++;
			}
			if (!err)
				err = to->put(to->arg, s);
			continue;
		}
		uint64_t column = pixel ? (s->start - first) / pixel : 0;
		if (b->open && b->column != column)
			err = put_block(to, b, st);
		if (!b->open) {
			*b = (struct block){true, column, *s};
			b->s.calls = 0;
		}
		if (b->s.name != s->name)
			b->s.name = UINT32_MAX;
		if (s->end > b->s.end)
			b->s.end = s->end;
		b->s.calls += s->calls;
		st->slices_short += s->calls;
	}
	for (size_t t = 0; t < v->nthreads && blocks; t++) {
		size_t depths = (size_t)(v->threads[t].max_depth -
					 v->threads[t].min_depth) + 1;
		for (size_t d = 0; d < depths && blocks[t] && !err; d++)
			err = put_block(to, &blocks[t][d], st);
		free(blocks[t]);
	}
	free(blocks);
	return err;
}

struct kept {
	struct view_slice *v;
	size_t n, cap;
};

static int keep(void *arg, const struct view_slice *s)
{
	struct kept *k = arg;
	void *grown = k->v;
	if (!array_grow(&grown, &k->cap, sizeof(*k->v), k->n + 1, 1024))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	k->v = grown;
	k->v[k->n++] = *s;
	return 0;
}

int view_compact(struct hwt_view *v)
{
	if (!v->compact_at)
		v->compact_at = VIEW_COMPACT_AT;
	if (v->nslices < v->compact_at)
		return 0;
	uint64_t first = UINT64_MAX, last = 0;
	view_time_span(v, &first, &last);
	uint64_t pixel = (last - first) / v->opts.timeline_pixels;
	struct kept k = {0};
	struct hwt_view_stats st;
	int err = pixel ? view_add_up(v, first, pixel,
				      &(struct view_put){keep, &k}, &st) : 0;
	if (err) {
		free(k.v);
		return err;
	}
	if (pixel) {
		free(v->slices);
		v->slices = k.v;
		v->nslices = k.n;
		v->slices_cap = k.cap;
	}
	/* Long calls that stay: do not add up again at every call. */
	while (v->nslices >= v->compact_at / 2)
		v->compact_at *= 2;
	return 0;
}

void view_time_span(const struct hwt_view *v, uint64_t *first, uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	for (size_t i = 0; i < v->nthreads; i++)
		if (v->threads[i].timed) {
			if (v->threads[i].first < *first)
				*first = v->threads[i].first;
			if (v->threads[i].last > *last)
				*last = v->threads[i].last;
		}
	if (*first > *last)
		*first = *last = 0;
}
