/* Test helper: AUX sampling captures of libipt's ptt streams with their
 * code (an intel_pt leader with the tsc bit, cycles with PERF_SAMPLE_AUX,
 * an MMAP2 of the .bin at the stream's org), one sample at the end of
 * every packet of libipt's ptdump listing carrying the whole stream
 * before it, the sample at stream offset p with ip 0x1000 + p, time
 * 1000 + p and period 2000 + p. perf 6.1 reads them (test_sample_perf_branches). */
#ifndef HWT_TESTS_UNIT_SAMPLE_PTT_CAPTURE_H
#define HWT_TESTS_UNIT_SAMPLE_PTT_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/perfdata/perfdata_format.h"
#include "hwtrace/perfdata.h"
#include "test_pt_capture.h"

#define PTT HWT_TESTDATA "/ptt/expected"
#define PTT_MAX_SAMPLES 64
#define PTT_SAMPLE_PERIOD(p) (2000u + (p))

/* Streams whose code pttc wrote, each at org 0x100000. */
static const char *const ptt_sample_streams[] = {
	"loop-tnt",
	"loop-tnt-tnt",
	"loop-tnt-64",
	"ret_near_far",
	"call_direct-ret_compressed",
	"call_indirect_deferred-ret_compressed",
};
#define PTT_SAMPLE_ORG 0x100000u

/* The MMAP2 of @size bytes of @bin at @org for PT_CAPTURE_PID, with the
 * sample_id of the dummy event @id_dummy. */
static int ptt_write_mmap2(struct hwt_pd_writer *w, const char *bin,
			   uint64_t org, uint64_t size, uint64_t id_dummy)
{
	uint8_t rec[1024];
	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	size_t fn = strlen(bin) + 1;
	if (fn > 512)
		return -1;
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 8, pidtid, 8);
	uint64_t mm[3] = {org, size, 0};
	memcpy(rec + 16, mm, sizeof(mm));
	uint32_t prot_flags[2] = {PROT_READ | PROT_EXEC, MAP_PRIVATE};
	memcpy(rec + 64, prot_flags, 8);
	memcpy(rec + 72, bin, fn);
	size_t n = 72 + ((fn + 7) & ~(size_t)7);
	n += pt_capture_sample_id(rec + n, 2, id_dummy);
	pt_capture_header(rec, PERF_RECORD_MMAP2, 0, n);
	return hwt_pd_writer_record(w, rec);
}

static int ptt_write_capture(const char *path, const char *bin, uint64_t org,
			 const uint8_t *d, const size_t *ends, size_t nends)
{
	struct stat st;
	struct hwt_pd_writer *w = NULL;
	if (stat(bin, &st) || hwt_pd_writer_open(path, &w) < 0)
		return -1;
	uint64_t stype = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr pt = {
		.type = PT_CAPTURE_PMU_TYPE, .size = sizeof(pt),
		.config = 1u << 10 /* tsc */, .sample_type = stype,
		.sample_id_all = 1, .exclude_kernel = 1, .disabled = 1,
	};
	struct perf_event_attr cyc = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(cyc),
		.config = PERF_COUNT_HW_CPU_CYCLES, .sample_period = 1000,
		.sample_type = stype | PERF_SAMPLE_PERIOD | PERF_SAMPLE_AUX,
		.sample_id_all = 1,
		.exclude_kernel = 1, .aux_sample_size = 4096,
	};
	struct perf_event_attr dummy = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(dummy),
		.config = PERF_COUNT_SW_DUMMY, .sample_type = stype & ~PERF_SAMPLE_IP,
		.sample_id_all = 1, .mmap = 1, .mmap2 = 1, .comm = 1, .task = 1,
		.exclude_kernel = 1,
	};
	uint64_t id_pt = 1, id_dummy = 2, id_cyc = 3;
	int err = hwt_pd_writer_add_attr(w, &pt, &id_pt, 1, "intel_pt//u");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &cyc, &id_cyc, 1, "cycles:u");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id_dummy, 1, "dummy:u");

	static uint8_t rec[8192];
	if (!err)
		err = pt_capture_info_comm(w, id_dummy, false);
	if (!err)
		err = ptt_write_mmap2(w, bin, org, (uint64_t)st.st_size, id_dummy);

	for (size_t k = 0; k < nends && !err; k++) {
		size_t p = ends[k];
		uint64_t asz = (p + 7) & ~(uint64_t)7; /* zero-padded, as the kernel */
		uint8_t *q = rec + 8;
		pd_put64(q, id_cyc), q += 8;
		pd_put64(q, 0x1000 + p), q += 8;
		pd_put32(q, PT_CAPTURE_PID), pd_put32(q + 4, PT_CAPTURE_PID), q += 8;
		pd_put64(q, 1000 + p), q += 8;
		pd_put64(q, 0), q += 8; /* cpu 0 */
		pd_put64(q, PTT_SAMPLE_PERIOD(p)), q += 8;
		pd_put64(q, asz), q += 8;
		memset(q, 0, asz);
		memcpy(q, d, p);
		q += asz;
		pt_capture_header(rec, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				  (size_t)(q - rec));
		err = hwt_pd_writer_record(w, rec);
	}
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	static uint8_t buf[65536];
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

/* The capture of stream @name at @path: its code's path in @bin, the
 * org its .ptt names in *@org, the samples written in *@nsamples. */
static int ptt_sample_capture(const char *name, const char *path, char *bin,
			      size_t bin_size, uint64_t *org, size_t *nsamples)
{
	char pt[512], src[512], exp[512], line[256];
	size_t len = 0, ends[PTT_MAX_SAMPLES];
	*org = 0;
	*nsamples = 0;
	snprintf(src, sizeof(src), HWT_TESTDATA "/ptt/src/%s.ptt", name);
	FILE *f = fopen(src, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "org ", 4) && !*org)
			*org = strtoull(line + 4, NULL, 0);
	if (f)
		fclose(f);
	snprintf(pt, sizeof(pt), PTT "/%s.pt", name);
	snprintf(bin, bin_size, PTT "/%s.bin", name);
	uint8_t *d = slurp(pt, &len);
	if (!d || !len)
		return -1;
	/* The end of every packet: where the next one starts, and the end
	 * of the stream. */
	snprintf(exp, sizeof(exp), PTT "/%s-ptdump.exp", name);
	f = fopen(exp, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && *nsamples + 1 < PTT_MAX_SAMPLES) {
		char *end;
		unsigned long long off = strtoull(line, &end, 16);
		if (end == line + 16 && off > 0 && off < len)
			ends[(*nsamples)++] = (size_t)off;
	}
	fclose(f);
	ends[(*nsamples)++] = len;
	return ptt_write_capture(path, bin, *org, d, ends, *nsamples);
}

#endif
