/* Test helper: a generated Intel PT trace (bench/pt_edges_trace.h) and its
 * code, written to files for a raw decode (--raw, --map). */
#ifndef HWT_TESTS_UNIT_PT_EDGES_FILES_H
#define HWT_TESTS_UNIT_PT_EDGES_FILES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/pt_edges_trace.h"

/* Writes a trace of @what (about @size bytes) to @pt and the code it runs
 * (at PT_EDGES_ORG) to @bin. Returns the trace, which the caller frees,
 * with its length in *@n, or NULL when a step failed. */
static inline uint8_t *pt_edges_files(int what, size_t size, const char *pt,
				      const char *bin, size_t *n)
{
	uint8_t *trace = malloc(size + 4096);
	*n = trace ? pt_edges_make(trace, size + 4096, size, what) : 0;
	FILE *f = fopen(pt, "wb");
	bool ok = *n && f && fwrite(trace, 1, *n, f) == *n;
	if (f)
		ok &= !fclose(f);
	uint8_t code[sizeof(pt_edges_code)];
	pt_edges_code_for(what, code);
	f = fopen(bin, "wb");
	ok &= f && fwrite(code, 1, sizeof(code), f) == sizeof(code);
	if (f)
		ok &= !fclose(f);
	if (!ok) {
		free(trace);
		return NULL;
	}
	return trace;
}

#endif
