/* The reader on real captures: every record's offset, size and type, and
 * every AUXTRACE buffer's fields, equal what `perf report -D` printed for
 * the same files (the *.perf-report-D.txt dumps beside them); payload bytes
 * equal what libipt's ptdump decoded from the extracted buffers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_bytes.h"
#include "harness.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define SIMPLEPERF HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"

struct expected_record {
	uint64_t offset;
	unsigned size, type;
};

struct expected_aux {
	uint64_t size, offset, ref;
	unsigned idx;
	int tid, cpu;
};

struct expected {
	struct expected_record *recs;
	size_t nrecs;
	struct expected_aux aux[8];
	size_t naux;
};

static int by_offset(const void *a, const void *b)
{
	const struct expected_record *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* perf -D prints "0x2e8@FILE [0x20]: event: 79" for every record it reads
 * from the file (kernel records when it delivers them in time order, so
 * they are sorted back into file order here), and "... PERF_RECORD_AUXTRACE size: 0x2fd0  offset: 0  ref:
 * 0xbc4cd519a6  idx: 0  tid: 3174  cpu: 0" for each AUXTRACE. */
static void load_perf_dump(const char *path, struct expected *e)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t cap = 0;

	memset(e, 0, sizeof(*e));
	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct expected_record r;
		char *at = strchr(line, '@'), *aux;
		int n = 0;

		if (line[0] == '0' && line[1] == 'x' && at &&
		    sscanf(line, "0x%" SCNx64 "@%*s [0x%x]: event: %u%n", &r.offset,
			   &r.size, &r.type, &n) == 3 && n > 0) {
			if (e->nrecs == cap) {
				cap = cap ? cap * 2 : 256;
				e->recs = realloc(e->recs, cap * sizeof(*e->recs));
			}
			e->recs[e->nrecs++] = r;
		}
		aux = strstr(line, "PERF_RECORD_AUXTRACE size: ");
		if (aux && e->naux < 8) {
			struct expected_aux *a = &e->aux[e->naux];

			if (sscanf(aux, "PERF_RECORD_AUXTRACE size: %" SCNi64
				   " offset: %" SCNi64 " ref: %" SCNi64 " idx: %u"
				   " tid: %d cpu: %d", &a->size, &a->offset,
				   &a->ref, &a->idx, &a->tid, &a->cpu) == 6)
				e->naux++;
		}
	}
	fclose(f);
	qsort(e->recs, e->nrecs, sizeof(*e->recs), by_offset);
}

static void check_file(const char *path, const char *dump, size_t want_recs,
		       size_t want_aux, int want_simpleperf)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct expected e;
	size_t i = 0, naux = 0;
	int n;

	load_perf_dump(dump, &e);
	CHECK_INT(e.nrecs, want_recs);
	CHECK_INT(e.naux, want_aux);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_reader_is_simpleperf(r), want_simpleperf);
	CHECK_INT(hwt_pd_reader_is_pipe(r), 0);
	while ((n = hwt_pd_reader_next(r, &rec)) > 0) {
		if (i < e.nrecs) {
			CHECK_U64(rec.file_offset, e.recs[i].offset);
			CHECK_INT(rec.size, e.recs[i].size);
			CHECK_INT(rec.type, e.recs[i].type);
		}
		if (rec.type == HWT_PD_RECORD_AUXTRACE && naux < e.naux) {
			CHECK_U64(rec.aux.size, e.aux[naux].size);
			CHECK_U64(rec.aux.offset, e.aux[naux].offset);
			CHECK_U64(rec.aux.reference, e.aux[naux].ref);
			CHECK_INT(rec.aux.idx, e.aux[naux].idx);
			CHECK_INT((int)rec.aux.tid, e.aux[naux].tid);
			CHECK_INT((int)rec.aux.cpu, e.aux[naux].cpu);
			CHECK(rec.aux_data != NULL);
			naux++;
		}
		i++;
	}
	CHECK_INT(n, 0);
	CHECK_INT(i, e.nrecs);
	CHECK_INT(naux, e.naux);
	hwt_pd_reader_free(r);
	free(e.recs);
}

static void quipper_records_match_perf(void)
{
	/* perf's aggregated stats for this file: 257 events, 2 AUXTRACE. */
	check_file(QUIPPER, QUIPPER ".perf-report-D.txt", 257, 2, 0);
}

static void simpleperf_records_match_perf(void)
{
	/* perf's TOTAL of 72 includes 2 ATTR events it synthesizes for its
	 * own decoder output; 70 are in the file. */
	check_file(SIMPLEPERF, SIMPLEPERF ".perf-report-D.txt", 70, 1, 1);
}

/* ptdump of the extracted buffers: a PSB (02 82 x8) at offset 0 of both,
 * "tsc bc4cd2cfe8" at 0x36 of cpu0 (opcode 0x19, 7 bytes LE), the last
 * packet of cpu3 a tip.pgd with no IP (0x01) at 0x219f8. */
static void quipper_payloads_match_ptdump(void)
{
	static const uint8_t psb[16] = {2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82};
	static const uint8_t tsc[8] = {0x19, 0xe8, 0xcf, 0xd2, 0x4c, 0xbc, 0, 0};
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	int seen = 0;

	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	while (hwt_pd_reader_next(r, &rec) > 0) {
		if (rec.type != HWT_PD_RECORD_AUXTRACE)
			continue;
		CHECK(memcmp(rec.aux_data, psb, sizeof(psb)) == 0);
		if (rec.aux.cpu == 0)
			CHECK(memcmp(rec.aux_data + 0x36, tsc, sizeof(tsc)) == 0);
		if (rec.aux.cpu == 3)
			CHECK_INT(rec.aux_data[0x219f8], 0x01);
		seen++;
	}
	CHECK_INT(seen, 2);
	hwt_pd_reader_free(r);
}

/* Payloads as the file holds them where perf's dump says each AUXTRACE
 * record is (payload at offset + 0x30, "size" bytes). */
static void payloads_are_the_file_bytes(const char *path, const char *dump)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct expected e;
	FILE *f = fopen(path, "rb");
	size_t k = 0;

	load_perf_dump(dump, &e);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r || !f)
		return;
	while (hwt_pd_reader_next(r, &rec) > 0) {
		uint8_t *want;

		if (rec.type != HWT_PD_RECORD_AUXTRACE)
			continue;
		while (k < e.nrecs && e.recs[k].type != HWT_PD_RECORD_AUXTRACE)
			k++;
		CHECK(k < e.nrecs);
		if (k >= e.nrecs)
			break;
		want = malloc(rec.aux.size);
		fseek(f, (long)(e.recs[k].offset + e.recs[k].size), SEEK_SET);
		CHECK_INT(fread(want, 1, rec.aux.size, f), rec.aux.size);
		CHECK(memcmp(rec.aux_data, want, rec.aux.size) == 0);
		free(want);
		k++;
	}
	fclose(f);
	free(e.recs);
	hwt_pd_reader_free(r);
}

static void payloads_match_file(void)
{
	payloads_are_the_file_bytes(QUIPPER, QUIPPER ".perf-report-D.txt");
	payloads_are_the_file_bytes(SIMPLEPERF, SIMPLEPERF ".perf-report-D.txt");
}

/* Only the selected types come out; the counts still cover all (perf's
 * stats: 10 AUX, 2 ITRACE_START, 257 in all). */
static void select_types(void)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	uint32_t types[] = {PERF_RECORD_AUX, PERF_RECORD_ITRACE_START};
	uint64_t total = 0;
	int n = 0;

	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	hwt_pd_reader_set_load_aux(r, false);
	hwt_pd_reader_select_types(r, types, 2);
	while (hwt_pd_reader_next(r, &rec) > 0) {
		CHECK(rec.type == PERF_RECORD_AUX ||
		      rec.type == PERF_RECORD_ITRACE_START);
		n++;
	}
	CHECK_INT(n, 12);
	for (int t = 0; t < HWT_PD_NR_COUNTED_TYPES; t++)
		total += hwt_pd_reader_counts(r)[t];
	CHECK_U64(total, 257);
	hwt_pd_reader_free(r);
}

static void quipper_attrs_and_features(void)
{
	struct hwt_pd_reader *r = NULL;
	char buf[256];
	uint32_t avail = 0, online = 0;

	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	/* The header: 4 attributes of 0x80 bytes at 0xe8, data at 0x2e8. */
	CHECK_INT(hwt_pd_reader_nr_attrs(r), 4);
	CHECK_U64(hwt_pd_reader_header(r)->data_offset, 0x2e8);
	CHECK_U64(hwt_pd_reader_header(r)->data_size, 0x290c0);
	/* perf's AUXTRACE_INFO shows "PMU Type 6": intel_pt's attr type;
	 * quipper's pb_text names the events in this order. */
	CHECK_INT(hwt_pd_reader_attr(r, 0)->attr.type, 6);
	CHECK_STR(hwt_pd_reader_attr(r, 0)->name, "intel_pt//");
	CHECK_STR(hwt_pd_reader_attr(r, 1)->name, "cycles");
	CHECK_INT(hwt_pd_reader_attr(r, 0)->nids, 4);
	CHECK(hwt_pd_reader_has_feature(r, HWT_PD_FEAT_AUXTRACE));
	/* The rest as `perf report --header-only` shows it. */
	CHECK_INT(hwt_pd_reader_nr_cpus(r, &avail, &online), 0);
	CHECK_INT(avail, 4);
	CHECK_INT(online, 4);
	CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_ARCH, buf,
					       sizeof(buf)), 0);
	CHECK_STR(buf, "x86_64");
	CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_CPUID, buf,
					       sizeof(buf)), 0);
	CHECK_STR(buf, "GenuineIntel,6,78,3");
	CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_CPUDESC, buf,
					       sizeof(buf)), 0);
	CHECK_STR(buf, "Intel(R) Core(TM) m7-6Y75 CPU @ 1.20GHz");
	CHECK_INT(hwt_pd_reader_cmdline(r, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/usr/bin/perf record -e cycles -e intel_pt// -o "
		  "/tmp/perf.data.intel_pt-4.14 -- echo Hello, World!");
	hwt_pd_reader_free(r);
}

static void queues(const char *path, size_t nq, const uint32_t *idx,
		   const uint32_t *cpu, const uint64_t *bytes, int from_index)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_aux_queues *q = NULL;

	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_aux_queues_build(r, &q), 0);
	if (q) {
		CHECK_INT(hwt_pd_aux_queues_count(q), nq);
		CHECK_INT(hwt_pd_aux_queues_from_index(q), from_index);
		for (size_t i = 0; i < nq && i < hwt_pd_aux_queues_count(q); i++) {
			const struct hwt_pd_aux_queue *qu = hwt_pd_aux_queues_get(q, i);
			uint8_t *buf = malloc(qu->buffers[0].aux.size);

			CHECK_INT(qu->idx, idx[i]);
			CHECK_INT(qu->cpu, cpu[i]);
			CHECK_U64(qu->bytes, bytes[i]);
			CHECK_INT(qu->nbuffers, 1);
			CHECK_INT(hwt_pd_aux_buffer_read(r, &qu->buffers[0], buf), 0);
			/* Intel PT starts with a PSB; the ETM buffer with
			 * CoreSight's frame sync (ff ff ff 7f) is not at the
			 * start, so only PT's first bytes are checked. */
			if (idx[i] != 7)
				CHECK(buf[0] == 0x02 && buf[1] == 0x82);
			free(buf);
		}
		CHECK(hwt_pd_aux_queues_get(q, nq) == NULL);
	}
	/* The decode queues the buffers as its record stream passes them,
	 * through the same builder: the same queues. */
	struct hwt_capture *cap = NULL;
	const struct hwt_capture_queue *cq = NULL;
	int oerr = hwt_capture_open(path, NULL, &cap);
	/* A build without the capture's decoder (no libipt for Intel PT,
	 * as on a board) opens nothing to compare with: said, not failed. */
	if (oerr == HWT_ERR_NOSUP) {
		printf("skip: the decode's queues of %s: %s\n", path, hwt_errmsg());
		hwt_error_clear();
	} else {
		CHECK_INT(oerr, 0);
		size_t ncq = cap ? hwt_capture_queues(cap, &cq) : 0;
		CHECK_INT(ncq, nq);
	}
	size_t ncq = cap ? hwt_capture_queues(cap, &cq) : 0;
	for (size_t i = 0; q && i < ncq && i < hwt_pd_aux_queues_count(q); i++) {
		const struct hwt_pd_aux_queue *qu = hwt_pd_aux_queues_get(q, i);
		CHECK_INT(cq[i].idx, qu->idx);
		CHECK_INT(cq[i].cpu, (int32_t)qu->cpu);
		CHECK_U64(cq[i].bytes, qu->bytes);
		CHECK_INT(cq[i].npieces, 1);
	}
	hwt_capture_free(cap);
	hwt_pd_aux_queues_free(q);
	hwt_pd_reader_free(r);
}

static void aux_queues_of_real_files(void)
{
	static const uint32_t qidx[] = {0, 3}, qcpu[] = {0, 3};
	static const uint64_t qbytes[] = {12240, 137728};
	static const uint32_t sidx[] = {7}, scpu[] = {7};
	static const uint64_t sbytes[] = {0x180};

	queues(QUIPPER, 2, qidx, qcpu, qbytes, 1);
	/* simpleperf's index lacks perf's count but is still used. */
	queues(SIMPLEPERF, 1, sidx, scpu, sbytes, 1);
}

/* simpleperf's meta info pairs are the key\0value\0 strings of the file
 * (as `strings` shows them: event_type_info cs-etm,8,0, simpleperf_version
 * 1.build.7820434); perf's auxtrace index of quipper's capture counts its
 * two AUXTRACE records (perf report -D); simpleperf's index has no count. */
static bool has_bytes(const uint8_t *hay, size_t len, const void *needle,
		      size_t n)
{
	for (size_t i = 0; n <= len && i <= len - n; i++)
		if (!memcmp(hay + i, needle, n))
			return true;
	return false;
}

static void meta_info_and_index_count(void)
{
	struct hwt_pd_reader *r = NULL;
	const char *key, *value;
	size_t len = 0, n = 0;
	int event_type = 0, version = 0;
	uint8_t *bytes = hwt_test_slurp(SIMPLEPERF, &len);
	uint64_t entries = 0;

	CHECK(bytes != NULL);
	CHECK_INT(hwt_pd_reader_open(SIMPLEPERF, &r), 0);
	for (; r && bytes && hwt_pd_reader_meta_info(r, n, &key, &value); n++) {
		char pair[512];
		int w = snprintf(pair, sizeof(pair), "%s%c%s", key, 0, value);
		CHECK(w > 0 && (size_t)w < sizeof(pair) &&
		      has_bytes(bytes, len, pair, (size_t)w + 1));
		event_type |= !strcmp(key, "event_type_info") &&
			      !strcmp(value, "cs-etm,8,0");
		version |= !strcmp(key, "simpleperf_version") &&
			   !strcmp(value, "1.build.7820434");
	}
	CHECK(n > 2);
	CHECK(event_type && version);
	CHECK_INT(r ? hwt_pd_reader_meta_info(r, n, &key, &value) : 1, 0);
	CHECK_INT(r ? hwt_pd_reader_auxtrace_index_count(r, &entries) : 0,
		  HWT_ERR_NOENT);
	hwt_pd_reader_free(r);
	free(bytes);
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	CHECK_INT(r ? hwt_pd_reader_auxtrace_index_count(r, &entries) : -1, 0);
	CHECK_U64(entries, 2);
	CHECK_INT(r ? hwt_pd_reader_meta_info(r, 0, &key, &value) : 1, 0);
	hwt_pd_reader_free(r);
}

static void simpleperf_sample_ids(void)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;

	CHECK_INT(hwt_pd_reader_open(SIMPLEPERF, &r), 0);
	if (!r)
		return;
	/* perf -D: "7 1118686387481 0x6b0 [0x30]: PERF_RECORD_ITRACE_START
	 * pid: 17235 tid: 17235". */
	while (hwt_pd_reader_next(r, &rec) > 0 && rec.file_offset != 0x6b0)
		;
	CHECK_INT(rec.type, PERF_RECORD_ITRACE_START);
	CHECK_INT(rec.sid.cpu, 7);
	CHECK_U64(rec.sid.time, 1118686387481ULL);
	CHECK_INT(rec.sid.pid, 17235);
	CHECK_INT(rec.sid.tid, 17235);
	CHECK(hwt_pd_reader_attr_by_id(r, rec.sid.id) == hwt_pd_reader_attr(r, 0));
	/* The file's cmdline: "simpleperf64 record -e cs-etm:u"; the
	 * name comes from simpleperf's meta info. */
	CHECK_STR(hwt_pd_reader_attr(r, 0)->name, "cs-etm");
	hwt_pd_reader_free(r);
}

int main(void)
{
	RUN(quipper_records_match_perf);
	RUN(simpleperf_records_match_perf);
	RUN(quipper_payloads_match_ptdump);
	RUN(quipper_attrs_and_features);
	RUN(payloads_match_file);
	RUN(select_types);
	RUN(aux_queues_of_real_files);
	RUN(simpleperf_sample_ids);
	RUN(meta_info_and_index_count);
	return hwt_test_summary();
}
