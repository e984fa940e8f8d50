/* Address filters: perf's --filter strings for a trace PMU, resolved into
 * the string the kernel's PERF_EVENT_IOC_SET_FILTER takes.
 *
 * Input, as perf record --filter takes it: filters separated by commas or
 * newlines, each
 *     ACTION SYM_OR_ADDR[/SIZE] [@ FILE]
 * ACTION is filter (trace only inside the range), start, stop (start or
 * stop tracing when that address executes) or tracestop (stop when the
 * range executes). SYM_OR_ADDR is a symbol of FILE's .symtab or .dynsym
 * or a number (0x for hex). A symbol becomes its file offset, and for
 * filter and tracestop without /SIZE its size covers the whole symbol.
 * Without @ FILE a symbol is the workload's executable's, and a number
 * is a kernel address (kernel symbols are not looked up).
 *
 * Output, as perf writes it: each filter as
 *     filter 0xADDR/0xSIZE@/abs/path    (filter, tracestop, or a /SIZE)
 *     start 0xADDR@/abs/path            (start, stop without a size)
 * joined by commas; tracestop is written "stop" with a range, which is the
 * kernel's spelling. */
#ifndef HWTRACE_ADDRFILTER_H
#define HWTRACE_ADDRFILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resolves @filters (borrowed; NULL or "" gives "") into @out (@size
 * bytes) and the number of filters into *@count (may be NULL).
 * @default_file is the workload's executable (borrowed; a bare name is
 * looked up in PATH) or NULL. Each failure's message quotes the filter and
 * names the symbol and the file: an unknown symbol (with a hint to list
 * them with nm), a symbol defined more than once at different addresses
 * (with the addresses), a symbol of size 0 used as a range, a file that
 * cannot be read or is not ELF.
 * Errors: HWT_ERR_CONFIG (syntax, unknown or ambiguous symbol, missing
 * size), HWT_ERR_NOENT (no such file), HWT_ERR_FORMAT (not ELF),
 * HWT_ERR_NOSPC (@out too small), HWT_ERR_NOMEM. */
HWT_API int hwt_addr_filter_resolve(const char *filters,
				    const char *default_file, char *out,
				    size_t size, size_t *count);

/* The function of ELF @file whose name is closest to @name (a likely typo
 * of it, by hwt_config_nearest's rule), into @out (@size bytes): true
 * when there is one other than @name itself. For the "did you mean" of a
 * message about an unknown symbol; a file that cannot be read has none. */
HWT_API bool hwt_addr_filter_nearest_symbol(const char *file,
					    const char *name, char *out,
					    size_t size);

/* The number of filters in @filters (commas and newlines separate them;
 * empty pieces do not count). */
HWT_API size_t hwt_addr_filter_count(const char *filters);

#ifdef __cplusplus
}
#endif

#endif
