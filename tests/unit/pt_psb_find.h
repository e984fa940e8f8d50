/* Test helper: where the next Intel PT PSB packet (02 82, eight times)
 * starts in a raw stream. */
#ifndef HWT_TESTS_UNIT_PT_PSB_FIND_H
#define HWT_TESTS_UNIT_PT_PSB_FIND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The offset of the first whole PSB in @d's bytes [@lo, @hi), or @hi
 * when none starts there. */
static inline size_t pt_psb_find(const uint8_t *d, size_t lo, size_t hi)
{
	static const uint8_t psb[16] = {2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82};
	for (size_t i = lo; i + sizeof(psb) <= hi; i++)
		if (!memcmp(d + i, psb, sizeof(psb)))
			return i;
	return hi;
}

#endif
