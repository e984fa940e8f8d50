/* Coverage edges (`decode --edges`): the taken branches of a trace as
 * distinct (from, to) pairs with counts, for fuzzers and coverage tools.
 * Decoders fill the edge map (hwtrace/edge_map.h) straight from the trace
 * (the decoder's edges op, backend.h) or through hwt_edges_sink from the
 * element stream; this header adds the writers of a map. */
#ifndef HWTRACE_EDGES_H
#define HWTRACE_EDGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/output.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the edges sorted by from, then to: text "0xFROM->0xTO COUNT"
 * lines, or jsonl {"type":"edge","from":"0x..","to":"0x..","count":N}
 * objects. Errors: HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_edges_write(const struct hwt_edges *edges, FILE *out,
			    enum hwt_output_format format);

/* The AFL bitmap slot of an edge in a map of @size bytes (a power of
 * two): AFL's cur_loc ^ (prev_loc >> 1) with cur_loc = H(to) and
 * prev_loc = H(from), where H(a) is the high 32 bits of
 * a * 0x9e3779b97f4a7c15 (mod 2^64), taken modulo @size. */
HWT_API size_t hwt_edges_bitmap_slot(uint64_t from, uint64_t to, size_t size);

/* Fills the AFL-style bitmap @map of @size bytes (a power of two): zeroed,
 * then each edge adds its count to its slot (hwt_edges_bitmap_slot),
 * saturating at 255. Errors: HWT_ERR_INVAL (size not a power of two). */
HWT_API int hwt_edges_bitmap(const struct hwt_edges *edges, uint8_t *map,
			     size_t size);

#ifdef __cplusplus
}
#endif

#endif
