/* A string-keyed map over the shared slot index (strmap.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/slot_index.h"
#include "analysis/util/strmap.h"

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;  /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

static size_t home_of(const void *entries, size_t i, size_t nslots)
{
	const struct hwt_strmap_entry *e = entries;
	return hash(e[i].key, strlen(e[i].key)) & (nslots - 1);
}

struct hwt_strmap_entry *hwt_strmap_get(struct hwt_strmap *m, const char *key,
					size_t len)
{
	if ((m->n + 1) * 2 > m->nslots &&
	    slot_index_rebuild(&m->slots, &m->nslots,
			       m->nslots ? m->nslots * 2 : 256, m->n, home_of, m->e))
		return NULL;
	size_t h = hash(key, len) & (m->nslots - 1);
	while (m->slots[h]) {
		struct hwt_strmap_entry *e = &m->e[m->slots[h] - 1];
		if (!strncmp(e->key, key, len) && !e->key[len])
			return e;
		h = slot_next(h, m->nslots);
	}
	void *grown = m->e;
	if (!array_grow(&grown, &m->cap, sizeof(*m->e), m->n + 1, 64))
		return NULL;
	m->e = grown;
	char *copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, key, len);
	copy[len] = 0;
	struct hwt_strmap_entry *e = &m->e[m->n];
	memset(e, 0, sizeof(*e));
	e->key = copy;
	m->slots[h] = ++m->n;
	return e;
}

void hwt_strmap_free(struct hwt_strmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].key);
	free(m->e);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
