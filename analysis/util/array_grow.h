/* Growing an array by doubling: the one place the analysis writers'
 * growing arrays (threads, frames, functions, edges, merge chunks...)
 * reallocate. analysis/ reads only public headers, so it has its own
 * rather than the core's (core/decode/array_grow.h). */
#ifndef HWT_ANALYSIS_UTIL_ARRAY_GROW_H
#define HWT_ANALYSIS_UTIL_ARRAY_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Grows *@v (room for *@cap items of @size bytes) so that it holds at
 * least @need items, doubling from @first; false when out of memory or
 * when the size does not fit a size_t (then *@v and *@cap are as they
 * were). */
static inline bool array_grow(void **v, size_t *cap, size_t size, size_t need,
			      size_t first)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : (first ? first : 1);
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return false;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return false;
	void *p = realloc(*v, n * size);
	if (!p)
		return false;
	*v = p;
	*cap = n;
	return true;
}

#endif
