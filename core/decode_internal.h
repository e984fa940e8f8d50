/* Shared parts of the decode pipeline (decode_*.c). */
#ifndef HWT_CORE_DECODE_INTERNAL_H
#define HWT_CORE_DECODE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"
#include "hwtrace/decode.h"

/* Applies --cpu, --tid and --time to the element stream. Gaps and errors
 * always pass: lost trace is always shown. */
struct hwt_decode_filter {
	const struct hwt_decode_opts *opts;
	const struct hwt_elem_sink *next;
};

/* A sink over @f, valid while @f is. */
struct hwt_elem_sink hwt_decode_filter_sink(struct hwt_decode_filter *f);

/* Whether any filter is set in @opts. */
int hwt_decode_has_filter(const struct hwt_decode_opts *opts);

/* A whole file mapped read-only. */
struct hwt_mapped {
	const uint8_t *data;
	size_t size;
};

/* Maps @path; @what names it in messages ("trace file", "--map file").
 * Errors: HWT_ERR_NOENT, HWT_ERR_PERM, HWT_ERR_IO. */
int hwt_mapped_open(struct hwt_mapped *m, const char *path, const char *what);
void hwt_mapped_close(struct hwt_mapped *m);

/* The backend @name with a decoder. Errors: HWT_ERR_NOENT (unknown name,
 * listing the known ones), HWT_ERR_NOSUP (no decoder, saying why). */
int hwt_decode_find_backend(const char *name, const struct hwt_backend **out);

/* Checks opts->size and returns a zero-extended copy in @out. */
int hwt_decode_opts_copy(const struct hwt_decode_opts *opts,
			 struct hwt_decode_opts *out);

#endif
