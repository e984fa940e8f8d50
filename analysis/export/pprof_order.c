/* The canonical order of a pprof profile's locations and samples: by
 * their content alone, so that it depends on what was profiled and not
 * on the order the captures or partial results came in. */
#include <stdlib.h>
#include <string.h>

#include "analysis/export/pprof_profile.h"
#include "hwtrace/error.h"

/* qsort takes no context: each item carries its profile. */
struct item {
	const struct pprof_profile *p;
	const size_t *rank;   /* samples: the locations' ranks */
	size_t i;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_map(const struct pprof_profile *p, size_t a, size_t b)
{
	if (!a || !b)
		return cmp_u64(a, b);
	const struct pprof_map *x = &p->maps[a - 1], *y = &p->maps[b - 1];
	int c = strcmp(x->dso, y->dso);
	if (!c)
		c = cmp_u64(x->bias, y->bias);
	return c ? c : strcmp(x->build_id, y->build_id);
}

static int cmp_line(const struct pprof_line *x, const struct pprof_line *y)
{
	int c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = cmp_u64(x->line, y->line);
	return c ? c : cmp_u64(x->start_line, y->start_line);
}

static int by_location(const void *va, const void *vb)
{
	const struct item *a = va, *b = vb;
	const struct pprof_profile *p = a->p;
	const struct pprof_loc *x = &p->locs[a->i], *y = &p->locs[b->i];
	int c = cmp_i64(x->pid, y->pid);
	if (!c)
		c = cmp_u64(x->addr, y->addr);
	if (!c)
		c = cmp_map(p, x->map, y->map);
	for (size_t i = 0; !c && i < x->nlines && i < y->nlines; i++)
		c = cmp_line(&p->lines[x->first_line + i],
			     &p->lines[y->first_line + i]);
	return c ? c : cmp_u64(x->nlines, y->nlines);
}

static int by_sample(const void *va, const void *vb)
{
	const struct item *a = va, *b = vb;
	const struct pprof_profile *p = a->p;
	const struct pprof_sample *x = &p->samples[a->i],
				  *y = &p->samples[b->i];
	int c = cmp_i64(x->pid, y->pid);
	if (!c)
		c = cmp_i64(x->tid, y->tid);
	if (!c)
		c = cmp_i64(x->cpu, y->cpu);
	if (!c && (!x->comm || !y->comm))
		c = cmp_u64(x->comm != NULL, y->comm != NULL);
	if (!c && x->comm)
		c = strcmp(x->comm, y->comm);
	for (size_t i = 0; !c && i < x->nlocs && i < y->nlocs; i++)
		c = cmp_u64(a->rank[p->stack[x->first_loc + i]],
			    a->rank[p->stack[y->first_loc + i]]);
	return c ? c : cmp_u64(x->nlocs, y->nlocs);
}

/* @n items of @p (with @rank) sorted by @cmp, their indexes to *@out. */
static int sorted(const struct pprof_profile *p, const size_t *rank,
		  size_t n, int (*cmp)(const void *, const void *),
		  size_t **out)
{
	struct item *v = calloc(n + 1, sizeof(*v));
	*out = calloc(n + 1, sizeof(**out));
	if (!v || !*out) {
		free(v);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct item){p, rank, i};
	if (n)
		qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++)
		(*out)[i] = v[i].i;
	free(v);
	return 0;
}

int pprof_order(const struct pprof_profile *p, size_t **loc_rank,
		size_t **loc_order, size_t **sample_order)
{
	*loc_rank = *sample_order = NULL;
	int err = sorted(p, NULL, p->nlocs, by_location, loc_order);
	if (!err && !(*loc_rank = calloc(p->nlocs + 1, sizeof(**loc_rank))))
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; !err && i < p->nlocs; i++)
		(*loc_rank)[(*loc_order)[i]] = i;
	if (!err)
		err = sorted(p, *loc_rank, p->nsamples, by_sample,
			     sample_order);
	return err;
}
