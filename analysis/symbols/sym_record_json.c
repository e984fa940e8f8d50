/* A cursor's records as their jsonl lines with symbols, a batch in one
 * call: what a binding (python/hwtrace) reads its elements from, so
 * that they carry the fields and names `hwtrace decode --format jsonl`
 * gives, without a call into the library per element. */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/output.h"
#include "hwtrace/symbols.h"

/* Room for the symbol members when the caller's buffer has none. */
enum { SCRATCH = 4096 };

/* The line of @rec into @buf, as snprintf: the length it needed (the
 * whole line is there only when that is below @size), or a negative
 * error of the symbolizer's. */
static int record_line(const struct hwt_elem_record *rec,
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
	if (fits && total < size) {
		buf[at + (size_t)x] = '}';
		buf[total] = '\0';
	} else if (size) {
		buf[size - 1] = '\0';
	}
	return (int)total;
}

int64_t hwt_elem_records_jsonl(const struct hwt_elem_record *recs, size_t n,
			       struct hwt_symbolizer *sym, char *buf,
			       size_t size, size_t *done)
{
	size_t len = 0, i = 0;
	for (; i < n; i++) {
		int x = record_line(&recs[i], sym, buf + len, size - len);
		if (x < 0)
			return x;
		/* The line, its newline and a NUL after it must fit. */
		if ((size_t)x + 2 > size - len)
			break;
		len += (size_t)x;
		buf[len++] = '\n';
		buf[len] = '\0';
	}
	if (done)
		*done = i;
	if (i < n && i == 0)
		return hwt_error(HWT_ERR_NOSPC, "a record's jsonl line needs more "
				 "than the %zu bytes given", size);
	return (int64_t)len;
}
