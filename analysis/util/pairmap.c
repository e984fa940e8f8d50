/* A map keyed by a pair of integers over the shared slot index
 * (pairmap.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/slot_index.h"
#include "analysis/util/pairmap.h"

static size_t slot_of(uint64_t a, uint64_t b, size_t nslots)
{
	/* Mixed so that ids counting up from 0 spread over the table. */
	uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ (b + 0x632be59bd9b4e019ull);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h & (nslots - 1);
}

static size_t home_of(const void *entries, size_t i, size_t nslots)
{
	const struct hwt_pairmap_entry *e = entries;
	return slot_of(e[i].a, e[i].b, nslots);
}

const struct hwt_pairmap_entry *hwt_pairmap_find(const struct hwt_pairmap *m,
						 uint64_t a, uint64_t b)
{
	if (!m->nslots)
		return NULL;
	for (size_t h = slot_of(a, b, m->nslots); m->slots[h];
	     h = slot_next(h, m->nslots)) {
		const struct hwt_pairmap_entry *e = &m->e[m->slots[h] - 1];
		if (e->a == a && e->b == b)
			return e;
	}
	return NULL;
}

struct hwt_pairmap_entry *hwt_pairmap_get(struct hwt_pairmap *m, uint64_t a,
					  uint64_t b)
{
	if ((m->n + 1) * 2 > m->nslots &&
	    slot_index_rebuild(&m->slots, &m->nslots,
			       m->nslots ? m->nslots * 2 : 64, m->n, home_of, m->e))
		return NULL;
	size_t h = slot_of(a, b, m->nslots);
	for (; m->slots[h]; h = slot_next(h, m->nslots)) {
		struct hwt_pairmap_entry *e = &m->e[m->slots[h] - 1];
		if (e->a == a && e->b == b)
			return e;
	}
	void *grown = m->e;
	if (!array_grow(&grown, &m->cap, sizeof(*m->e), m->n + 1, 32))
		return NULL;
	m->e = grown;
	struct hwt_pairmap_entry *e = &m->e[m->n];
	memset(e, 0, sizeof(*e));
	e->a = a;
	e->b = b;
	m->slots[h] = ++m->n;
	return e;
}

int hwt_pairmap_copy(struct hwt_pairmap *dst, const struct hwt_pairmap *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->n)
		return 0;
	dst->e = malloc(src->n * sizeof(*dst->e));
	dst->slots = malloc(src->nslots * sizeof(*dst->slots));
	if (!dst->e || !dst->slots) {
		hwt_pairmap_free(dst);
		return -1;
	}
	memcpy(dst->e, src->e, src->n * sizeof(*dst->e));
	memcpy(dst->slots, src->slots, src->nslots * sizeof(*dst->slots));
	dst->n = dst->cap = src->n;
	dst->nslots = src->nslots;
	return 0;
}

void hwt_pairmap_clear(struct hwt_pairmap *m)
{
	if (m->nslots)
		memset(m->slots, 0, m->nslots * sizeof(*m->slots));
	m->n = 0;
}

void hwt_pairmap_free(struct hwt_pairmap *m)
{
	free(m->e);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
