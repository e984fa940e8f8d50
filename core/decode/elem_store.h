/* Elements kept whole, each with a copy of the string or branch array its
 * pointer points to, for the few elements that do not fit a slot
 * (elem_slot.h): the attribution's waiting elements (attr_queue.c) and a
 * parallel decode's batches (par_batch.c). A kept element's pointer holds
 * 1 + the offset of its copy in the arena (0: none) until it is read
 * back with elem_store_get. */
#ifndef HWT_CORE_DECODE_ELEM_STORE_H
#define HWT_CORE_DECODE_ELEM_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/element.h"

struct elem_store {
	struct hwt_elem *e;
	size_t n, cap;
	uint8_t *arena; /* payloads, each at an 8-byte boundary (a sample's
			 * branch array is read in place) */
	size_t used, arena_cap;
};

/* Keeps a copy of @e (an empty payload becomes NULL); returns its index,
 * or -1 when out of memory. */
int64_t elem_store_put(struct elem_store *s, const struct hwt_elem *e);

/* Element @i into @out, its pointer to its copy in the arena. */
void elem_store_get(const struct elem_store *s, size_t i, struct hwt_elem *out);

/* Drops the first @k elements and the payload bytes only they used: the
 * rest move to the front (indexes less @k). */
void elem_store_drop(struct elem_store *s, size_t k);

/* Empties @s, keeping its memory. */
void elem_store_clear(struct elem_store *s);
/* Frees its memory; @s is then empty. */
void elem_store_free(struct elem_store *s);

#endif
