/* The parts compilers split off a function, and their parents: gcc names
 * the cold blocks of foo "foo.cold" (or "foo.cold.N"), the outlined rest
 * of a partly inlined foo "foo.part.N", and its specialised copies
 * "foo.constprop.N" and "foo.isra.N", suffixes that stack on each other
 * ("foo.constprop.0.isra.0.cold"). Code in a part runs in its parent's
 * frame when the parent jumps there, so the stacks need the parent. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"

/* The length of @name without its last part suffix, or 0 when it has
 * none. */
static size_t strip_part(const char *name, size_t len)
{
	static const char *const kinds[] = {".cold", ".part", ".constprop",
					    ".isra"};
	size_t end = len;
	while (end && isdigit((unsigned char)name[end - 1]))
		end--;
	bool numbered = end < len;
	if (numbered) {
		if (!end || name[end - 1] != '.')
			return 0;
		end--;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t kl = strlen(kinds[k]);
		/* Every kind but .cold carries its number. */
		if ((numbered || k == 0) && end > kl &&
		    !memcmp(name + end - kl, kinds[k], kl))
			return end - kl;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct sym_entry *x = *(struct sym_entry *const *)a;
	const struct sym_entry *y = *(struct sym_entry *const *)b;
	return strcmp(x->name, y->name);
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The entry named by the first @len bytes of @name nearest to @addr (two
 * static functions may share a name), or NULL. */
static const struct sym_entry *find_named(struct sym_entry **v, size_t n,
					  const char *name, size_t len,
					  uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(v[mid]->name, name, len);
		if (c < 0 || (c == 0 && v[mid]->name[len]))
			c = c < 0 ? -1 : 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct sym_entry *best = NULL;
	for (size_t i = lo; i < n && !strncmp(v[i]->name, name, len) &&
			    !v[i]->name[len]; i++)
		if (!best || distance(v[i]->start, addr) <
				     distance(best->start, addr))
			best = v[i];
	return best;
}

void sym_table_find_parents(struct sym_table *t)
{
	size_t nparts = 0;
	for (size_t i = 0; i < t->n; i++)
		nparts += strip_part(t->e[i].name, strlen(t->e[i].name)) != 0;
	if (!nparts)
		return;
	struct sym_entry **v = malloc(t->n * sizeof(*v));
	if (!v)
		return; /* out of memory: every part its own function */
	for (size_t i = 0; i < t->n; i++)
		v[i] = &t->e[i];
	qsort(v, t->n, sizeof(*v), by_name);
	for (size_t i = 0; i < t->n; i++) {
		struct sym_entry *e = &t->e[i];
		size_t len = strlen(e->name);
		/* The outermost parent the table has: foo for
		 * foo.constprop.0.cold, else foo.constprop.0. */
		while ((len = strip_part(e->name, len)) != 0) {
			const struct sym_entry *p =
				find_named(v, t->n, e->name, len, e->start);
			if (p)
				e->parent = p->start;
		}
	}
	free(v);
}
