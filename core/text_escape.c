/* The JSON string writer and the terminal sanitiser (hwtrace/text.h). */
#include <stdbool.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/text.h"

/* The length of the well-formed UTF-8 sequence at @s (RFC 3629; table
 * 3-7 of Unicode: the second byte's range depends on the first), or 0
 * with *bad set to the bytes that stand for one U+FFFD: the longest start
 * of a sequence that could still have been well-formed, at least one
 * byte (Unicode's "maximal subpart" practice, which WHATWG's decoder and
 * Python's errors="replace" follow too). */
static size_t utf8_len(const unsigned char *s, size_t n, size_t *bad)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	*bad = 1;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f; /* not the surrogates U+D800..U+DFFF */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f; /* nothing above U+10FFFF */
	for (size_t i = 1; i < len; i++, lo = 0x80, hi = 0xbf) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*bad = i;
			return 0;
		}
	}
	return len;
}

struct out {
	char *dst;
	size_t size, len;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->len < o->size)
		memcpy(o->dst + o->len, p,
		       n < o->size - o->len ? n : o->size - o->len);
	o->len += n;
}

static const char hex[] = "0123456789abcdef";

size_t hwt_json_escape(char *dst, size_t size, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	struct out o = {dst, size, 0};

	put(&o, "\"", 1);
	for (size_t i = 0; i < n;) {
		/* Plain ASCII goes out in runs: almost every name is. */
		size_t run = 0;
		while (i + run < n && u[i + run] >= 0x20 && u[i + run] < 0x80 &&
		       u[i + run] != '"' && u[i + run] != '\\')
			run++;
		put(&o, u + i, run);
		i += run;
		if (i == n)
			break;
		unsigned char c = u[i];
		size_t bad, len = utf8_len(u + i, n - i, &bad);
		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};
			put(&o, e, 2);
		} else if (c < 0x20) {
			const char *short_form = c == '\b' ? "\\b" : c == '\f' ? "\\f" :
						 c == '\n' ? "\\n" : c == '\r' ? "\\r" :
						 c == '\t' ? "\\t" : NULL;
			char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			if (short_form)
				put(&o, short_form, 2);
			else
				put(&o, e, 6);
		} else if (len) {
			put(&o, u + i, len);
			i += len;
			continue;
		} else {
			put(&o, "\\ufffd", 6);
			i += bad;
			continue;
		}
		i++;
	}
	put(&o, "\"", 1);
	return o.len;
}

size_t hwt_term_escape(char *dst, size_t size, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	struct out o = {dst, size, 0};

	for (size_t i = 0; i < n;) {
		size_t run = 0;
		while (i + run < n && u[i + run] >= 0x20 && u[i + run] < 0x7f)
			run++;
		put(&o, u + i, run);
		i += run;
		if (i == n)
			break;
		size_t bad, len = utf8_len(u + i, n - i, &bad);
		/* U+0080..U+009F (C2 80..C2 9F) are the C1 controls: CSI is
		 * U+009B. */
		bool c1 = len == 2 && u[i] == 0xc2 && u[i + 1] < 0xa0;
		if (len > 1 && !c1) {
			put(&o, u + i, len);
			i += len;
			continue;
		}
		if (!c1)
			len = len ? 1 : bad;
		for (size_t k = 0; k < len; k++) {
			char e[4] = {'\\', 'x', hex[u[i + k] >> 4], hex[u[i + k] & 15]};
			put(&o, e, 4);
		}
		i += len;
	}
	return o.len;
}

/* Writes @s through @escape in pieces that fit a stack buffer (at most 6
 * bytes out per byte in), cut where no UTF-8 sequence is split. */
static int escaped_fwrite(FILE *out, const char *s, size_t n,
			  size_t (*escape)(char *, size_t, const char *, size_t),
			  size_t quotes)
{
	char buf[6 * 128 + 2];

	if (quotes)
		fputc('"', out);
	for (size_t i = 0; i < n;) {
		size_t take = n - i < 128 ? n - i : 128;
		while (i + take < n && take > 125 &&
		       ((unsigned char)s[i + take] & 0xc0) == 0x80)
			take--;
		size_t len = escape(buf, sizeof(buf), s + i, take);
		/* The JSON writer quotes each piece: the quotes come off. */
		fwrite(buf + quotes, 1, len - 2 * quotes, out);
		i += take;
	}
	if (quotes)
		fputc('"', out);
	return ferror(out) ? HWT_ERR_IO : 0;
}

int hwt_json_fwrite(FILE *out, const char *s, size_t n)
{
	return escaped_fwrite(out, s, n, hwt_json_escape, 1);
}

int hwt_term_fwrite(FILE *out, const char *s, size_t n)
{
	return escaped_fwrite(out, s, n, hwt_term_escape, 0);
}
