/* The JSON string writer and the terminal sanitiser (hwtrace/text.h):
 * every byte class at its edges, the replacement of ill-formed UTF-8 by
 * maximal subparts (the expected strings are what Python 3's
 * bytes.decode("utf-8", errors="replace") gives, written as JSON), the
 * snprintf-like bounds, and the FILE writers on input longer than their
 * pieces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/text.h"

/* @escape of the @n bytes at @in is @want, and its length is returned. */
static void check_escape(size_t (*escape)(char *, size_t, const char *, size_t),
			 const char *in, size_t n, const char *want)
{
	char buf[512];
	size_t len = escape(buf, sizeof(buf) - 1, in, n);
	buf[len < sizeof(buf) ? len : sizeof(buf) - 1] = 0;
	CHECK_STR(buf, want);
	CHECK_INT(len, strlen(want));
}

#define J(lit, want) check_escape(hwt_json_escape, lit, sizeof(lit) - 1, want)
#define T(lit, want) check_escape(hwt_term_escape, lit, sizeof(lit) - 1, want)

static void json_escapes_per_rfc8259(void)
{
	J("", "\"\"");
	J("plain /usr/bin/ls", "\"plain /usr/bin/ls\"");
	J("q\"b\\s/", "\"q\\\"b\\\\s/\"");
	J("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	J("\x01\x1b\x1f\x7f", "\"\\u0001\\u001b\\u001f\x7f\"");
	/* A NUL inside the bytes is a control character like the others. */
	check_escape(hwt_json_escape, "a\0b", 3, "\"a\\u0000b\"");
	/* Well-formed UTF-8 at each length's edges passes as it is. */
	J("\xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf",
	  "\"\xc2\x80 \xdf\xbf \xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf\"");
	J("\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf", "\"\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf\"");
}

static void json_replaces_ill_formed_utf8(void)
{
	/* Bytes that never start a sequence: one U+FFFD each. */
	J("\x80", "\"\\ufffd\"");
	J("\xbf\xff\xfe", "\"\\ufffd\\ufffd\\ufffd\"");
	J("\xc0\xaf", "\"\\ufffd\\ufffd\"");           /* overlong '/' */
	J("\xc1\xbf", "\"\\ufffd\\ufffd\"");
	J("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	/* A good start cut short: one U+FFFD for the start, then the rest. */
	J("\xc3(", "\"\\ufffd(\"");
	J("\xe2\x82", "\"\\ufffd\"");
	J("\xe2\x82(", "\"\\ufffd(\"");
	J("\xf0\x9f\x98", "\"\\ufffd\"");
	J("\xf0\x9f\x98\"", "\"\\ufffd\\\"\"");
	/* The second byte's range depends on the first. */
	J("\xe0\x80\x80", "\"\\ufffd\\ufffd\\ufffd\"");  /* overlong */
	J("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");  /* a surrogate */
	J("\xf0\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	J("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	/* A name of a capture's: an escape sequence and stray bytes. */
	J("d\xff\x1b[31m\xc3(", "\"d\\ufffd\\u001b[31m\\ufffd(\"");
}

static void terminal_escapes_controls(void)
{
	T("plain \xc3\xa9t\xc3\xa9 \xe2\x82\xac", "plain \xc3\xa9t\xc3\xa9 \xe2\x82\xac");
	T("back\\slash \"q\"", "back\\slash \"q\"");
	T("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	T("\x1b]0;title\x07", "\\x1b]0;title\\x07");
	T("tab\tnl\ncr\r\x7f", "tab\\x09nl\\x0acr\\x0d\\x7f");
	/* C1 controls, U+0080..U+009F (CSI is U+009B); U+00A0 prints. */
	T("\xc2\x9b" "31m \xc2\x80 \xc2\xa0", "\\xc2\\x9b" "31m \\xc2\\x80 \xc2\xa0");
	/* Ill-formed bytes, each as \xHH (a raw 0x9b is 8-bit CSI). */
	T("\x9b" "2J\xff\xc3(", "\\x9b" "2J\\xff\\xc3(");
	T("\xe2\x82", "\\xe2\\x82");
}

static void bounds_are_snprintf_like(void)
{
	char buf[8];
	memset(buf, '#', sizeof(buf));
	/* "a\u001b" in quotes is 9 bytes: only 4 are written, 9 returned. */
	CHECK_INT(hwt_json_escape(buf, 4, "a\x1b", 2), 9);
	CHECK(!memcmp(buf, "\"a\\u####", 8));
	CHECK_INT(hwt_json_escape(NULL, 0, "\xff", 1), 8);
	CHECK_INT(hwt_term_escape(NULL, 0, "\x1b[", 2), 5);
	memset(buf, '#', sizeof(buf));
	CHECK_INT(hwt_term_escape(buf, 3, "\x1b[", 2), 5);
	CHECK(!memcmp(buf, "\\x1#####", 8));
}

/* The FILE writers cut long input in pieces: no sequence may be split
 * where a piece ends, wherever it falls. */
static void file_writers_keep_sequences_whole(void)
{
	for (size_t pad = 0; pad < 8; pad++) {
		char in[600], want[4000];
		size_t n = 0;
		for (size_t i = 0; i < pad; i++)
			in[n++] = 'x';
		while (n + 4 < sizeof(in) - 1) {
			memcpy(in + n, "\xf0\x9f\x98\x80", 4); /* U+1F600 */
			n += 4;
			in[n++] = '\x1b';
		}
		in[n] = 0;
		char *got = NULL;
		size_t got_len = 0;
		FILE *f = open_memstream(&got, &got_len);
		CHECK_INT(hwt_json_fwrite(f, in, n), 0);
		fclose(f);
		size_t wlen = hwt_json_escape(want, sizeof(want), in, n);
		CHECK(wlen < sizeof(want));
		CHECK_INT(got_len, wlen);
		CHECK(got && !memcmp(got, want, wlen));
		free(got);

		got = NULL;
		f = open_memstream(&got, &got_len);
		CHECK_INT(hwt_term_fwrite(f, in, n), 0);
		fclose(f);
		wlen = hwt_term_escape(want, sizeof(want), in, n);
		CHECK_INT(got_len, wlen);
		CHECK(got && !memcmp(got, want, wlen));
		free(got);
	}
	char *got = NULL;
	size_t got_len = 0;
	FILE *f = open_memstream(&got, &got_len);
	CHECK_INT(hwt_json_fwrite(f, "", 0), 0);
	fclose(f);
	CHECK_STR(got, "\"\"");
	free(got);
}

int main(void)
{
	RUN(json_escapes_per_rfc8259);
	RUN(json_replaces_ill_formed_utf8);
	RUN(terminal_escapes_controls);
	RUN(bounds_are_snprintf_like);
	RUN(file_writers_keep_sequences_whole);
	return hwt_test_summary();
}
