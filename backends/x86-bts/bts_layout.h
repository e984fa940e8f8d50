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

/* The bytes of zero padding at stream offset @s (@avail bytes from @p),
 * or 0: where the kernel's full-trace buffer wraps, its end holds (buffer
 * size % 24) zero bytes, 8 or 16 for any power-of-two number of pages,
 * and records go on at the buffer's start, which is page aligned in the
 * AUX stream. Such padding is zeros up to a page boundary followed by a
 * record (whose `from` is never 0); a zero record there is not padding. */
size_t hwt_bts_wrap_pad(uint64_t s, const uint8_t *p, size_t avail);

#endif
