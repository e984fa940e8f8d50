/* Compressed perf.data (perf record -z): records written through the
 * writer with compression, and a pipe stream of COMPRESSED2 records laid
 * out here with zstd directly, read back byte for byte as written. The
 * records are incompressible and many, so compressed records fill to
 * their 64 KiB limit and records straddle two of them; AUXTRACE payloads
 * larger than the reader's window go through the compressed stream with
 * HWT_PD_COMPRESS_AUX. A damaged COMPRESSED2 frame is an error naming the
 * file, the record and its byte offset. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define NRECORDS 12000
#define AUX_SIZE (300 * 1024)

static uint8_t records[NRECORDS * 264];
static size_t records_len;
static uint8_t aux_payload[AUX_SIZE];
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Kernel records (SAMPLE, type 9) of 16 to 256 bytes of noise. */
static void make_records(void)
{
	records_len = 0;
	for (int i = 0; i < NRECORDS; i++) {
		uint16_t size = (uint16_t)(16 + 8 * (next_rand() % 31));
		uint8_t *r = records + records_len;

		for (size_t j = 0; j < size; j++)
			r[j] = (uint8_t)next_rand();
		memset(r, 0, 8);
		r[0] = PERF_RECORD_SAMPLE;
		memcpy(r + 6, &size, 2);
		records_len += size;
	}
	for (size_t j = 0; j < AUX_SIZE; j++)
		aux_payload[j] = (uint8_t)next_rand();
}

static const struct perf_event_attr attr = {
	.type = PERF_TYPE_SOFTWARE, .size = sizeof(struct perf_event_attr),
	.config = PERF_COUNT_SW_DUMMY,
};

/* Writes the records, with an AUXTRACE after the first half. */
static int write_file(const char *path, int level, unsigned flags)
{
	struct hwt_pd_writer *w;
	struct hwt_pd_auxtrace aux = {.size = AUX_SIZE, .offset = 0,
				      .idx = 0, .tid = 1, .cpu = 0};
	uint64_t id = 7;
	size_t at = 0;
	int n = 0;

	if (hwt_pd_writer_open(path, &w) < 0)
		return -1;
	hwt_pd_writer_add_attr(w, &attr, &id, 1, "dummy");
	if (level && hwt_pd_writer_set_compression(w, level, flags) < 0)
		return -1;
	while (at < records_len) {
		uint16_t size;

		memcpy(&size, records + at + 6, 2);
		if (hwt_pd_writer_record(w, records + at) < 0)
			return -1;
		at += size;
		if (++n == NRECORDS / 2 && hwt_pd_writer_auxtrace(w, &aux, aux_payload) < 0)
			return -1;
		if (n % 1000 == 0 && hwt_pd_writer_finished_round(w) < 0)
			return -1;
	}
	return hwt_pd_writer_close(w);
}

/* Reads @path back: the SAMPLE records must be the bytes written, in
 * order, and the AUXTRACE payload must be whole. Returns the number of
 * COMPRESSED + COMPRESSED2 records the reader counted, or -1. */
static long read_back(const char *path, const char *what)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	size_t at = 0, nsamples = 0, naux = 0;
	const uint64_t *counts;
	long ncomp;
	int n;

	if (hwt_pd_reader_open(path, &r) < 0) {
		HWT_FAIL("%s: open: %s", what, hwt_errmsg());
		return -1;
	}
	while ((n = hwt_pd_reader_next(r, &rec)) > 0) {
		if (rec.type == PERF_RECORD_SAMPLE) {
			if (at + rec.size > records_len ||
			    memcmp(rec.data, records + at, rec.size)) {
				HWT_FAIL("%s: record %zu differs", what, nsamples);
				break;
			}
			at += rec.size;
			nsamples++;
		} else if (rec.type == HWT_PD_RECORD_AUXTRACE) {
			CHECK_U64(rec.aux.size, AUX_SIZE);
			CHECK(rec.aux_data && !memcmp(rec.aux_data, aux_payload, AUX_SIZE));
			CHECK_INT(nsamples, NRECORDS / 2);
			naux++;
		}
	}
	CHECK_INT(n, 0);
	if (n < 0)
		fprintf(stderr, "%s: %s\n", what, hwt_errmsg());
	CHECK_INT(nsamples, NRECORDS);
	CHECK_U64(at, records_len);
	counts = hwt_pd_reader_counts(r);
	ncomp = (long)(counts[HWT_PD_RECORD_COMPRESSED] +
		       counts[HWT_PD_RECORD_COMPRESSED2]);
	hwt_pd_reader_free(r);
	return ncomp;
}

/* A pipe stream: header, ATTR, then the records compressed with zstd
 * (flushed every @flush_every bytes of input) into COMPRESSED2 records
 * carrying at most @max_data bytes each. */
static size_t make_pipe(uint8_t *out, size_t cap, size_t flush_every,
			size_t max_data, long *nrecs)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t zcap = ZSTD_compressBound(records_len) + 4096, zlen = 0, len = 0;
	uint8_t *z = malloc(zcap);
	uint64_t id = 7, hsize = 16;
	uint16_t asize = (uint16_t)(8 + sizeof(attr) + 8);
	uint32_t type = HWT_PD_RECORD_HEADER_ATTR;

	memcpy(out, "PERFILE2", 8);
	memcpy(out + 8, &hsize, 8);
	len = 16;
	memset(out + len, 0, 8);
	memcpy(out + len, &type, 4);
	memcpy(out + len + 6, &asize, 2);
	memcpy(out + len + 8, &attr, sizeof(attr));
	memcpy(out + len + 8 + sizeof(attr), &id, 8);
	len += asize;
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1);
	for (size_t at = 0; at < records_len; at += flush_every) {
		size_t take = records_len - at < flush_every ? records_len - at
							      : flush_every;
		ZSTD_inBuffer in = {records + at, take, 0};
		size_t left;

		do {
			ZSTD_outBuffer o = {z + zlen, zcap - zlen, 0};
			left = ZSTD_compressStream2(cc, &o, &in, ZSTD_e_flush);
			zlen += o.pos;
		} while (left && !ZSTD_isError(left));
	}
	for (size_t at = 0; at < zlen; at += max_data) {
		uint64_t n = zlen - at < max_data ? zlen - at : max_data;
		uint16_t size = (uint16_t)((16 + n + 7) / 8 * 8);

		type = HWT_PD_RECORD_COMPRESSED2;
		if (len + size > cap)
			break;
		memset(out + len, 0, size);
		memcpy(out + len, &type, 4);
		memcpy(out + len + 6, &size, 2);
		memcpy(out + len + 8, &n, 8);
		memcpy(out + len + 16, z + at, n);
		len += size;
		++*nrecs;
	}
	free(z);
	ZSTD_freeCCtx(cc);
	return len;
}

static int write_bytes(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok = fd >= 0 && write(fd, p, n) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

int main(void)
{
	char dir[] = "/tmp/hwt-zstd-XXXXXX", plain[64], comp[64], comp_aux[64],
	     pipe2[64];
	static uint8_t stream[8 << 20];
	size_t len;
	long ncomp;

	make_records();
	if (!mkdtemp(dir))
		return 1;
	snprintf(plain, sizeof(plain), "%s/plain.data", dir);
	snprintf(comp, sizeof(comp), "%s/z.data", dir);
	snprintf(comp_aux, sizeof(comp_aux), "%s/za.data", dir);
	snprintf(pipe2, sizeof(pipe2), "%s/pipe2.data", dir);

	CHECK_INT(write_file(plain, 0, 0), 0);
	CHECK_INT(write_file(comp, 3, 0), 0);
	CHECK_INT(write_file(comp_aux, 3, HWT_PD_COMPRESS_AUX), 0);
	CHECK_INT(read_back(plain, "plain"), 0);
	/* ~1.6 MB of noise in records of at most 64 KiB: many of them. */
	ncomp = read_back(comp, "-z");
	CHECK(ncomp >= (long)(records_len / 65536));
	fprintf(stderr, "-z: %ld COMPRESSED records for %zu bytes of records\n",
		ncomp, records_len);
	ncomp = read_back(comp_aux, "-z --compress-aux");
	CHECK(ncomp >= (long)((records_len + AUX_SIZE) / 65536));

	/* COMPRESSED2, odd flush points, records cut every 999 bytes. */
	{
		long written = 0;

		len = make_pipe(stream, sizeof(stream), 7000, 999, &written);
		CHECK_INT(write_bytes(pipe2, stream, len), 0);
		ncomp = read_back(pipe2, "COMPRESSED2 pipe");
		fprintf(stderr, "COMPRESSED2 pipe: %ld records\n", ncomp);
		CHECK_INT(ncomp, written);
		CHECK(written > 1000);
	}

	/* Damage the zstd frame header of the first COMPRESSED2 record (after
	 * the 16-byte pipe header and the ATTR record). */
	{
		size_t first = 16 + 8 + sizeof(attr) + 8;
		struct hwt_pd_reader *r;
		struct hwt_pd_record rec;
		char want[160];
		int n;

		memset(stream + first + 16, 0xee, 4);
		CHECK_INT(write_bytes(pipe2, stream, len), 0);
		CHECK_INT(hwt_pd_reader_open(pipe2, &r), 0);
		while ((n = hwt_pd_reader_next(r, &rec)) > 0)
			;
		CHECK_INT(n, HWT_ERR_FORMAT);
		snprintf(want, sizeof(want), "%s: record COMPRESSED2 (83) at byte "
			 "offset %zu: its zstd data is corrupt", pipe2, first);
		CHECK_CONTAINS(hwt_errmsg(), want);
		/* The error stays. */
		CHECK_INT(hwt_pd_reader_next(r, &rec), HWT_ERR_FORMAT);
		hwt_pd_reader_free(r);
	}
	/* A compressed record inside compressed data: refused, named. */
	{
		uint8_t inner[16] = {HWT_PD_RECORD_COMPRESSED, 0, 0, 0, 0, 0, 16};
		uint8_t z[128], *p = stream;
		size_t zlen = ZSTD_compress(z, sizeof(z), inner, sizeof(inner), 1);
		uint64_t hsize = 16, dsize = zlen;
		uint16_t size = (uint16_t)((16 + zlen + 7) / 8 * 8);
		uint32_t type = HWT_PD_RECORD_COMPRESSED2;
		struct hwt_pd_reader *r;
		struct hwt_pd_record rec;
		char want[320];

		memcpy(p, "PERFILE2", 8);
		memcpy(p + 8, &hsize, 8);
		memset(p + 16, 0, size);
		memcpy(p + 16, &type, 4);
		memcpy(p + 16 + 6, &size, 2);
		memcpy(p + 16 + 8, &dsize, 8);
		memcpy(p + 16 + 16, z, zlen);
		CHECK_INT(write_bytes(pipe2, stream, 16 + size), 0);
		CHECK_INT(hwt_pd_reader_open(pipe2, &r), 0);
		CHECK_INT(hwt_pd_reader_next(r, &rec), HWT_ERR_FORMAT);
		snprintf(want, sizeof(want), "%s: the data decompressed from the "
			 "COMPRESSED record at byte offset 16 holds a compressed "
			 "record (COMPRESSED (81)) itself, at decompressed byte 0",
			 pipe2);
		CHECK_STR(hwt_errmsg(), want);
		hwt_pd_reader_free(r);
	}
	unlink(plain);
	unlink(comp);
	unlink(comp_aux);
	unlink(pipe2);
	rmdir(dir);
	return hwt_test_summary();
}
