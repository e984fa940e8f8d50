/* What `decode --edges` on Intel PT has taken since the last commit
 * point: delta, a count per edge index, and the replays counted on the
 * cached TNT runs (pt_edges_runs.c), whose edges join delta only when it
 * is read. A commit adds it all to the map; a fallback to the block
 * decoder drops it, since that decoder redoes the same part of the
 * trace. Kept apart from the walk and the packet loop because it is the
 * one place that knows how a count travels from a run to the map. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_edges_internal.h"

int64_t pt_edges_edge_index(struct pt_edges *e, uint64_t from, uint64_t to)
{
	int64_t i = hwt_edges_index(e->map, from, to);
	if (i >= 0 && (size_t)i >= e->ndelta) {
		size_t n = e->ndelta ? e->ndelta : 1024;
		while (n <= (size_t)i)
			n *= 2;
		uint64_t *d = realloc(e->delta, n * sizeof(*d));
		if (!d) {
			e->nomem = true;
			return -1;
		}
		memset(d + e->ndelta, 0, (n - e->ndelta) * sizeof(*d));
		e->delta = d;
		e->ndelta = n;
	}
	if (i < 0)
		e->nomem = true;
	else if ((size_t)i >= e->dmax)
		e->dmax = (size_t)i + 1;
	return i;
}

/* Adds every run's replays to delta (before delta is read). */
static void runs_flush(struct pt_edges *e)
{
	for (size_t i = 0; i < e->ncounted; i++) {
		struct run *r = &e->runs[e->counted[i]];
		run_flush(e, r);
		r->listed = false;
	}
	e->ncounted = 0;
}

void pt_edges_commit(struct pt_edges *e)
{
	runs_flush(e);
	for (size_t i = 0; i < e->dmax; i++) {
		if (e->delta[i])
			hwt_edges_count_index(e->map, (uint32_t)i, e->delta[i]);
		e->delta[i] = 0;
	}
}

void pt_edges_drop(struct pt_edges *e)
{
	for (size_t i = 0; i < e->ncounted; i++) {
		e->runs[e->counted[i]].count = 0;
		e->runs[e->counted[i]].listed = false;
	}
	e->ncounted = 0;
	if (e->dmax)
		memset(e->delta, 0, e->dmax * sizeof(*e->delta));
}
