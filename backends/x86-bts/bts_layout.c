/* Where the records of BTS buffers lie (bts_layout.h). */
#include <string.h>

#include "hwtrace/bts_format.h"
#include "backends/x86-bts/bts_layout.h"

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int hwt_bts_snapshot_spans(const uint8_t *data, size_t size,
			   struct hwt_bts_span spans[2])
{
	size_t pad = size % HWT_BTS_RECORD_SIZE;

	spans[0].start = 0;
	spans[0].len = size;
	if (!pad)
		return 1;
	/* Records never start with a zero `from` and `to` but padding does,
	 * so the first record-aligned run of zeros is the wrap point. */
	for (size_t k = 0; k + pad <= size; k += HWT_BTS_RECORD_SIZE) {
		if (!all_zero(data + k, pad))
			continue;
		if (k + pad == size)
			return 1; /* the buffer did not wrap: padding at the end */
		spans[0].len = k;
		spans[1].start = k + pad;
		spans[1].len = size - k - pad;
		return 2;
	}
	return 1;
}

size_t hwt_bts_overlap(const uint8_t *a, size_t la, const uint8_t *b,
		       size_t lb)
{
	size_t offs = la > lb ? la - lb : 0;

	for (; offs < la; offs += HWT_BTS_RECORD_SIZE)
		if (!memcmp(a + offs, b, la - offs))
			return la - offs;
	return 0;
}

size_t hwt_bts_wrap_pad(uint64_t s, const uint8_t *p, size_t avail)
{
	uint64_t n = ((s | 4095) + 1) - s;

	if ((n != 8 && n != 16) || avail < n + 8)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	for (size_t i = 0; i < 8; i++)
		if (p[n + i])
			return (size_t)n;
	return 0;
}
