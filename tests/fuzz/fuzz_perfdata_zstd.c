/* libFuzzer target for the reader's decompression path (perf record -z):
 * the input becomes a pipe-mode perf.data whose records are COMPRESSED or
 * COMPRESSED2 records. The first byte chooses how: bit 0 clear, the rest
 * of the input is taken as uncompressed records and compressed here (so
 * the records inside are what gets fuzzed, including records cut across
 * compressed records); bit 0 set, it is taken as the zstd stream itself
 * (corrupt frames). Bit 1 picks COMPRESSED2; the second byte sets how
 * many bytes each compressed record carries. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "hwtrace/perfdata.h"
#include "fuzz_read_records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int put(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

/* Writes @z[0..len) as compressed records of at most @chunk bytes each. */
static int write_records(int fd, const uint8_t *z, size_t len, size_t chunk,
			 int type2)
{
	static const uint8_t zeros[8];

	for (size_t at = 0; at < len; at += chunk) {
		size_t n = len - at < chunk ? len - at : chunk;
		uint8_t h[16] = {0};
		size_t hsize = type2 ? 16 : 8;
		size_t total = hsize + n, pad = type2 ? (8 - total % 8) % 8 : 0;

		h[0] = type2 ? HWT_PD_RECORD_COMPRESSED2 : HWT_PD_RECORD_COMPRESSED;
		h[6] = (uint8_t)(total + pad);
		h[7] = (uint8_t)((total + pad) >> 8);
		if (type2)
			memcpy(h + 8, &(uint64_t){n}, 8);
		if (put(fd, h, hsize) || put(fd, z + at, n) || put(fd, zeros, pad))
			return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t pipe_header[16] = {'P', 'E', 'R', 'F', 'I', 'L',
						'E', '2', 16};
	struct hwt_pd_reader *r = NULL;
	uint8_t *z = NULL;
	size_t zlen, chunk;
	char path[64];
	int fd, type2;

	if (size < 2)
		return 0;
	type2 = data[0] & 2;
	chunk = 1 + (size_t)data[1] * 255;
	if (data[0] & 1) {
		z = malloc(size - 2 + 1);
		if (!z)
			return 0;
		memcpy(z, data + 2, size - 2);
		zlen = size - 2;
	} else {
		size_t cap = ZSTD_compressBound(size - 2);

		z = malloc(cap);
		if (!z)
			return 0;
		zlen = ZSTD_compress(z, cap, data + 2, size - 2, 1);
		if (ZSTD_isError(zlen)) {
			free(z);
			return 0;
		}
	}
	fd = memfd_create("perfdata-zstd", MFD_CLOEXEC);
	if (fd < 0 || put(fd, pipe_header, sizeof(pipe_header)) ||
	    write_records(fd, z, zlen, chunk, type2)) {
		if (fd >= 0)
			close(fd);
		free(z);
		return 0;
	}
	free(z);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (hwt_pd_reader_open(path, &r) == 0) {
		fuzz_read_records(r);
		hwt_pd_reader_free(r);
	}
	close(fd);
	return 0;
}
