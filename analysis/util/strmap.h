/* A string-keyed hash map for the analysis writers: function names and
 * folded stacks to their counters. Keys are copied; values are a small
 * fixed struct the caller interprets. */
#ifndef HWT_ANALYSIS_STRMAP_H
#define HWT_ANALYSIS_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct hwt_strmap_entry {
	char *key;
	uint64_t v[8];   /* the caller's counters, zero when created */
};

struct hwt_strmap {
	struct hwt_strmap_entry *e;  /* in order of insertion */
	size_t n, cap;
	size_t *slots;               /* index + 1, 0 empty */
	size_t nslots;
};

/* The entry for @key (@len bytes), created zeroed when new; NULL when out
 * of memory. The pointer is valid until the next call. */
struct hwt_strmap_entry *hwt_strmap_get(struct hwt_strmap *m, const char *key,
					size_t len);

void hwt_strmap_free(struct hwt_strmap *m);

#endif
