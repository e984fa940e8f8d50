/* Compact merge records (merge_codec.h). A record is:
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
#include <string.h>

#include "analysis/merge/merge_codec.h"

_Static_assert(sizeof(struct hwt_elem) % sizeof(uint64_t) == 0,
	       "the element is read as whole 64-bit words");
_Static_assert(MERGE_ELEM_WORDS < 16, "the word mask fits two varint bytes");

#define VARINT_MAX 10

/* Inline: most differences fit one byte. */
static inline size_t put_varint(uint8_t *out, uint64_t v)
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

/* 0 when @in holds no whole varint within @size bytes. Inline, with
 * the one-byte case first. */
static inline size_t get_varint(const uint8_t *in, size_t size, uint64_t *v)
{
	if (size && in[0] < 0x80) {
		*v = in[0];
		return 1;
	}
	uint64_t r = 0;
	for (size_t i = 0; i < size && i < VARINT_MAX; i++) {
		r |= (uint64_t)(in[i] & 0x7f) << (7 * i);
		if (!(in[i] & 0x80)) {
			*v = r;
			return i + 1;
		}
	}
	return 0;
}

/* Differences near zero either way become small varints. */
static uint64_t zigzag(uint64_t diff)
{
	return (diff << 1) ^ (uint64_t)((int64_t)diff >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

size_t merge_rec_max(size_t payload_size)
{
	return 1 + VARINT_MAX + 2 + MERGE_ELEM_WORDS * VARINT_MAX +
	       VARINT_MAX + 8 + payload_size;
}

size_t merge_rec_put(struct merge_codec *c, uint8_t *out,
		     const struct hwt_elem *e, size_t payload_size,
		     uint64_t order_time)
{
	uint64_t w[MERGE_ELEM_WORDS];
	memcpy(w, e, sizeof(w));
	/* Read only: the pointer's place in the element. */
	const void **ptr = hwt_elem_pointer((struct hwt_elem *)e);
	const void *payload = ptr ? *ptr : NULL;
	if (ptr)
		w[((const uint8_t *)ptr - (const uint8_t *)e) / sizeof(*w)] = 0;
	uint64_t *prev = c->prev[(unsigned)e->type < MERGE_ELEM_TYPES ? e->type : 0];

	size_t n = 0;
	out[n++] = (uint8_t)e->type;
	n += put_varint(out + n, zigzag(order_time - c->order_time));
	c->order_time = order_time;
	uint64_t mask = 0;
	/* Unrolled: the loop's own steps were a third of the compare's. */
#pragma GCC unroll 16
	for (size_t i = 0; i < MERGE_ELEM_WORDS; i++)
		mask |= (uint64_t)(w[i] != prev[i]) << i;
	n += put_varint(out + n, mask);
	for (uint64_t m = mask; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		n += put_varint(out + n, zigzag(w[i] - prev[i]));
		prev[i] = w[i];
	}
	n += put_varint(out + n, payload_size);
	if (!payload_size)
		return n;
	uint8_t pad = (uint8_t)(-(uintptr_t)(out + n + 1) & 7);
	out[n++] = pad;
	memset(out + n, 0, pad);
	n += pad;
	memcpy(out + n, payload, payload_size);
	return n + payload_size;
}

size_t merge_rec_get(struct merge_codec *c, const uint8_t *in, size_t size,
		     struct hwt_elem *e, uint64_t *order_time)
{
	if (!size || in[0] >= MERGE_ELEM_TYPES)
		return 0;
	uint64_t *prev = c->prev[in[0]];
	size_t n = 1, k;
	uint64_t v, mask;
	if (!(k = get_varint(in + n, size - n, &v)))
		return 0;
	n += k;
	if (!(k = get_varint(in + n, size - n, &mask)) ||
	    mask >> MERGE_ELEM_WORDS)
		return 0;
	n += k;
	c->order_time += unzigzag(v);
	for (uint64_t m = mask; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		if (!(k = get_varint(in + n, size - n, &v)))
			return 0;
		n += k;
		prev[i] += unzigzag(v);
	}
	uint64_t payload_size;
	if (!(k = get_varint(in + n, size - n, &payload_size)))
		return 0;
	n += k;
	if (payload_size) {
		if (n >= size || in[n] > 7 || (size_t)in[n] + 1 > size - n)
			return 0;
		n += 1 + in[n];
	}
	if (payload_size > size - n)
		return 0;
	memcpy(e, prev, sizeof(*e));
	const void **ptr = hwt_elem_pointer(e);
	if (ptr)
		*ptr = payload_size ? in + n : NULL;
	if (e->type == HWT_ELEM_ERROR && !payload_size)
		e->u.error.message = "";
	*order_time = c->order_time;
	return n + (size_t)payload_size;
}
