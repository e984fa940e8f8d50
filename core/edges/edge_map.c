/* The edge map: distinct (from, to) pairs in an array that only grows, so
 * that an edge's index stays valid, found through an open-addressing
 * table of indices. */
#include <stdlib.h>
#include <string.h>

#include "core/decode/array_grow.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/error.h"

#define EMPTY UINT32_MAX

struct hwt_edges {
	struct hwt_edge *v;   /* every edge ever indexed, count 0 or more */
	size_t n, cap;
	uint32_t *table;      /* indices into v; EMPTY */
	size_t mask;          /* table size - 1 */
	struct hwt_edges_stats stats;
};

static size_t hash(uint64_t from, uint64_t to)
{
	uint64_t h = (from ^ (to * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 31));
}

struct hwt_edges *hwt_edges_new(void)
{
	struct hwt_edges *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->mask = 1023;
	e->table = malloc((e->mask + 1) * sizeof(*e->table));
	if (!e->table) {
		free(e);
		return NULL;
	}
	memset(e->table, 0xff, (e->mask + 1) * sizeof(*e->table));
	return e;
}

void hwt_edges_free(struct hwt_edges *e)
{
	if (!e)
		return;
	free(e->v);
	free(e->table);
	free(e);
}

/* Doubles the table once it is half full. */
static int rehash(struct hwt_edges *e)
{
	size_t size = (e->mask + 1) * 2;
	uint32_t *t = malloc(size * sizeof(*t));
	if (!t)
		return HWT_ERR_NOMEM;
	memset(t, 0xff, size * sizeof(*t));
	for (size_t i = 0; i < e->n; i++) {
		size_t s = hash(e->v[i].from, e->v[i].to) & (size - 1);
		while (t[s] != EMPTY)
			s = (s + 1) & (size - 1);
		t[s] = (uint32_t)i;
	}
	free(e->table);
	e->table = t;
	e->mask = size - 1;
	return 0;
}

int64_t hwt_edges_index(struct hwt_edges *e, uint64_t from, uint64_t to)
{
	size_t s = hash(from, to) & e->mask;
	for (;;) {
		uint32_t i = e->table[s];
		if (i == EMPTY)
			break;
		if (e->v[i].from == from && e->v[i].to == to)
			return i;
		s = (s + 1) & e->mask;
	}
	if (e->n >= EMPTY - 1)
		return hwt_error(HWT_ERR_NOMEM, "more than 2^32 distinct edges");
	void *grown = e->v;
	if (!array_grow(&grown, &e->cap, sizeof(*e->v), e->n + 1))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	e->v = grown;
	e->v[e->n] = (struct hwt_edge){from, to, 0};
	e->table[s] = (uint32_t)e->n;
	int64_t idx = (int64_t)e->n++;
	if (e->n * 2 > e->mask + 1 && rehash(e) < 0)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	return idx;
}

int hwt_edges_add(struct hwt_edges *e, uint64_t from, uint64_t to,
		  uint64_t count)
{
	int64_t i = hwt_edges_index(e, from, to);
	if (i < 0)
		return (int)i;
	e->v[i].count += count;
	return 0;
}

void hwt_edges_count_index(struct hwt_edges *e, uint32_t idx, uint64_t count)
{
	e->v[idx].count += count;
}

struct hwt_edges_stats *hwt_edges_stats(struct hwt_edges *e)
{
	return &e->stats;
}

size_t hwt_edges_size(const struct hwt_edges *e)
{
	size_t n = 0;
	for (size_t i = 0; i < e->n; i++)
		n += e->v[i].count != 0;
	return n;
}

uint64_t hwt_edges_total(const struct hwt_edges *e)
{
	uint64_t n = 0;
	for (size_t i = 0; i < e->n; i++)
		n += e->v[i].count;
	return n;
}

uint64_t hwt_edges_count(const struct hwt_edges *e, uint64_t from, uint64_t to)
{
	size_t s = hash(from, to) & e->mask;
	for (uint32_t i; (i = e->table[s]) != EMPTY; s = (s + 1) & e->mask)
		if (e->v[i].from == from && e->v[i].to == to)
			return e->v[i].count;
	return 0;
}

int hwt_edges_merge(struct hwt_edges *dst, const struct hwt_edges *src)
{
	for (size_t i = 0; i < src->n; i++) {
		if (!src->v[i].count)
			continue;
		int err = hwt_edges_add(dst, src->v[i].from, src->v[i].to,
					src->v[i].count);
		if (err < 0)
			return err;
	}
	dst->stats.overflows += src->stats.overflows;
	dst->stats.errors += src->stats.errors;
	dst->stats.gaps += src->stats.gaps;
	dst->stats.fallbacks += src->stats.fallbacks;
	return 0;
}

static int by_from_to(const void *a, const void *b)
{
	const struct hwt_edge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return 0;
}

int hwt_edges_sorted(const struct hwt_edges *e, struct hwt_edge **out, size_t *n)
{
	size_t k = hwt_edges_size(e);
	struct hwt_edge *v = malloc((k ? k : 1) * sizeof(*v));
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	k = 0;
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i].count)
			v[k++] = e->v[i];
	qsort(v, k, sizeof(*v), by_from_to);
	*out = v;
	*n = k;
	return 0;
}

static int edges_emit(void *arg, const struct hwt_elem *el)
{
	struct hwt_edges *e = arg;
	switch (el->type) {
	case HWT_ELEM_BRANCH:
		/* A target whose source the trace does not give is no edge. */
		if (el->fields & HWT_FIELD_NO_FROM)
			return 0;
		return hwt_edges_add(e, el->u.branch.from, el->u.branch.to, 1);
	case HWT_ELEM_GAP:
		if (el->u.gap.reason == HWT_GAP_OVERFLOW)
			e->stats.overflows++;
		else
			e->stats.gaps++;
		return 0;
	case HWT_ELEM_ERROR:
		e->stats.errors++;
		return 0;
	default:
		return 0;
	}
}

struct hwt_elem_sink hwt_edges_sink(struct hwt_edges *e)
{
	return (struct hwt_elem_sink){edges_emit, e};
}
