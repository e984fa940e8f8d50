/* Elements kept whole (elem_store.h). */
#include <stdlib.h>
#include <string.h>

#include "core/decode/array_grow.h"
#include "core/decode/elem_store.h"

int64_t elem_store_put(struct elem_store *s, const struct hwt_elem *e)
{
	if (!array_grow((void **)&s->e, &s->cap, sizeof(*s->e), s->n + 1))
		return -1;
	struct hwt_elem *c = &s->e[s->n];
	*c = *e;
	size_t len;
	const void *p = hwt_elem_payload(e, &len);
	if (p) {
		uintptr_t off = 0;
		if (len) {
			size_t at = (s->used + 7) & ~(size_t)7;
			if (!array_grow((void **)&s->arena, &s->arena_cap, 1, at + len))
				return -1;
			memcpy(s->arena + at, p, len);
			s->used = at + len;
			off = at + 1;
		}
		*hwt_elem_pointer(c) = (const void *)off;
	}
	return (int64_t)s->n++;
}

void elem_store_get(const struct elem_store *s, size_t i, struct hwt_elem *out)
{
	*out = s->e[i];
	const void **ptr = hwt_elem_pointer(out);
	if (ptr) {
		uintptr_t off = (uintptr_t)*ptr;
		*ptr = off ? s->arena + off - 1 : NULL;
	}
}

/* The offset + 1 that element @e's pointer holds; 0 when none. */
static uintptr_t stored_at(struct hwt_elem *e)
{
	const void **ptr = hwt_elem_pointer(e);
	return ptr ? (uintptr_t)*ptr : 0;
}

void elem_store_drop(struct elem_store *s, size_t k)
{
	size_t cut = s->used;
	for (size_t i = k; i < s->n && cut == s->used; i++)
		if (stored_at(&s->e[i]))
			cut = stored_at(&s->e[i]) - 1;
	cut &= ~(size_t)7; /* the arena's alignment */
	if (cut) {
		memmove(s->arena, s->arena + cut, s->used - cut);
		s->used -= cut;
	}
	memmove(s->e, s->e + k, (s->n - k) * sizeof(*s->e));
	s->n -= k;
	for (size_t i = 0; i < s->n && cut; i++) {
		uintptr_t off = stored_at(&s->e[i]);
		if (off)
			*hwt_elem_pointer(&s->e[i]) = (const void *)(off - cut);
	}
}

void elem_store_clear(struct elem_store *s)
{
	s->n = s->used = 0;
}

void elem_store_free(struct elem_store *s)
{
	free(s->e);
	free(s->arena);
	memset(s, 0, sizeof(*s));
}
