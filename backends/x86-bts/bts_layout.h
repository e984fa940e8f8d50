/* Where the records of a BTS buffer lie: in a wrapped snapshot the driver
 * leaves (buffer size % 24) bytes of zero padding at the wrap point, and
 * consecutive snapshots of one buffer repeat each other's records. */
#ifndef HWT_BTS_LAYOUT_H
#define HWT_BTS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct hwt_bts_span {
	size_t start, len;
};

/* Splits a snapshot of @size bytes into at most two spans of whole
 * records around the wrap padding. Returns the number of spans. */
int hwt_bts_snapshot_spans(const uint8_t *data, size_t size,
			   struct hwt_bts_span spans[2]);

/* How many bytes at the start of snapshot @b repeat the end of the previous
 * snapshot @a (0 when they do not overlap), trying record-aligned suffixes
 * of @a from the longest, as perf's intel_bts decoder does. */
size_t hwt_bts_overlap(const uint8_t *a, size_t la, const uint8_t *b,
		       size_t lb);

#endif
