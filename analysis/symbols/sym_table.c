/* Sorted function tables and the string pool behind every name. */
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"
#include "analysis/util/array_grow.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

const char *str_pool_intern(struct str_pool *pool, const char *s)
{
	if (!s)
		return NULL;
	if ((pool->n + 1) * 2 > pool->cap) {
		size_t cap = pool->cap ? pool->cap * 2 : 1024;
		char **slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return NULL;
		for (size_t i = 0; i < pool->cap; i++) {
			if (!pool->slots[i])
				continue;
			size_t j = hash_str(pool->slots[i]) & (cap - 1);
			while (slots[j])
				j = (j + 1) & (cap - 1);
			slots[j] = pool->slots[i];
		}
		free(pool->slots);
		pool->slots = slots;
		pool->cap = cap;
	}
	size_t j = hash_str(s) & (pool->cap - 1);
	while (pool->slots[j]) {
		if (!strcmp(pool->slots[j], s))
			return pool->slots[j];
		j = (j + 1) & (pool->cap - 1);
	}
	pool->slots[j] = strdup(s);
	if (pool->slots[j])
		pool->n++;
	return pool->slots[j];
}

void str_pool_free(struct str_pool *pool)
{
	for (size_t i = 0; i < pool->cap; i++)
		free(pool->slots[i]);
	free(pool->slots);
	memset(pool, 0, sizeof(*pool));
}

struct sym_entry *sym_table_add(struct sym_table *t, uint64_t start,
				uint64_t size, const char *name)
{
	if (!name)
		return NULL;
	void *grown = t->e;
	if (!array_grow(&grown, &t->cap, sizeof(*t->e), t->n + 1, 256))
		return NULL;
	t->e = grown;
	struct sym_entry *e = &t->e[t->n++];
	*e = (struct sym_entry){start, size, name, NULL, false, false, false, 0, 0};
	return e;
}

/* perf's preference among aliases of one address: a sized symbol, then
 * fewer leading underscores, then the shorter name. */
static int rank(const struct sym_entry *e)
{
	int r = e->size ? 0 : 1000;
	for (const char *p = e->name; *p == '_'; p++)
		r += 100;
	return r + (int)(strlen(e->name) > 99 ? 99 : strlen(e->name));
}

static int by_start(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	int rx = rank(x), ry = rank(y);
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_name_start(const void *a, const void *b)
{
	const struct sym_entry *x = *(struct sym_entry *const *)a;
	const struct sym_entry *y = *(struct sym_entry *const *)b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Numbers the local symbols of one name in address order (1, 2, ...),
 * as BOLT tells file-local functions apart ("name/1"). */
static void number_locals(struct sym_table *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		n += t->e[i].local;
	struct sym_entry **v = n ? malloc(n * sizeof(*v)) : NULL;
	if (!v) { /* out of memory (or none): all first of their name */
		for (size_t i = 0; i < t->n; i++)
			t->e[i].local_nth = t->e[i].local;
		return;
	}
	n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].local)
			v[n++] = &t->e[i];
	qsort(v, n, sizeof(*v), by_name_start);
	for (size_t i = 0; i < n; i++)
		v[i]->local_nth = i && !strcmp(v[i - 1]->name, v[i]->name)
					  ? v[i - 1]->local_nth + 1 : 1;
	free(v);
}

void sym_table_finish(struct sym_table *t)
{
	if (!t->n)
		return;
	qsort(t->e, t->n, sizeof(*t->e), by_start);
	size_t out = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (out && t->e[out - 1].start == t->e[i].start)
			continue; /* an alias: the best one sorted first */
		t->e[out++] = t->e[i];
	}
	t->n = out;
	for (size_t i = 0; i + 1 < t->n; i++)
		if (!t->e[i].size) {
			t->e[i].size = t->e[i + 1].start - t->e[i].start;
			t->e[i].size_guessed = true;
		}
	number_locals(t);
	sym_table_find_parents(t);
}

struct sym_entry *sym_table_find(const struct sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->e[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	struct sym_entry *e = &t->e[lo - 1];
	return addr - e->start < e->size ? e : NULL;
}

void sym_table_free(struct sym_table *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}
