/* Corrupt and truncated perf.data files: the real captures cut at every
 * record boundary and inside records, with sizes and types overwritten.
 * Each gives a clean error naming the byte offset, the records before the
 * damage are still delivered, and nothing crashes (this test also runs in
 * the ASan+UBSan build). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define SIMPLEPERF HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"

struct file {
	uint8_t *bytes;
	size_t size;
	uint64_t data_offset, data_end;
	uint64_t *offsets;  /* record starts, then data_end */
	uint32_t *types;
	size_t nrecs;
};

static char tmp[64];

static void load(const char *path, struct file *f)
{
	FILE *fp = fopen(path, "rb");
	uint64_t pos;

	memset(f, 0, sizeof(*f));
	CHECK(fp != NULL);
	if (!fp)
		exit(1);
	fseek(fp, 0, SEEK_END);
	f->size = (size_t)ftell(fp);
	rewind(fp);
	f->bytes = malloc(f->size);
	CHECK_INT(fread(f->bytes, 1, f->size, fp), f->size);
	fclose(fp);
	/* Record boundaries from the header's data section, walked here with
	 * the layout of perf.data-file-format.txt, independently of the
	 * reader. */
	memcpy(&f->data_offset, f->bytes + 40, 8);
	memcpy(&f->data_end, f->bytes + 48, 8);
	f->data_end += f->data_offset;
	f->offsets = malloc(sizeof(uint64_t) * (f->size / 8 + 1));
	f->types = malloc(sizeof(uint32_t) * (f->size / 8 + 1));
	for (pos = f->data_offset; pos < f->data_end;) {
		uint32_t type;
		uint16_t size;
		uint64_t payload = 0;

		memcpy(&type, f->bytes + pos, 4);
		memcpy(&size, f->bytes + pos + 6, 2);
		if (type == 71)
			memcpy(&payload, f->bytes + pos + 8, 8);
		f->types[f->nrecs] = type;
		f->offsets[f->nrecs++] = pos;
		pos += size + payload;
	}
	f->offsets[f->nrecs] = pos;
	CHECK_U64(pos, f->data_end);
}

static void save(const uint8_t *bytes, size_t size)
{
	FILE *fp = fopen(tmp, "wb");

	if (!fp || fwrite(bytes, 1, size, fp) != size)
		exit(1);
	fclose(fp);
}

/* Reads @tmp to the end. Returns the records delivered; *err is the
 * final status (0 or an error, with its message in @msg). */
static size_t read_all(int *err, char *msg, size_t msgsize, int open_only_err)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	size_t n = 0;
	int ret;

	*err = hwt_pd_reader_open(tmp, &r);
	snprintf(msg, msgsize, "%s", *err ? hwt_errmsg() : "");
	if (*err)
		return open_only_err ? 0 : (size_t)-1;
	while ((ret = hwt_pd_reader_next(r, &rec)) > 0) {
		/* Touch every byte handed out, for the sanitizers. */
		volatile uint8_t sum = 0;

		for (size_t i = 0; i < rec.size; i++)
			sum += ((const uint8_t *)rec.data)[i];
		if (rec.aux_data)
			for (size_t i = 0; i < rec.aux.size; i++)
				sum += rec.aux_data[i];
		(void)sum;
		n++;
	}
	*err = ret;
	snprintf(msg, msgsize, "%s", ret ? hwt_errmsg() : "");
	/* The error sticks. */
	if (ret)
		CHECK_INT(hwt_pd_reader_next(r, &rec), ret);
	{
		struct hwt_pd_aux_queues *q = NULL;

		hwt_pd_aux_queues_build(r, &q);
		hwt_pd_aux_queues_free(q);
	}
	hwt_pd_reader_free(r);
	return n;
}

static void cut_everywhere(const char *path)
{
	struct file f;
	char msg[1024], want[64];
	int err;

	load(path, &f);
	for (size_t i = 0; i < f.nrecs; i++) {
		uint64_t start = f.offsets[i], len = f.offsets[i + 1] - start;
		uint64_t cuts[] = {start, start + 1, start + 7, start + 8,
				   start + len / 2, start + len - 1};

		for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
			size_t n;

			if (cuts[c] >= start + len || (c && cuts[c] == cuts[c - 1]))
				continue;
			save(f.bytes, (size_t)cuts[c]);
			n = read_all(&err, msg, sizeof(msg), 0);
			/* Every record before the cut, then the error. */
			if (n != i || err != HWT_ERR_TRUNCATED)
				HWT_FAIL("%s cut at %" PRIu64 ": %zu records, err %d "
					 "(%s); want %zu and TRUNCATED", path,
					 cuts[c], n, err, msg, i);
			hwt_test_checks++;
			/* The message names the file and the byte offset of the
			 * record (or of the cut, at a boundary). */
			CHECK_CONTAINS(msg, tmp);
			snprintf(want, sizeof(want), "byte offset %" PRIu64,
				 cuts[c] == start ? cuts[c] : start);
			if (!strstr(msg, want))
				HWT_FAIL("cut at %" PRIu64 ": \"%s\" lacks \"%s\"",
					 cuts[c], msg, want);
			hwt_test_checks++;
		}
	}
	/* Cut in the header, attributes and ids: a clean error at open. */
	for (uint64_t cut = 0; cut < f.data_offset; cut += 7) {
		struct hwt_pd_reader *r = NULL;

		save(f.bytes, (size_t)cut);
		err = hwt_pd_reader_open(tmp, &r);
		CHECK(err == HWT_ERR_TRUNCATED || err == HWT_ERR_FORMAT);
		CHECK(r == NULL);
	}
	/* Cut in the feature sections: every record still reads. */
	for (uint64_t cut = f.data_end; cut < f.size; cut += 61) {
		size_t n;

		save(f.bytes, (size_t)cut);
		n = read_all(&err, msg, sizeof(msg), 0);
		CHECK_INT(n, f.nrecs);
		CHECK_INT(err, 0);
	}
	free(f.bytes);
	free(f.offsets);
	free(f.types);
}

static void quipper_cut_everywhere(void)
{
	cut_everywhere(QUIPPER);
}

static void simpleperf_cut_everywhere(void)
{
	cut_everywhere(SIMPLEPERF);
}

static void sizes_and_types_flipped(const char *path)
{
	static const uint16_t bad_sizes[] = {0, 1, 4, 7};
	static const uint16_t odd_sizes[] = {8, 9, 48, 0x1000, 0xffff};
	static const uint32_t types[] = {71, 66, 9, 0, 0xffffffff, 70, 80, 64};
	struct file f;
	uint8_t *copy;
	char msg[1024], want[64];
	int err;

	load(path, &f);
	copy = malloc(f.size);
	for (size_t i = 0; i < f.nrecs; i++) {
		uint64_t at = f.offsets[i];

		/* A size below the header: FORMAT, after exactly i records. */
		for (size_t k = 0; k < sizeof(bad_sizes) / sizeof(bad_sizes[0]); k++) {
			size_t n;

			memcpy(copy, f.bytes, f.size);
			memcpy(copy + at + 6, &bad_sizes[k], 2);
			save(copy, f.size);
			n = read_all(&err, msg, sizeof(msg), 0);
			if (n != i || err != HWT_ERR_FORMAT)
				HWT_FAIL("%s size %u at %" PRIu64 ": %zu records, "
					 "err %d; want %zu, FORMAT", path,
					 bad_sizes[k], at, n, err, i);
			hwt_test_checks++;
			snprintf(want, sizeof(want), "byte offset %" PRIu64, at);
			CHECK_CONTAINS(msg, want);
			CHECK_CONTAINS(msg, "has size");
		}
		/* Other sizes and types shift or reinterpret what follows:
		 * anything may come out, but at least the i records before,
		 * and no crash. */
		for (size_t k = 0; k < sizeof(odd_sizes) / sizeof(odd_sizes[0]); k++) {
			memcpy(copy, f.bytes, f.size);
			memcpy(copy + at + 6, &odd_sizes[k], 2);
			save(copy, f.size);
			CHECK(read_all(&err, msg, sizeof(msg), 0) >= i);
		}
		for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
			memcpy(copy, f.bytes, f.size);
			memcpy(copy + at, &types[k], 4);
			save(copy, f.size);
			CHECK(read_all(&err, msg, sizeof(msg), 0) >= i);
		}
		/* An AUXTRACE payload size past the data: FORMAT naming the
		 * record type. */
		for (int h = 0; h < 2 && f.types[i] == 71; h++) {
			/* The second wraps a 64-bit end computation. */
			uint64_t huge = h ? UINT64_MAX - 7 : 1ULL << 40;
			size_t n;

			memcpy(copy, f.bytes, f.size);
			memcpy(copy + at + 8, &huge, 8);
			save(copy, f.size);
			n = read_all(&err, msg, sizeof(msg), 0);
			CHECK_INT(n, i);
			CHECK_INT(err, HWT_ERR_FORMAT);
			CHECK_CONTAINS(msg, "AUXTRACE (71)");
			snprintf(want, sizeof(want), "byte offset %" PRIu64, at);
			CHECK_CONTAINS(msg, want);
		}
	}
	free(copy);
	free(f.bytes);
	free(f.offsets);
	free(f.types);
}

static void quipper_sizes_and_types_flipped(void)
{
	sizes_and_types_flipped(QUIPPER);
}

static void simpleperf_sizes_and_types_flipped(void)
{
	sizes_and_types_flipped(SIMPLEPERF);
}

/* Every header field overwritten with values that point nowhere. */
static void header_fields_flipped(void)
{
	static const uint64_t values[] = {0, 1, 7, 0x68, 0xffff, 1ULL << 32,
					  1ULL << 63, UINT64_MAX};
	struct file f;
	uint8_t *copy;
	char msg[1024];
	int err;

	load(QUIPPER, &f);
	copy = malloc(f.size);
	for (size_t field = 8; field < 104; field += 8) {
		for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
			memcpy(copy, f.bytes, f.size);
			memcpy(copy + field, &values[k], 8);
			save(copy, f.size);
			read_all(&err, msg, sizeof(msg), 1);
			CHECK(err <= 0);
		}
	}
	/* The attributes' id sections and the feature table. */
	for (uint64_t at = 0xe8; at < 0x2e8; at += 8) {
		for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
			memcpy(copy, f.bytes, f.size);
			memcpy(copy + at, &values[k], 8);
			save(copy, f.size);
			read_all(&err, msg, sizeof(msg), 1);
			CHECK(err <= 0);
		}
	}
	for (uint64_t at = f.data_end; at < f.data_end + 14 * 16 + 64 && at + 8 <= f.size;
	     at += 8) {
		for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
			memcpy(copy, f.bytes, f.size);
			memcpy(copy + at, &values[k], 8);
			save(copy, f.size);
			read_all(&err, msg, sizeof(msg), 1);
			CHECK(err <= 0);
		}
	}
	free(copy);
	free(f.bytes);
	free(f.offsets);
	free(f.types);
}

/* A bad auxtrace index is not trusted: the queues come from a scan. */
static void bad_auxtrace_index(void)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_aux_queues *q = NULL;
	struct file f;
	uint64_t feat_off = 0, size, bad = 0x2e8, huge = UINT64_MAX - 7;
	const void *data;
	uint8_t *copy;

	load(QUIPPER, &f);
	copy = malloc(f.size);
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_reader_feature_raw(r, HWT_PD_FEAT_AUXTRACE, &feat_off,
					    &data, &size), 0);
	hwt_pd_reader_free(r);
	/* The first entry points at the TIME_CONV record at 0x2e8. */
	memcpy(copy, f.bytes, f.size);
	memcpy(copy + feat_off + 8, &bad, 8);
	save(copy, f.size);
	CHECK_INT(hwt_pd_reader_open(tmp, &r), 0);
	if (r) {
		CHECK_INT(hwt_pd_aux_queues_build(r, &q), 0);
		CHECK(q && !hwt_pd_aux_queues_from_index(q));
		CHECK_INT(q ? hwt_pd_aux_queues_count(q) : 0, 2);
		if (q) {
			CHECK_U64(hwt_pd_aux_queues_get(q, 0)->bytes, 12240);
			CHECK_U64(hwt_pd_aux_queues_get(q, 1)->bytes, 137728);
		}
		hwt_pd_aux_queues_free(q);
		hwt_pd_reader_free(r);
	}
	/* The second AUXTRACE (0x7788) claims a payload that wraps: the scan
	 * keeps the first buffer and names the record. */
	memcpy(copy, f.bytes, f.size);
	memcpy(copy + 0x7788 + 8, &huge, 8);
	save(copy, f.size);
	CHECK_INT(hwt_pd_reader_open(tmp, &r), 0);
	if (r) {
		q = NULL;
		CHECK_INT(hwt_pd_aux_queues_build(r, &q), HWT_ERR_TRUNCATED);
		CHECK_CONTAINS(hwt_errmsg(), "AUXTRACE (71) at byte offset 30600");
		CHECK_INT(q ? hwt_pd_aux_queues_count(q) : 0, 1);
		hwt_pd_aux_queues_free(q);
		hwt_pd_reader_free(r);
	}
	free(copy);
	free(f.bytes);
	free(f.offsets);
	free(f.types);
}

static void not_perf_data(void)
{
	struct hwt_pd_reader *r = NULL;
	uint8_t be[104] = "2ELIFREP";
	uint8_t junk[104] = "hello, world";

	save(be, sizeof(be));
	CHECK_INT(hwt_pd_reader_open(tmp, &r), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "big-endian");
	CHECK_CONTAINS(hwt_errmsg(), tmp);
	save(junk, sizeof(junk));
	CHECK_INT(hwt_pd_reader_open(tmp, &r), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "not a perf.data file");
	save(junk, 3);
	CHECK_INT(hwt_pd_reader_open(tmp, &r), HWT_ERR_TRUNCATED);
	save(junk, 0);
	CHECK_INT(hwt_pd_reader_open(tmp, &r), HWT_ERR_FORMAT);
	CHECK_INT(hwt_pd_reader_open("/nonexistent/perf.data", &r), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "/nonexistent/perf.data");
	CHECK(r == NULL);
	hwt_pd_reader_free(NULL);
}

int main(void)
{
	int fd;

	/* Thousands of small rewrites: memory-backed when there is one. */
	snprintf(tmp, sizeof(tmp), "%s/hwt-corrupt-XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	fd = mkstemp(tmp);
	if (fd < 0)
		return 1;
	close(fd);
	RUN(quipper_cut_everywhere);
	RUN(simpleperf_cut_everywhere);
	RUN(quipper_sizes_and_types_flipped);
	RUN(simpleperf_sizes_and_types_flipped);
	RUN(header_fields_flipped);
	RUN(bad_auxtrace_index);
	RUN(not_perf_data);
	unlink(tmp);
	return hwt_test_summary();
}
