/* Output formats over the element stream: text and JSON lines. */
#ifndef HWTRACE_OUTPUT_H
#define HWTRACE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_output_format {
	HWT_OUTPUT_TEXT,
	HWT_OUTPUT_JSONL,
};

struct hwt_output;

/* Writes elements to @out (borrowed; not closed). Lines are gathered in a
 * buffer of the output's own and written to @out in large blocks: call
 * hwt_output_flush before writing anything else to @out or closing it.
 * NULL when out of memory. */
HWT_API struct hwt_output *hwt_output_new(FILE *out,
					  enum hwt_output_format format);

/* Writes the buffered lines to @out. Returns 0, or HWT_ERR_IO saying
 * why the write failed. */
HWT_API int hwt_output_flush(struct hwt_output *output);

/* With @hold, the output keeps its lines in memory, its buffer growing,
 * instead of writing them as the buffer fills: for lines that must wait
 * for their turn (decode's output lanes). It still writes to @out before
 * a line it cannot buffer (a very long one, or an instruction whose
 * annotator writes to @out itself). */
HWT_API void hwt_output_hold(struct hwt_output *output, bool hold);

/* Writes the buffered lines to @to instead of the output's FILE (what was
 * written to that FILE came before them). Returns 0, or HWT_ERR_IO. */
HWT_API int hwt_output_flush_to(struct hwt_output *output, FILE *to);

/* Flushes (a failed write leaves @out's error indicator set) and frees
 * the output; NULL is a no-op. */
HWT_API void hwt_output_free(struct hwt_output *output);

/* A sink that writes each element it receives; valid while @output is. */
HWT_API struct hwt_elem_sink hwt_output_sink(struct hwt_output *output);

/* Adds to each element's line what the element stream alone does not
 * know, e.g. symbols (symbols.h). @annotate writes into @buf, as snprintf
 * does (returning the length it needed), the text that ends a text line or
 * the extra `,"key":value` members of a JSON object. For a range that
 * carries instruction text (elem->u.range.text), and only then, it may
 * first write whole lines of its own to @out (objdump's `<sym>:` before a
 * function's first instruction): the output has written everything before
 * that element to @out by then. Returns the length, or a negative hwt_err
 * to stop. The output reuses annotations: a range without instruction
 * text, or a branch, that equals an element annotated before in type,
 * addresses, instruction count, ISA, kind, exception number and process
 * (its pid, or its tid when it has no pid) may get that element's
 * annotation without a call, so an annotation must depend on nothing
 * else (not on the time, CPU or thread) but what @cache_tag returns. */
struct hwt_output_annotator {
	int (*annotate)(void *arg, const struct hwt_elem *elem,
			enum hwt_output_format format, FILE *out, char *buf,
			size_t size);
	void *arg;
	/* Optional: a value that, for elements equal in the fields above,
	 * differs whenever their annotations may differ (symbols: the
	 * mappings valid at the element's time, when the same address held
	 * other code at other times). NULL: the fields above suffice. */
	uint64_t (*cache_tag)(void *arg, const struct hwt_elem *elem);
};

/* Sets (or with NULL clears) the annotator; @annotator is copied. */
HWT_API void hwt_output_set_annotator(struct hwt_output *output,
				      const struct hwt_output_annotator *annotator);

/* Formats one element as one line (no newline) into @buf. Returns the
 * length it needed, as snprintf does. */
HWT_API int hwt_elem_format(const struct hwt_elem *elem,
			    enum hwt_output_format format, char *buf,
			    size_t size);

/* Parses "text" or "jsonl". Returns 0, or HWT_ERR_CONFIG naming the valid
 * formats. */
HWT_API int hwt_output_format_parse(const char *name,
				    enum hwt_output_format *format);

#ifdef __cplusplus
}
#endif

#endif
