/* libFuzzer target for the partial result reader (hwtrace/partial.h),
 * which `hwtrace merge` runs on files from other hosts. An input the
 * reader accepts must write back to bytes that read and write again to
 * the same bytes (the format has one spelling of each partial), merge
 * with itself, and give its final outputs (the pprof profile too, but
 * the AutoFDO and BOLT profiles', which are files named from a prefix); a refused one must
 * leave a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/partial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @p written to a new buffer (*len bytes, the caller frees it). */
static char *written(const struct hwt_partial *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		abort();
	if (hwt_partial_write(p, f) < 0 && hwt_errmsg()[0] == 0)
		abort();
	fclose(f);
	return buf;
}

static struct hwt_partial *read_bytes(const void *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return NULL;
	struct hwt_partial *p = NULL;
	int err = hwt_partial_read(f, "input", &p);
	fclose(f);
	if (err < 0 && (p || !hwt_errmsg()[0]))
		abort();
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	struct hwt_partial *p = read_bytes(data, size);
	if (!p)
		return 0;
	size_t n1, n2;
	char *once = written(p, &n1);
	struct hwt_partial *again = read_bytes(once, n1);
	if (!again)
		abort();
	char *twice = written(again, &n2);
	if (n1 != n2 || memcmp(once, twice, n1))
		abort();
	FILE *null = fopen("/dev/null", "w");
	if (hwt_partial_merge(again, p) == 0 && null) {
		enum hwt_partial_kind kind = hwt_partial_kind(again);
		if (kind == HWT_PARTIAL_EDGES) {
			hwt_partial_write_edges(again, null, HWT_OUTPUT_TEXT);
		} else if (kind == HWT_PARTIAL_PPROF) {
			hwt_partial_write_pprof(again, null);
		} else if (kind == HWT_PARTIAL_REPORT) {
			hwt_partial_write_report(again, null, 0);
			hwt_partial_write_collapsed(again, null, HWT_WEIGHT_CALLS);
		}
	}
	if (null)
		fclose(null);
	free(once);
	free(twice);
	hwt_partial_free(again);
	hwt_partial_free(p);
	return 0;
}
