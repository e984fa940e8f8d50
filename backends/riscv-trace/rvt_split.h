/* Where an N-Trace stream may be cut for a parallel decode. */
#ifndef HWT_RVT_SPLIT_H
#define HWT_RVT_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"

/* Segments are at least about this long (tests make them shorter). */
extern size_t rvt_split_bytes;

/* The split op: cuts before ProgTraceSync messages that follow a
 * ProgTraceCorrelation or an Error message (or nothing), where a
 * decoder that went through the bytes before is not synchronized
 * either, so a fresh one decodes from there the same. Streams with SRC
 * fields (several harts) are not cut. */
int rvt_split(void *priv, const struct hwt_aux_chunk *chunk, uint64_t *starts,
	      size_t max);

#endif
