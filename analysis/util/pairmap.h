/* A hash map keyed by a pair of integers, for the analysis writers that
 * key by ids rather than text: a call-path tree's (parent, frame) nodes,
 * counters per (known callers, node). Values are a small fixed array the
 * caller interprets. Entries stay in order of insertion, so an entry's
 * index is a stable id. */
#ifndef HWT_ANALYSIS_PAIRMAP_H
#define HWT_ANALYSIS_PAIRMAP_H

#include <stddef.h>
#include <stdint.h>

struct hwt_pairmap_entry {
	uint64_t a, b;
	uint64_t v[4];   /* the caller's values, zero when created */
};

struct hwt_pairmap {
	struct hwt_pairmap_entry *e;  /* in order of insertion */
	size_t n, cap;
	size_t *slots;                /* index + 1, 0 empty */
	size_t nslots;
};

/* The entry for (@a, @b), created zeroed when new; NULL when out of
 * memory. The pointer is valid until the next call that adds an entry. */
struct hwt_pairmap_entry *hwt_pairmap_get(struct hwt_pairmap *m, uint64_t a,
					  uint64_t b);

/* The entry for (@a, @b), or NULL when there is none. */
const struct hwt_pairmap_entry *hwt_pairmap_find(const struct hwt_pairmap *m,
						 uint64_t a, uint64_t b);

/* *@dst (empty or freed) made a copy of @src; -1 when out of memory (then
 * *@dst is empty). */
int hwt_pairmap_copy(struct hwt_pairmap *dst, const struct hwt_pairmap *src);

/* Every entry removed, the memory kept for the next ones. */
void hwt_pairmap_clear(struct hwt_pairmap *m);

void hwt_pairmap_free(struct hwt_pairmap *m);

#endif
