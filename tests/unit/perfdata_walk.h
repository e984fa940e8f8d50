/* Test helper: finds a record of a perf.data file by walking its data
 * section from the file header alone, without the library's reader, so
 * that tests check the library against bytes it did not parse. Reads at
 * most the file's first 64 KiB (the small captures of the test data). */
#ifndef HWT_TESTS_PERFDATA_WALK_H
#define HWT_TESTS_PERFDATA_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The first record of @type in @path's data section: a pointer to its
 * header (type u32, misc u16, size u16) in a buffer of the helper's,
 * valid until the next call; *@rsize its header's size and *@avail the
 * bytes read from its start (at least *@rsize; a payload after it, as
 * AUXTRACE's, must be checked against it). NULL when the file cannot be
 * read, has no such record, or a record is empty or runs past what was
 * read (the walk stops there rather than read beyond). */
static inline const uint8_t *pd_walk_find(const char *path, uint32_t type,
					  size_t *rsize, size_t *avail)
{
	static uint8_t d[1 << 16];
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = fread(d, 1, sizeof(d), f);
	fclose(f);
	if (n < 56)
		return NULL;
	/* perf_file_header: magic, size, attr_size, attrs {offset, size},
	 * data {offset, size} at 40 and 48. */
	uint64_t off, size;
	memcpy(&off, d + 40, 8);
	memcpy(&size, d + 48, 8);
	for (uint64_t at = off; at + 8 <= off + size && at + 8 <= n;) {
		uint32_t t;
		uint16_t rs;
		memcpy(&t, d + at, 4);
		memcpy(&rs, d + at + 6, 2);
		if (!rs || at + rs > n)
			return NULL;
		if (t == type) {
			*rsize = rs;
			*avail = n - at;
			return d + at;
		}
		at += rs;
	}
	return NULL;
}

#endif
