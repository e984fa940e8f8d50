/* A cursor's record as its jsonl line with symbols, in one call: what a
 * binding (python/hwtrace) gets each element from, so that its elements
 * carry the fields and names `hwtrace decode --format jsonl` gives. */
#include <string.h>

#include "hwtrace/output.h"
#include "hwtrace/symbols.h"

/* Room for the symbol members when the caller's buffer has none. */
enum { SCRATCH = 4096 };

int hwt_elem_record_jsonl(const struct hwt_elem_record *rec,
			  struct hwt_symbolizer *sym, char *buf, size_t size)
{
	struct hwt_elem e;
	hwt_elem_record_to_elem(&e, rec);
	int n = hwt_elem_format(&e, HWT_OUTPUT_JSONL, buf, size);
	if (!sym || n < 1)
		return n;
	/* The symbol members go before the object's closing brace, as the
	 * jsonl output puts them. An annotator writes to the FILE only for
	 * text output: none is needed here. */
	struct hwt_output_annotator a = hwt_symbolizer_annotator(sym);
	char scratch[SCRATCH];
	size_t at = (size_t)n - 1;
	bool fits = (size_t)n < size;
	char *p = fits ? buf + at : scratch;
	size_t room = fits ? size - at : sizeof(scratch);
	int x = a.annotate(a.arg, &e, HWT_OUTPUT_JSONL, NULL, p, room);
	if (x < 0)
		return x;
	size_t total = at + (size_t)x + 1;
	if (fits && at + (size_t)x + 1 < size) {
		buf[at + (size_t)x] = '}';
		buf[total] = '\0';
	} else if (size) {
		buf[size - 1] = '\0';
	}
	return (int)total;
}
