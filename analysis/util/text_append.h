/* Appending text to a bounded buffer without printf: the writers of the
 * element stream format tens of millions of lines, and a vsnprintf per
 * field was most of the decode's time. An appender counts past the end
 * as snprintf does (len is what the whole text needs) and never writes
 * beyond size; the caller adds the terminating NUL where it needs one. */
#ifndef HWT_ANALYSIS_TEXT_APPEND_H
#define HWT_ANALYSIS_TEXT_APPEND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/text.h"

struct hwt_text {
	char *buf;
	size_t size, len;
};

/* What fits of @s when not all of it does. */
static __attribute__((noinline, unused)) void
hwt_text_put_part(struct hwt_text *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && t->len + i < t->size; i++)
		t->buf[t->len + i] = s[i];
}

static inline void hwt_text_put(struct hwt_text *t, const char *s, size_t n)
{
	/* The usual case first: a constant @n makes this a few moves. */
	if (t->len <= t->size && t->size - t->len >= n)
		memcpy(t->buf + t->len, s, n);
	else
		hwt_text_put_part(t, s, n);
	t->len += n;
}

/* A string constant: its length is known when compiling. */
#define hwt_text_lit(t, s) hwt_text_put((t), "" s, sizeof(s) - 1)

/* A NUL-terminated string: names are short, so copied a byte at a time
 * while there is room rather than measured first. */
static inline void hwt_text_str(struct hwt_text *t, const char *s)
{
	size_t i = t->len;
	while (*s && i < t->size)
		t->buf[i++] = *s++;
	t->len = *s ? i + strlen(s) : i;
}

static inline void hwt_text_char(struct hwt_text *t, char c)
{
	if (t->len < t->size)
		t->buf[t->len] = c;
	t->len++;
}

/* Lower-case hex without leading zeros ("%" PRIx64), written in place
 * from its last digit back, two digits a step, when it fits. */
static inline void hwt_text_hex(struct hwt_text *t, uint64_t v)
{
	static const char pairs[513] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	size_t n = (size_t)(64 - __builtin_clzll(v | 1) + 3) / 4;
	char tmp[16];
	char *d = t->len <= t->size && t->size - t->len >= n ? t->buf + t->len
							    : tmp;
	size_t i = n;
	for (; i >= 2; i -= 2, v >>= 8)
		memcpy(d + i - 2, pairs + 2 * (v & 0xff), 2);
	if (i)
		d[0] = "0123456789abcdef"[v & 15];
	if (d == tmp)
		hwt_text_put(t, tmp, n);
	else
		t->len += n;
}

/* The number of decimal digits of @v. */
static inline size_t hwt_text_ndigits(uint64_t v)
{
	size_t n = 1;
	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* The digits of @v, right-aligned in @d[20]; returns where they start. */
static inline size_t hwt_text_digits(char d[20], uint64_t v)
{
	size_t i = 20;
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return i;
}

/* "%" PRIu64 */
static inline void hwt_text_u64(struct hwt_text *t, uint64_t v)
{
	size_t n = hwt_text_ndigits(v);
	if (t->len <= t->size && t->size - t->len >= n) {
		char *d = t->buf + t->len;
		for (size_t i = n; i-- > 0; v /= 10)
			d[i] = (char)('0' + v % 10);
		t->len += n;
		return;
	}
	char d[20];
	size_t i = hwt_text_digits(d, v);
	hwt_text_put(t, d + i, 20 - i);
}

/* A signed number in at least @width characters, as printf's "%*d" (@zero
 * false: spaces before the sign) or "%0*d" (@zero: zeros after it). */
static inline void hwt_text_i64_pad(struct hwt_text *t, int64_t v,
				    size_t width, int zero)
{
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t nd = hwt_text_ndigits(mag);
	size_t need = nd + (v < 0);
	size_t pad = need < width ? width - need : 0;
	if (t->len <= t->size && t->size - t->len >= need + pad) {
		char *d = t->buf + t->len;
		if (zero) {
			if (v < 0)
				*d++ = '-';
			memset(d, '0', pad);
			d += pad;
		} else {
			memset(d, ' ', pad);
			d += pad;
			if (v < 0)
				*d++ = '-';
		}
		for (size_t i = nd; i-- > 0; mag /= 10)
			d[i] = (char)('0' + mag % 10);
		t->len += need + pad;
		return;
	}
	char d[20];
	size_t i = hwt_text_digits(d, mag);
	if (!zero)
		for (size_t k = 0; k < pad; k++)
			hwt_text_char(t, ' ');
	if (v < 0)
		hwt_text_char(t, '-');
	if (zero)
		for (size_t k = 0; k < pad; k++)
			hwt_text_char(t, '0');
	hwt_text_put(t, d + i, 20 - i);
}

static inline void hwt_text_i64(struct hwt_text *t, int64_t v)
{
	hwt_text_i64_pad(t, v, 0, 0);
}

/* @s as a JSON string, by the one JSON string writer (hwtrace/text.h). */
static inline void hwt_text_json_str(struct hwt_text *t, const char *s)
{
	size_t room = t->len < t->size ? t->size - t->len : 0;
	t->len += hwt_json_escape(room ? t->buf + t->len : NULL, room, s,
				  strlen(s));
}

/* @s for a terminal, by the one sanitiser (hwtrace/text.h). */
static inline void hwt_text_term_str(struct hwt_text *t, const char *s)
{
	size_t room = t->len < t->size ? t->size - t->len : 0;
	t->len += hwt_term_escape(room ? t->buf + t->len : NULL, room, s,
				  strlen(s));
}

#endif
