/* Where each type of element keeps its pointer, for the merge's records
 * (merge_codec.h, which holds the record layout and the codec, inline). */
#include <stddef.h>

#include "core/merge/merge_codec.h"

_Static_assert(sizeof(struct hwt_elem) % sizeof(uint64_t) == 0,
	       "the element is read as whole 64-bit words");
_Static_assert(MERGE_ELEM_WORDS < 16, "the word mask fits two varint bytes");
_Static_assert(sizeof(void *) == sizeof(uint64_t),
	       "a pointer fills one word of the element");

const uint8_t merge_ptr_word[MERGE_ELEM_TYPES] = {
	[HWT_ELEM_RANGE] = offsetof(struct hwt_elem, u.range.text) / 8,
	[HWT_ELEM_GAP] = offsetof(struct hwt_elem, u.gap.detail) / 8,
	[HWT_ELEM_ERROR] = offsetof(struct hwt_elem, u.error.message) / 8,
	[HWT_ELEM_SAMPLE] = offsetof(struct hwt_elem, u.sample.branches) / 8,
	[HWT_ELEM_TRACE_ON] = offsetof(struct hwt_elem, u.trace.cause) / 8,
	[HWT_ELEM_TRACE_OFF] = offsetof(struct hwt_elem, u.trace.cause) / 8,
};
