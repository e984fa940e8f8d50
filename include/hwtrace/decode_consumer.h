/* What stands between a decode of a perf.data capture and its printer
 * when perf script's -F fields or the --comm, --dso and --sym filters are
 * asked for (hwtrace decode -F ... --comm ...): the element filter in
 * front, perf script's field writer in place of the printer, and the
 * capture's thread names both need, read once. A script or a batch
 * worker that lists a capture as `hwtrace decode` does builds the same
 * chain with one call. */
#ifndef HWTRACE_DECODE_CONSUMER_H
#define HWTRACE_DECODE_CONSUMER_H

#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_decode_consumer_opts {
	size_t size;              /* sizeof(struct hwt_decode_consumer_opts) */
	/* The perf.data file decoded: its thread names for the comm field
	 * and the comms list, opened only when one of them is asked for.
	 * NULL or "-" (a pipe, which cannot be read ahead): no names, comm
	 * is ":TID" and no thread passes a comms list. Borrowed. */
	const char *file;
	/* hwt_script_field bits (hwt_script_fields_parse); 0: the elements
	 * go to @next, the printer. */
	uint32_t script_fields;
	FILE *out;                /* where the -F lines go; with fields */
	/* The filter lists (hwtrace/filter.h); NULL: not asked. Borrowed. */
	const char *comms, *dsos, *syms;
	/* Names for the -F fields and the dsos and syms lists (required
	 * with those lists); NULL: none. Borrowed, must outlive the
	 * consumer. */
	struct hwt_symbolizer *sym;
	/* Where the elements go without -F (the printer's sink). */
	struct hwt_elem_sink next;
};

struct hwt_decode_consumer;

/* Builds the chain: the thread names read from opts->file when the comm
 * field or a comms list needs them, the -F writer (hooked to @decode's
 * memory image, for the insn field's bytes, after the image hook set
 * before, which it calls first), then the filter in front. @decode may
 * be NULL without -F fields; it must not be used for a decode after the
 * consumer is freed. Errors: HWT_ERR_INVAL (size, -F without out or
 * decode, a list without the symbolizer it needs), HWT_ERR_NOMEM, and
 * hwt_capture_open's for the thread names (naming the file). */
HWT_API int hwt_decode_consumer_new(const struct hwt_decode_consumer_opts *opts,
				    struct hwt_decode_opts *decode,
				    struct hwt_decode_consumer **out);

/* The sink to hand the decode's elements to: the filter, the -F writer
 * or opts->next, whichever comes first; valid while @c is. */
HWT_API struct hwt_elem_sink hwt_decode_consumer_sink(struct hwt_decode_consumer *c);

/* Frees the chain and the thread names; NULL is a no-op. */
HWT_API void hwt_decode_consumer_free(struct hwt_decode_consumer *c);

#ifdef __cplusplus
}
#endif

#endif
