/* The merge's records in compact form: each element written as its
 * difference from the stream's previous element of the same type, so that
 * the temporary file holds about a tenth of the bytes of the elements
 * themselves (a range differs from the range before it in two or three
 * addresses, by small amounts). */
#ifndef HWT_MERGE_CODEC_H
#define HWT_MERGE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/element.h"

#define MERGE_ELEM_WORDS (sizeof(struct hwt_elem) / sizeof(uint64_t))
#define MERGE_ELEM_TYPES (HWT_ELEM_SAMPLE + 1)

/* One direction (writing or reading) of one stream: what the next record
 * is a difference from. Starts all zero. */
struct merge_codec {
	uint64_t order_time;
	uint64_t prev[MERGE_ELEM_TYPES][MERGE_ELEM_WORDS];
};

/* The most bytes a record takes whose element points to @payload_size
 * bytes (a string with its NUL, a sample's branches: hwt_elem_payload). */
size_t merge_rec_max(size_t payload_size);

/* Writes @e (merged at @order_time) and the @payload_size bytes its
 * pointer points to at @out, which has merge_rec_max(@payload_size)
 * bytes of room. Returns the bytes written. */
size_t merge_rec_put(struct merge_codec *c, uint8_t *out,
		     const struct hwt_elem *e, size_t payload_size,
		     uint64_t order_time);

/* Reads the record at @in (@size bytes left) into @e, whose pointer then
 * points into @in, and its @order_time. Returns the bytes read, or 0 when
 * the record is cut short or not a record (a damaged temporary file). */
size_t merge_rec_get(struct merge_codec *c, const uint8_t *in, size_t size,
		     struct hwt_elem *e, uint64_t *order_time);

#endif
