/* hwt_infile_read_all: a whole input file into memory, opened by the one
 * opener (os_infile.c), for inputs that are used as one buffer (the raw
 * trace bytes an emulated trace unit writes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hwtrace/error.h"
#include "hwtrace/infile.h"

#define FIRST_CHUNK 65536

int hwt_infile_read_all(const char *path, const char *what, uint8_t **data,
			size_t *len)
{
	FILE *f;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	int err = hwt_infile_fopen(path, what, 0, &f);

	*data = NULL;
	*len = 0;
	if (err < 0)
		return err;
	for (;;) {
		size_t got;
		if (n == cap) {
			/* Doubling: a file of any size in a few reads. */
			size_t want = cap ? cap * 2 : FIRST_CHUNK;
			uint8_t *nb = want > cap ? realloc(buf, want) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				return hwt_error(HWT_ERR_NOMEM, "%s: out of memory "
						 "reading it", path);
			}
			buf = nb;
			cap = want;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return hwt_error(HWT_ERR_IO, "%s: read error", path);
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}
