/* -m DATA_PAGES[,AUX_PAGES]: the ring sizes a recording maps, in pages,
 * each a power of two as the kernel requires of a ring, checked before
 * anything is opened so that the message names the option and the part
 * rather than the mmap that would fail. */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/record_options.h"
#include "hwtrace/value.h"

static const char *why_not(int r, uint64_t v)
{
	if (r == HWT_VALUE_BAD)
		return "not a number";
	if (r == HWT_VALUE_TOO_LARGE || v > HWT_RING_PAGES_MAX)
		return "too large";
	return v == 0 ? "zero pages" : "not a power of two";
}

static int ring_pages(const char *option, const char *all, const char *part,
		      size_t len, const char *which, uint32_t *out)
{
	char text[32];
	uint64_t v = 0;

	if (!len) {
		*out = 0; /* the default */
		return 0;
	}
	if (len >= sizeof(text))
		return hwt_error(HWT_ERR_CONFIG, "%s %s: %s pages: not a number "
				 "(valid: a power of two, 1 to %u)", option, all,
				 which, HWT_RING_PAGES_MAX);
	memcpy(text, part, len);
	text[len] = 0;
	int r = hwt_value_parse_u64(text, &v);
	if (r != HWT_VALUE_OK || v == 0 || v > HWT_RING_PAGES_MAX ||
	    (v & (v - 1)))
		return hwt_error(HWT_ERR_CONFIG, "%s %s: %s pages %s: %s (valid: "
				 "a power of two, 1 to %u)", option, all, which,
				 text, why_not(r, v), HWT_RING_PAGES_MAX);
	*out = (uint32_t)v;
	return 0;
}

int hwt_record_ring_pages_parse(const char *option, const char *arg,
				uint32_t *data, uint32_t *aux)
{
	const char *comma = strchr(arg, ',');
	size_t dlen = comma ? (size_t)(comma - arg) : strlen(arg);

	if (!arg[0] || (comma && !comma[1]) || (comma && strchr(comma + 1, ',')))
		return hwt_error(HWT_ERR_CONFIG, "%s %s: expected "
				 "DATA_PAGES[,AUX_PAGES]", option, arg);
	int err = ring_pages(option, arg, arg, dlen, "data", data);
	if (err)
		return err;
	if (!comma) {
		*aux = 0;
		return 0;
	}
	return ring_pages(option, arg, comma + 1, strlen(comma + 1), "AUX", aux);
}
