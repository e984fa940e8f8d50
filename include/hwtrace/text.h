/* Names from captures, written out safely.
 *
 * A capture's names (commands, binaries' paths, symbols, a decoder's
 * messages) are bytes the traced machine chose: they may hold invalid
 * UTF-8, control characters and terminal escape sequences. Every JSON
 * string hwtrace writes goes through hwt_json_escape, and every name
 * printed as text goes through hwt_term_escape, so that JSON output
 * always parses and text output never drives the terminal.
 *
 * Both write like snprintf without the NUL: at most @size bytes to @dst
 * (which may be NULL when @size is 0), and return the length the whole
 * result has, so a caller can measure first or append in place. */
#ifndef HWTRACE_TEXT_H
#define HWTRACE_TEXT_H

#include <stdio.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The JSON string (RFC 8259, with its quotes) of the @n bytes at @s:
 * '"' and '\\' escaped with a backslash; \b \f \n \r \t as such; other
 * bytes below 0x20 as \u00XX; well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF) copied as it is; and
 * bytes that are not well-formed UTF-8 as \ufffd (U+FFFD, the replacement
 * character), one for each maximal subpart as Unicode recommends (the
 * longest start of a sequence that could have been well-formed, else one
 * byte: what Python's errors="replace" and WHATWG's decoder give). The
 * result is pure, valid UTF-8. */
HWT_API size_t hwt_json_escape(char *dst, size_t size, const char *s,
			       size_t n);

/* hwt_json_escape of the @n bytes at @s written to @out. Returns 0, or
 * HWT_ERR_IO when the stream has an error. */
HWT_API int hwt_json_fwrite(FILE *out, const char *s, size_t n);

/* The @n bytes at @s for a terminal: well-formed UTF-8 that prints is
 * copied; control characters (bytes below 0x20, 0x7f, and the C1 range
 * U+0080..U+009F) and bytes that are not well-formed UTF-8 are written
 * as \xHH, one per byte. An ESC can thus never start a terminal escape
 * sequence. Backslashes are left as they are: the text is for reading,
 * not for parsing back. */
HWT_API size_t hwt_term_escape(char *dst, size_t size, const char *s,
			       size_t n);

/* hwt_term_escape of the @n bytes at @s written to @out. Returns 0, or
 * HWT_ERR_IO when the stream has an error. */
HWT_API int hwt_term_fwrite(FILE *out, const char *s, size_t n);

#ifdef __cplusplus
}
#endif

#endif
