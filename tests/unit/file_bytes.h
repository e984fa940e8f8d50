/* Test helper: reads the bytes of test data files (whole, or the head of
 * a real capture to compare word for word with what perf wrote there). */
#ifndef HWT_TESTS_FILE_BYTES_H
#define HWT_TESTS_FILE_BYTES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* perf.data is little-endian whatever the host. */
static inline uint64_t hwt_test_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Fills @buf with the first @size bytes of @path. Returns 1 when all of
 * them were read, 0 (saying why on stderr) when the file is missing or
 * shorter. */
static inline int hwt_test_read_head(const char *path, uint8_t *buf,
				     size_t size)
{
	FILE *f = fopen(path, "rb");
	int full;

	if (!f) {
		fprintf(stderr, "cannot open %s: the shared test data is missing\n",
			path);
		return 0;
	}
	full = fread(buf, 1, size, f) == size;
	fclose(f);
	return full;
}

/* The whole of @path in a malloc'ed buffer the caller frees, its length
 * in *len and a NUL after it (so a text file reads as a string); NULL
 * when it cannot be opened or read. */
static inline uint8_t *hwt_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (n < 0) {
		fclose(f);
		return NULL;
	}
	uint8_t *p = malloc((size_t)n + 1);
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	if (p)
		p[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return p;
}

#endif
