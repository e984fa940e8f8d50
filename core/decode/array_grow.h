/* Growing an array by doubling, for the decode's element buffers and
 * the attribution's runs and segments (elem_store.c, par_batch.c,
 * decode_attr.c). */
#ifndef HWT_CORE_DECODE_ARRAY_GROW_H
#define HWT_CORE_DECODE_ARRAY_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* Grows *@v (room for *@cap items of @size) to hold @need, doubling from
 * 16; false when out of memory, *@v then as it was. */
static inline bool array_grow(void **v, size_t *cap, size_t size, size_t need)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *p = realloc(*v, n * size);
	if (!p)
		return false;
	*v = p;
	*cap = n;
	return true;
}

#endif
