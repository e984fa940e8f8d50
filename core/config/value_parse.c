/* Numbers, sizes and times as profiles and options write them
 * (include/hwtrace/value.h). Hand-rolled rather than strtoull so that no
 * locale, leading space or sign is ever accepted, and so overflow is told
 * apart from junk. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "hwtrace/value.h"

static int digit_value(char c, unsigned base)
{
	unsigned d;

	if (c >= '0' && c <= '9')
		d = (unsigned)(c - '0');
	else if (c >= 'a' && c <= 'f')
		d = (unsigned)(c - 'a') + 10;
	else if (c >= 'A' && c <= 'F')
		d = (unsigned)(c - 'A') + 10;
	else
		return -1;
	return d < base ? (int)d : -1;
}

/* The longest number in C's bases at the start of @s; *@end is set past
 * it. "0x" with no hex digit after it reads as 0 followed by "x", as
 * strtoull does, so the caller sees junk. */
static int read_number(const char *s, unsigned forced_base, uint64_t *out,
		       const char **end)
{
	unsigned base = forced_base ? forced_base : 10;
	const char *p = s;
	bool too_large = false;
	uint64_t v = 0;

	if (!(*p >= '0' && *p <= '9'))
		return HWT_VALUE_BAD;
	if (!forced_base && p[0] == '0') {
		if ((p[1] == 'x' || p[1] == 'X') && digit_value(p[2], 16) >= 0) {
			base = 16;
			p += 2;
		} else {
			base = 8;
		}
	}
	for (int d; (d = digit_value(*p, base)) >= 0; p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			too_large = true;
		v = v * base + (uint64_t)d;
	}
	*end = p;
	if (too_large)
		return HWT_VALUE_TOO_LARGE;
	*out = v;
	return HWT_VALUE_OK;
}

int hwt_value_parse_u64(const char *text, uint64_t *out)
{
	const char *end = text;
	uint64_t v = 0;
	int r = read_number(text, 0, &v, &end);

	if (r == HWT_VALUE_BAD || *end)
		return HWT_VALUE_BAD;
	if (r == HWT_VALUE_OK)
		*out = v;
	return r;
}

int hwt_value_parse_size(const char *text, uint64_t *out)
{
	const char *end = text;
	unsigned shift = 0;
	uint64_t v = 0;
	int r = read_number(text, 0, &v, &end);

	if (r == HWT_VALUE_BAD)
		return r;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return HWT_VALUE_BAD;
	if (r == HWT_VALUE_TOO_LARGE || v > (UINT64_MAX >> shift))
		return HWT_VALUE_TOO_LARGE;
	*out = v << shift;
	return HWT_VALUE_OK;
}

int hwt_value_parse_time_ns(const char *text, uint64_t *out)
{
	const char *p = text, *dot = strchr(text, '.');
	uint64_t sec = 0, frac = 0;
	size_t digits;
	int r = HWT_VALUE_OK;

	if (!dot)
		return hwt_value_parse_u64(text, out); /* whole nanoseconds */

	if (p != dot) {
		r = read_number(p, 10, &sec, &p);
		if (r == HWT_VALUE_BAD || p != dot)
			return HWT_VALUE_BAD;
	}
	digits = strspn(dot + 1, "0123456789");
	if (dot[1 + digits] || digits > 9 || (dot == text && !digits))
		return HWT_VALUE_BAD;
	if (r == HWT_VALUE_TOO_LARGE)
		return r;
	for (size_t i = 0; i < 9; i++)
		frac = frac * 10 + (i < digits ? (uint64_t)(dot[1 + i] - '0') : 0);
	if (sec > (UINT64_MAX - frac) / 1000000000ull)
		return HWT_VALUE_TOO_LARGE;
	*out = sec * 1000000000ull + frac;
	return HWT_VALUE_OK;
}

/* One end of a time range: the @len bytes at @s. */
static int parse_time_end(const char *s, size_t len, uint64_t *out)
{
	char buf[64];

	if (len >= sizeof(buf))
		return HWT_VALUE_BAD;
	memcpy(buf, s, len);
	buf[len] = 0;
	return hwt_value_parse_time_ns(buf, out) == HWT_VALUE_OK
		       ? HWT_VALUE_OK : HWT_VALUE_BAD;
}

int hwt_value_parse_time_range(const char *text, uint64_t *start,
			       uint64_t *end)
{
	const char *comma = strchr(text, ',');
	uint64_t from = 0, until = UINT64_MAX;

	if (!comma)
		return HWT_VALUE_BAD;
	if (comma > text &&
	    parse_time_end(text, (size_t)(comma - text), &from))
		return HWT_VALUE_BAD;
	if (comma[1] && parse_time_end(comma + 1, strlen(comma + 1), &until))
		return HWT_VALUE_BAD;
	if (from > until)
		return HWT_VALUE_BAD;
	*start = from;
	*end = until;
	return HWT_VALUE_OK;
}
