/* A decode's edge map written as `hwtrace decode --edges` lists it: the
 * edges as lines (text or jsonl), an AFL-style bitmap (--edges-bitmap
 * SIZE) or a partial result that merges (--edges --partial), and the
 * summary line of what the decode counted. A fuzzing harness or a batch
 * worker that fills a map with hwt_edges_sink gets the same bytes. */
#ifndef HWTRACE_DECODE_EDGES_H
#define HWTRACE_DECODE_EDGES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/output.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_decode_edges_out {
	size_t size;          /* sizeof(struct hwt_decode_edges_out) */
	FILE *out;
	/* Names @out in a write error; NULL: "standard output". */
	const char *out_name;
	/* The lines' format (hwt_edges_write); not used by the others. */
	enum hwt_output_format format;
	/* An AFL bitmap of this many bytes (a power of two) instead of the
	 * lines; 0: not asked. */
	uint64_t bitmap;
	/* A partial result instead (hwt_partial_from_edges, written by
	 * hwt_partial_write); it wins over @bitmap. */
	bool partial;
};

/* Writes @edges as @o asks. Errors: HWT_ERR_INVAL (size, no out, a bitmap
 * size not a power of two), HWT_ERR_NOMEM, HWT_ERR_IO ("writing NAME:
 * REASON"). */
HWT_API int hwt_decode_edges_write(const struct hwt_edges *edges,
				   const struct hwt_decode_edges_out *o);

/* The summary line `hwtrace decode --edges` prints on standard error,
 * after @prefix: "N edges (T taken branches), O overflows, E errors, G
 * other gaps", and "; F chunks decoded (in part) by the element decoder"
 * when the backend's edges op left some to the element decoder. */
HWT_API void hwt_decode_edges_summary_print(FILE *f, const char *prefix,
					    struct hwt_edges *edges);

#ifdef __cplusplus
}
#endif

#endif
