/* The edge map, a backend-author type (backend.h's edges op fills it):
 * the distinct taken branches (from, to) of a trace with their counts, in
 * a hash map whose entries keep their index so that a decoder can cache
 * indices, and a sink that counts an element stream's branches, overflows
 * and errors into it. Part of the core; what writes a map out (text,
 * jsonl, the AFL bitmap) is in hwtrace/edges.h. */
#ifndef HWTRACE_EDGE_MAP_H
#define HWTRACE_EDGE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One distinct taken branch and how often it was taken. */
struct hwt_edge {
	uint64_t from, to;
	uint64_t count;
};

/* What the decode of the edges met besides branches. */
struct hwt_edges_stats {
	uint64_t overflows; /* trace the hardware dropped (Intel PT OVF, ...) */
	uint64_t errors;    /* decode errors (the decode resynchronised) */
	uint64_t gaps;      /* other gaps: lost data, missing code, no sync */
	/* Chunks (segments of a piece the op takes, or pieces it declines)
	 * that went (in part) through the element decoder: the backend's
	 * edges op could not decode them from the packets alone, or does
	 * not take such streams (Intel PT's per-CPU streams). */
	uint64_t fallbacks;
};

/* The edge map: a hash map keyed by (from, to). */
struct hwt_edges;

/* A new, empty map; NULL when out of memory. */
HWT_API struct hwt_edges *hwt_edges_new(void);

/* Frees the map; NULL is a no-op. */
HWT_API void hwt_edges_free(struct hwt_edges *edges);

/* Adds @count takings of the edge @from -> @to. Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_edges_add(struct hwt_edges *edges, uint64_t from, uint64_t to,
			  uint64_t count);

/* The index of the edge @from -> @to, inserting it with count 0 when new,
 * so that a decoder can remember it and count with hwt_edges_count_index.
 * Indices stay valid for the map's life. Returns the index (>= 0) or
 * HWT_ERR_NOMEM. */
HWT_API int64_t hwt_edges_index(struct hwt_edges *edges, uint64_t from,
				uint64_t to);

/* Adds @count takings of the edge of index @idx (from hwt_edges_index). */
HWT_API void hwt_edges_count_index(struct hwt_edges *edges, uint32_t idx,
				   uint64_t count);

/* The counters of what was not a branch; the decoders add to them. */
HWT_API struct hwt_edges_stats *hwt_edges_stats(struct hwt_edges *edges);

/* The number of distinct edges taken at least once. */
HWT_API size_t hwt_edges_size(const struct hwt_edges *edges);

/* The sum of the counts of all edges. */
HWT_API uint64_t hwt_edges_total(const struct hwt_edges *edges);

/* The count of @from -> @to (0 when never taken). */
HWT_API uint64_t hwt_edges_count(const struct hwt_edges *edges, uint64_t from,
				 uint64_t to);

/* Adds every edge of @src, with its count, and its stats to @dst: the
 * map of a decode done in parts (one per thread) made whole. Errors:
 * HWT_ERR_NOMEM (@dst then holds part of @src). */
HWT_API int hwt_edges_merge(struct hwt_edges *dst, const struct hwt_edges *src);

/* The edges taken at least once, sorted by from, then to, in a new array
 * the caller frees; *n gets their number. Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_edges_sorted(const struct hwt_edges *edges,
			     struct hwt_edge **out, size_t *n);

/* A sink that counts the element stream's branches (from -> to) into
 * @edges, and its overflow gaps, other gaps and errors into the stats.
 * Valid while @edges is. */
HWT_API struct hwt_elem_sink hwt_edges_sink(struct hwt_edges *edges);

#ifdef __cplusplus
}
#endif

#endif
