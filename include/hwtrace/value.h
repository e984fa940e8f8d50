/* The syntax of the values hwtrace reads from a profile key and from a
 * command-line option: one parser per kind, so a key and the option of the
 * same name accept the same text (docs/values.md lists every form).
 *
 * Each parser reads the whole of @text: the value must start with a digit
 * (no sign, no space) and nothing may follow it. They return
 * HWT_VALUE_OK with *@out set, HWT_VALUE_BAD when @text is not of the
 * kind (empty, a sign, trailing junk) or HWT_VALUE_TOO_LARGE when it is
 * but does not fit 64 bits; *@out is left alone on failure. They print
 * nothing: the caller names the key or option in its own message. */
#ifndef HWTRACE_VALUE_H
#define HWTRACE_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_value_status {
	HWT_VALUE_OK = 0,
	HWT_VALUE_BAD = -1,
	HWT_VALUE_TOO_LARGE = -2,
};

/* A whole unsigned number in C's bases: decimal, 0x or 0X hexadecimal,
 * or octal with a leading 0 ("010" is 8). */
HWT_API int hwt_value_parse_u64(const char *text, uint64_t *out);

/* A byte count: a number as hwt_value_parse_u64 reads it, then K, M or
 * G (either case: times 2^10, 2^20, 2^30), then an optional B or b.
 * "64K", "64KB", "4096" and "4096B" are sizes. In hexadecimal B is a
 * digit, so "0x1B" is 27 bytes; "0x1KB" is 1024. */
HWT_API int hwt_value_parse_size(const char *text, uint64_t *out);

/* A time in nanoseconds: whole nanoseconds as hwt_value_parse_u64 reads
 * them ("1500", "0x5dc"), or decimal seconds with a
 * fraction of at most 9 digits ("641256.038", ".5", "3."), as
 * perf script prints timestamps. "." alone is refused. */
HWT_API int hwt_value_parse_time_ns(const char *text, uint64_t *out);

/* A time range "START,END" as `--time` takes it: two times as
 * hwt_value_parse_time_ns reads them, either of which may be empty (from
 * 0, to the end: UINT64_MAX), START not after END. HWT_VALUE_OK with
 * *@start and *@end set, else HWT_VALUE_BAD (no comma, an end that is no
 * time or does not fit, START after END) and neither is changed. */
HWT_API int hwt_value_parse_time_range(const char *text, uint64_t *start,
				       uint64_t *end);

/* The path @path that option @option names is there and is a directory
 * (@dir) or not one: 0, else HWT_ERR_CONFIG "OPTION PATH: the directory
 * does not exist" ("the file ..."), "OPTION PATH: not a directory" ("not
 * a file") or "OPTION PATH: " and the system's reason; HWT_ERR_INVAL
 * for a NULL argument. */
HWT_API int hwt_value_check_path(const char *option, const char *path,
				 bool dir);

#ifdef __cplusplus
}
#endif

#endif
