/* The merge's records in compact form: each element written as its
 * difference from the stream's previous element of the same type, so that
 * the temporary file holds about a tenth of the bytes of the elements
 * themselves (a range differs from the range before it in two or three
 * addresses, by small amounts).
 *
 * A record is one byte, the type with MERGE_REPEAT set, when the element
 * equals the previous element of its type in every word, points to
 * nothing and keeps the order time (a loop's ranges and branches, over
 * and over). Otherwise it is:
 *   type (1 byte)
 *   order time, as a zigzag varint difference from the stream's last
 *   a mask of the element's 64-bit words that differ from the previous
 *     element of that type (varint), then each such word as a zigzag
 *     varint difference
 *   the payload's size (varint); when not 0, a byte that says how many
 *   zero bytes follow it to put the payload at an 8-byte boundary (a
 *   sample's branch array is read in place), then the payload.
 * The element's pointer is left out of the words (it is rebuilt to point
 * at the payload), so only values are compared. */
#ifndef HWT_MERGE_CODEC_H
#define HWT_MERGE_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/element.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MERGE_ELEM_WORDS (sizeof(struct hwt_elem) / sizeof(uint64_t))
#define MERGE_ELEM_TYPES (HWT_ELEM_SAMPLE + 1)
/* Set in a record's type byte: the previous element of that type again. */
#define MERGE_REPEAT 0x80u

/* One direction (writing or reading) of one stream: what the next record
 * is a difference from. Starts all zero. */
struct merge_codec {
	uint64_t order_time;
	/* Elements, so that a reader may hand one out in place; their
	 * words are read and written through merge_word and
	 * merge_set_word (by bytes: no aliasing of the element's
	 * fields). */
	struct hwt_elem prev[MERGE_ELEM_TYPES];
};

static inline uint64_t merge_word(const struct hwt_elem *e, unsigned i)
{
	uint64_t w;
	memcpy(&w, (const char *)e + 8 * i, sizeof(w));
	return w;
}

static inline void merge_set_word(struct hwt_elem *e, unsigned i, uint64_t w)
{
	memcpy((char *)e + 8 * i, &w, sizeof(w));
}

/* Bit i set where word i of @w differs from that of @prev. With SSE2 (all
 * x86-64) two words at a time: the scalar compare was a quarter of the
 * writer's instructions (6 a word), this about half of that. */
static inline uint64_t merge_diff_mask(const uint64_t *w,
				       const struct hwt_elem *prev)
{
	uint64_t mask = 0;
	size_t i = 0;
#if defined(__SSE2__)
	const char *p = (const char *)prev;
	unsigned eq = 0;
#pragma GCC unroll 8
	for (; i + 2 <= MERGE_ELEM_WORDS; i += 2) {
		__m128i x = _mm_cmpeq_epi32(
			_mm_loadu_si128((const __m128i *)(const void *)(w + i)),
			_mm_loadu_si128((const __m128i *)(const void *)(p + 8 * i)));
		/* A word is equal where both its halves are. */
		x = _mm_and_si128(x, _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)));
		eq |= (unsigned)_mm_movemask_pd(_mm_castsi128_pd(x)) << i;
	}
	mask = ~(uint64_t)eq & (((uint64_t)1 << i) - 1);
#endif
	/* Unrolled: the loop's own steps were a third of the compare's. */
#pragma GCC unroll 16
	for (; i < MERGE_ELEM_WORDS; i++)
		mask |= (uint64_t)(w[i] != merge_word(prev, (unsigned)i)) << i;
	return mask;
}

/* The word of an element of each type that holds its pointer
 * (hwt_elem_pointer: a range's text, a gap's detail, an error's message,
 * a trace on/off's cause, a sample's branches); 0 for a type without
 * one (word 0 holds the type, never a pointer). A table, not
 * hwt_elem_pointer's switch: the writer asks it for every element
 * (test_merge_orders_by_time checks that the two agree). */
extern const uint8_t merge_ptr_word[MERGE_ELEM_TYPES];

/* merge_ptr_word for any @type: 0 for one the merge does not know. */
static inline unsigned merge_pointer_word(unsigned type)
{
	return type < MERGE_ELEM_TYPES ? merge_ptr_word[type] : 0;
}

/* What @e points to and its size (hwt_elem_payload), looked up only when
 * its pointer is set: most elements point to nothing. */
static inline const void *merge_payload(const struct hwt_elem *e,
					size_t *payload_size)
{
	unsigned pw = merge_pointer_word((unsigned)e->type);
	uint64_t word = 0;
	if (pw)
		memcpy(&word, (const uint64_t *)e + pw, sizeof(word));
	*payload_size = 0;
	return word ? hwt_elem_payload(e, payload_size) : NULL;
}

#define MERGE_VARINT_MAX 10

/* The most bytes a record takes whose element points to @payload_size
 * bytes (a string with its NUL, a sample's branches: hwt_elem_payload). */
static inline size_t merge_rec_max(size_t payload_size)
{
	return 1 + MERGE_VARINT_MAX + 2 + MERGE_ELEM_WORDS * MERGE_VARINT_MAX +
	       MERGE_VARINT_MAX + 8 + payload_size;
}

/* Inline: most differences fit one byte. */
static inline size_t merge_put_varint(uint8_t *out, uint64_t v)
{
	if (v < 0x80) {
		*out = (uint8_t)v;
		return 1;
	}
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

/* Differences near zero either way become small varints. */
static inline uint64_t merge_zigzag(uint64_t diff)
{
	return (diff << 1) ^ (uint64_t)((int64_t)diff >> 63);
}

/* Writes @e (merged at @order_time), whose pointer points to @payload of
 * @payload_size bytes (hwt_elem_payload; NULL and 0 when nothing), at
 * @out, which has merge_rec_max(@payload_size) bytes of room. Returns the
 * bytes written. Inline: the writer's one call per element, whose entry
 * and exit cost a tenth of it out of line. */
static inline size_t merge_rec_put(struct merge_codec *c, uint8_t *out,
				   const struct hwt_elem *e,
				   const void *payload, size_t payload_size,
				   uint64_t order_time)
{
	unsigned type = (unsigned)e->type;
	unsigned pw = merge_pointer_word(type);
	uint64_t w[MERGE_ELEM_WORDS];
	memcpy(w, e, sizeof(w));
	/* The pointer is left out: only values are compared. */
	if (pw)
		w[pw] = 0;
	struct hwt_elem *prev = &c->prev[type < MERGE_ELEM_TYPES ? type : 0];
	uint64_t mask = merge_diff_mask(w, prev);

	/* A repeat: the same words, no payload, the same order time. One
	 * mask serves both this test and the record below (most records
	 * are not repeats, so a separate test first cost a third more). */
	if (!mask && !payload_size && order_time == c->order_time &&
	    type < MERGE_ELEM_TYPES) {
		out[0] = (uint8_t)(type | MERGE_REPEAT);
		return 1;
	}
	size_t n = 0;
	out[n++] = (uint8_t)e->type;
	n += merge_put_varint(out + n, merge_zigzag(order_time - c->order_time));
	c->order_time = order_time;
	n += merge_put_varint(out + n, mask);
	for (uint64_t m = mask; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		n += merge_put_varint(out + n,
				      merge_zigzag(w[i] - merge_word(prev, i)));
		merge_set_word(prev, i, w[i]);
	}
	n += merge_put_varint(out + n, payload_size);
	if (!payload_size)
		return n;
	uint8_t pad = (uint8_t)(-(uintptr_t)(out + n + 1) & 7);
	out[n++] = pad;
	memset(out + n, 0, pad);
	n += pad;
	memcpy(out + n, payload, payload_size);
	return n + payload_size;
}

/* 0 when @in holds no whole varint within @size bytes. Inline, with
 * the one-byte case first. */
static inline size_t merge_get_varint(const uint8_t *in, size_t size, uint64_t *v)
{
	if (size && in[0] < 0x80) {
		*v = in[0];
		return 1;
	}
	uint64_t r = 0;
	for (size_t i = 0; i < size && i < MERGE_VARINT_MAX; i++) {
		r |= (uint64_t)(in[i] & 0x7f) << (7 * i);
		if (!(in[i] & 0x80)) {
			*v = r;
			return i + 1;
		}
	}
	return 0;
}

static inline uint64_t merge_unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

/* Reads the record at @in (@size bytes left) and its @order_time; *@out
 * is then the element: the codec's own words when it points to nothing
 * (valid until the next call), else @scratch, whose pointer points into
 * @in. Pointing at the words instead of copying them saves a copy of the
 * element per record. Returns the bytes read, or 0 when the record is
 * cut short or not a record (a damaged temporary file). Inline, as
 * merge_rec_put is. */
static inline size_t merge_rec_get(struct merge_codec *c, const uint8_t *in,
				   size_t size, struct hwt_elem *scratch,
				   const struct hwt_elem **out,
				   uint64_t *order_time)
{
	if (size && in[0] & MERGE_REPEAT &&
	    (in[0] & ~MERGE_REPEAT) < MERGE_ELEM_TYPES) {
		unsigned type = in[0] & ~MERGE_REPEAT;
		/* Its pointer word is 0 (it points to nothing), as stored. */
		*out = &c->prev[type];
		if (type == HWT_ELEM_ERROR) {
			memcpy(scratch, &c->prev[type], sizeof(*scratch));
			scratch->u.error.message = "";
			*out = scratch;
		}
		*order_time = c->order_time;
		return 1;
	}
	if (!size || in[0] >= MERGE_ELEM_TYPES)
		return 0;
	struct hwt_elem *prev = &c->prev[in[0]];
	size_t n = 1, k;
	uint64_t v, mask;
	if (!(k = merge_get_varint(in + n, size - n, &v)))
		return 0;
	n += k;
	if (!(k = merge_get_varint(in + n, size - n, &mask)) ||
	    mask >> MERGE_ELEM_WORDS)
		return 0;
	n += k;
	c->order_time += merge_unzigzag(v);
	for (uint64_t m = mask; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		if (!(k = merge_get_varint(in + n, size - n, &v)))
			return 0;
		n += k;
		merge_set_word(prev, i, merge_word(prev, i) + merge_unzigzag(v));
	}
	uint64_t payload_size;
	if (!(k = merge_get_varint(in + n, size - n, &payload_size)))
		return 0;
	n += k;
	if (payload_size) {
		if (n >= size || in[n] > 7 || (size_t)in[n] + 1 > size - n)
			return 0;
		n += 1 + in[n];
	}
	if (payload_size > size - n)
		return 0;
	*order_time = c->order_time;
	unsigned pw = merge_pointer_word(in[0]);
	/* The pointer word is 0, as the writer stored it; set again, so
	 * that a damaged record's difference there is never a pointer
	 * (the element below and a repeat read the words in place). */
	if (pw)
		merge_set_word(prev, pw, 0);
	if (!payload_size && in[0] != HWT_ELEM_ERROR) {
		*out = prev;
		return n;
	}
	memcpy(scratch, prev, sizeof(*scratch));
	if (pw) /* where hwt_elem_pointer says */
		*(const void **)(void *)((uint64_t *)scratch + pw) =
			payload_size ? in + n : NULL;
	if (scratch->type == HWT_ELEM_ERROR && !payload_size)
		scratch->u.error.message = "";
	*out = scratch;
	return n + (size_t)payload_size;
}

#endif
