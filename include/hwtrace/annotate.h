/* `hwtrace annotate`: a function's instructions and source lines, each
 * with its exact execution count from the trace (every instruction that
 * ran is in it: no sampling), its share of the function's, and for
 * conditional branches how often they were taken and not taken. */
#ifndef HWTRACE_ANNOTATE_H
#define HWTRACE_ANNOTATE_H

#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"
#include "hwtrace/output.h"
#include "hwtrace/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_annotate_opts {
	size_t size;                /* sizeof(struct hwt_annotate_opts) */
	/* Names functions and source lines (create it with srcline for
	 * the lines); borrowed, required. */
	struct hwt_symbolizer *sym;
	const char *func;           /* NULL: every function that ran */
};

struct hwt_annotate;

/* Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (size, no symbolizer). */
HWT_API int hwt_annotate_new(const struct hwt_annotate_opts *opts,
			     struct hwt_annotate **annotate);
HWT_API void hwt_annotate_free(struct hwt_annotate *annotate);

/* The memory image the functions' code is read from (for
 * hwt_decode_opts.on_image; a reference is held). */
HWT_API void hwt_annotate_set_image(struct hwt_annotate *annotate,
				    struct hwt_image *image);

/* The sink that counts: it wants one range per instruction (a decode
 * with hwt_decode_opts.disasm) and the branches. Errors: HWT_ERR_NOMEM. */
HWT_API struct hwt_elem_sink hwt_annotate_sink(struct hwt_annotate *annotate);

struct hwt_decode_opts;

/* Decodes the capture @file (hwt_decode_file) into the annotation, as
 * `hwtrace annotate` does: one range per instruction (opts->disasm is
 * set), and each memory image the decode builds given first to the hook
 * @opts had (a symbolizer's, hwt_symbolizer_hook), then to the
 * annotation (hwt_annotate_set_image). @opts is the caller's and is left
 * as it was, but for disasm. Errors: those of hwt_decode_file. */
HWT_API int hwt_annotate_decode(struct hwt_annotate *annotate,
				const char *file,
				struct hwt_decode_opts *opts);

/* Writes each function (most instructions executed first): every
 * instruction of it (count 0 for those that never ran) with its count,
 * share, source line and, for conditional branches, taken and not-taken
 * counts, then its source lines with theirs. Errors: HWT_ERR_NOENT (no
 * instruction of opts.func ran), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_annotate_write(struct hwt_annotate *annotate, FILE *out,
			       enum hwt_output_format format);

#ifdef __cplusplus
}
#endif

#endif
