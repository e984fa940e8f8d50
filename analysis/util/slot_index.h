/* The index behind the analysis maps (strmap.h, pairmap.h): entries live
 * in an array in order of insertion (so an entry's place is a stable id)
 * and an open-addressing table of slots holds index + 1 (0: empty), with
 * linear probing. The maps differ only in their keys; the table's
 * rebuild is here once. */
#ifndef HWT_ANALYSIS_UTIL_SLOT_INDEX_H
#define HWT_ANALYSIS_UTIL_SLOT_INDEX_H

#include <stddef.h>
#include <stdlib.h>

/* The next slot after @h in a table of @nslots (a power of two). */
static inline size_t slot_next(size_t h, size_t nslots)
{
	return (h + 1) & (nslots - 1);
}

/* Replaces *@slots (*@nslots of them) by a table of @nslots slots (a
 * power of two) indexing entries 0 .. @n - 1, entry i starting its probe
 * at @home(@entries, i, @nslots). -1 when out of memory (the old table
 * stays), else 0. */
static inline int slot_index_rebuild(size_t **slots, size_t *nslots_out,
				     size_t nslots, size_t n,
				     size_t (*home)(const void *entries,
						    size_t i, size_t nslots),
				     const void *entries)
{
	size_t *t = calloc(nslots, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t h = home(entries, i, nslots);
		while (t[h])
			h = slot_next(h, nslots);
		t[h] = i + 1;
	}
	free(*slots);
	*slots = t;
	*nslots_out = nslots;
	return 0;
}

#endif
