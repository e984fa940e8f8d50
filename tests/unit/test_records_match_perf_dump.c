/* The typed record views (hwtrace/records.h) against perf itself: every
 * COMM, EXIT, MMAP2, AUX, ITRACE_START and SWITCH_CPU_WIDE record of the
 * quipper Intel PT capture, printed from its view in perf report -D's
 * words, equals the line perf 6.1 printed for the record at that file
 * offset (perf.data.intel_pt-4.14.perf-report-D.txt). Then records cut
 * short: no view of a fixed part that is not there, strings that stop at
 * the record's end, perf's two layouts of AUXTRACE_ERROR, and types
 * without a view. The TIME_CONV view and every sample's leading fields
 * (hwt_rec_sample_head) equal perf's lines for them too; TIME_CONV's 56-
 * byte layout and HEADER_FEATURE, short and whole. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/records.h"

#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

/* The text after "PERF_RECORD_" that perf -D prints for a view. */
static void perf_text(const struct hwt_pd_record *rec, const struct hwt_rec *v,
		      char *buf, size_t size)
{
	switch (rec->type) {
	case PERF_RECORD_COMM:
		snprintf(buf, size, "COMM%s: %.*s:%d/%d",
			 v->u.comm.exec ? " exec" : "", (int)v->u.comm.comm.len,
			 v->u.comm.comm.s, v->u.comm.pid, v->u.comm.tid);
		break;
	case PERF_RECORD_EXIT:
		snprintf(buf, size, "EXIT(%d:%d):(%d:%d)", v->u.fork.pid,
			 v->u.fork.tid, v->u.fork.ppid, v->u.fork.ptid);
		break;
	case PERF_RECORD_MMAP2: {
		const struct hwt_rec_mmap2 *m = &v->u.mmap2;
		snprintf(buf, size, "MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#"
			 PRIx64 " %02x:%02x %" PRIu64 " %" PRIu64 "]: %c%c%c%c %.*s",
			 m->pid, m->tid, m->addr, m->len, m->pgoff, m->maj, m->min,
			 m->ino, m->ino_generation, m->prot & 1 ? 'r' : '-',
			 m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-',
			 m->flags & 1 ? 's' : 'p', (int)m->filename.len,
			 m->filename.s);
		break;
	}
	case PERF_RECORD_AUX:
		snprintf(buf, size, "AUX offset: %#" PRIx64 " size: %#" PRIx64
			 " flags: %#" PRIx64 " [%s]", v->u.aux.aux_offset,
			 v->u.aux.aux_size, v->u.aux.flags,
			 v->u.aux.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "");
		break;
	case PERF_RECORD_ITRACE_START:
		snprintf(buf, size, "ITRACE_START pid: %d tid: %d",
			 v->u.itrace_start.pid, v->u.itrace_start.tid);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		snprintf(buf, size, "SWITCH_CPU_WIDE %s  %s pid/tid: %5d/%-5d",
			 !v->u.sw.out ? "IN         " : !v->u.sw.preempt
				 ? "OUT        " : "OUT preempt",
			 v->u.sw.out ? "next" : "prev", v->u.sw.next_prev_pid,
			 v->u.sw.next_prev_tid);
		break;
	default:
		buf[0] = 0;
	}
}

/* perf's line for the record at @offset, after "PERF_RECORD_", without
 * the line's end; NULL when perf printed none of the kinds above. */
struct perf_line {
	uint64_t offset;
	char text[256];
};

static size_t read_perf_lines(struct perf_line *v, size_t max)
{
	FILE *f = fopen(QUIPPER ".perf-report-D.txt", "r");
	if (!f)
		return 0;
	char line[1024];
	size_t n = 0;
	static const char *kinds[] = {"COMM", "EXIT", "MMAP2", "AUX ",
				      "ITRACE_START", "SWITCH_CPU_WIDE"};
	while (n < max && fgets(line, sizeof(line), f)) {
		char *rec = strstr(line, "]: PERF_RECORD_");
		char *off = strstr(line, " 0x");
		if (!rec || !off || off > rec)
			continue;
		rec += strlen("]: PERF_RECORD_");
		size_t k = 0;
		while (k < 6 && strncmp(rec, kinds[k], strlen(kinds[k])))
			k++;
		if (k == 6 || !strncmp(rec, "AUXTRACE", 8))
			continue;
		rec[strcspn(rec, "\n")] = 0;
		v[n].offset = strtoull(off + 1, NULL, 16);
		snprintf(v[n].text, sizeof(v[n].text), "%s", rec);
		n++;
	}
	fclose(f);
	return n;
}

static void test_views_match_perf(void)
{
	static struct perf_line want[4096];
	size_t nwant = read_perf_lines(want, 4096);
	CHECK(nwant > 100); /* perf's dump was read */
	struct hwt_pd_reader *r;
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	hwt_pd_reader_set_load_aux(r, false);
	struct hwt_pd_record rec;
	size_t matched = 0;
	char got[512];
	while (hwt_pd_reader_next(r, &rec) > 0) {
		struct hwt_rec v;
		int parsed = hwt_rec_parse(&rec, &v);
		perf_text(&rec, &v, got, sizeof(got));
		if (!got[0])
			continue;
		CHECK_INT(parsed, 1);
		CHECK_INT(v.type, rec.type);
		size_t w = 0;
		while (w < nwant && want[w].offset != rec.file_offset)
			w++;
		if (w == nwant) {
			HWT_FAIL("perf printed no line for the record at %#" PRIx64,
				 rec.file_offset);
			continue;
		}
		/* perf pads the IN/OUT columns with spaces at the end. */
		char *t = want[w].text;
		for (size_t e = strlen(t); e && t[e - 1] == ' ';)
			t[--e] = 0;
		for (size_t e = strlen(got); e && got[e - 1] == ' ';)
			got[--e] = 0;
		CHECK_STR(got, t);
		matched++;
	}
	CHECK_INT(matched, nwant);
	hwt_pd_reader_free(r);
}

static struct hwt_pd_record record(uint32_t type, uint16_t misc,
				   const void *bytes, uint16_t size)
{
	return (struct hwt_pd_record){.type = type, .misc = misc, .size = size,
				      .data = bytes};
}

static void test_short_records(void)
{
	/* A COMM whose name has no NUL: it ends with the record. */
	uint8_t comm[24] = {0};
	int32_t pid = 7, tid = 9;
	memcpy(comm + 8, &pid, 4);
	memcpy(comm + 12, &tid, 4);
	memcpy(comm + 16, "abcdefgh", 8);
	struct hwt_pd_record rec = record(PERF_RECORD_COMM, 0, comm, 24);
	struct hwt_rec v;
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK_INT(v.u.comm.pid, 7);
	CHECK_INT(v.u.comm.tid, 9);
	CHECK_INT(v.u.comm.comm.len, 8);
	CHECK(!memcmp(v.u.comm.comm.s, "abcdefgh", 8));
	/* Its fixed part only: an empty name. */
	rec.size = 16;
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK_INT(v.u.comm.comm.len, 0);
	/* One byte short of the fixed part: no view. */
	rec.size = 15;
	CHECK_INT(hwt_rec_parse(&rec, &v), 0);
	uint8_t buf[80] = {0};
	uint32_t types[] = {PERF_RECORD_MMAP, PERF_RECORD_MMAP2,
			    PERF_RECORD_FORK, PERF_RECORD_LOST, PERF_RECORD_AUX,
			    PERF_RECORD_ITRACE_START, PERF_RECORD_SWITCH_CPU_WIDE,
			    HWT_PD_RECORD_AUXTRACE_ERROR};
	uint16_t fixed[] = {40, 72, 24, 24, 32, 16, 16, 32};
	for (size_t i = 0; i < 8; i++) {
		rec = record(types[i], 0, buf, fixed[i] - 1);
		CHECK_INT(hwt_rec_parse(&rec, &v), 0);
		rec.size = fixed[i];
		CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	}
	/* A build-id MMAP2 names at most 20 bytes of id. */
	buf[40] = 200;
	rec = record(PERF_RECORD_MMAP2, 1 << 14, buf, 72);
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK(v.u.mmap2.has_build_id);
	CHECK_INT(v.u.mmap2.build_id_size, 20);
	/* PERF_RECORD_SWITCH has no next/prev task. */
	rec = record(PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT, buf, 8);
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK(v.u.sw.out && !v.u.sw.cpu_wide);
	CHECK_INT(v.u.sw.next_prev_tid, -1);
	/* AUXTRACE_ERROR: as perf reads it, fmt 0 has its message where
	 * fmt 1 has the time. */
	uint8_t err[104] = {0};
	memcpy(err + 40, "at forty", 9);
	rec = record(HWT_PD_RECORD_AUXTRACE_ERROR, 0, err, 104);
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK(v.u.auxtrace_error.has_msg);
	CHECK_INT(v.u.auxtrace_error.msg.len, 8);
	CHECK(!memcmp(v.u.auxtrace_error.msg.s, "at forty", 8));
	err[28] = 1;
	memcpy(err + 48, "at forty-eight", 15);
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK_INT(v.u.auxtrace_error.fmt, 1);
	CHECK_INT(v.u.auxtrace_error.msg.len, 14);
	CHECK(!memcmp(v.u.auxtrace_error.msg.s, "at forty-eight", 14));
	/* Samples and unknown types have no view here. */
	rec = record(PERF_RECORD_SAMPLE, 0, buf, 80);
	CHECK_INT(hwt_rec_parse(&rec, &v), 0);
	rec = record(9999, 0, buf, 80);
	CHECK_INT(hwt_rec_parse(&rec, &v), 0);
}

/* The TIME_CONV view and the samples' leading fields, as perf report -D
 * prints them for the capture ("... Time Shift 31", "SAMPLE(IP, 0x1):
 * 3174/3174: 0x... period: 1 addr: 0"). */
static void test_time_conv_and_samples_match_perf(void)
{
	FILE *f = fopen(QUIPPER ".perf-report-D.txt", "r");
	char line[1024];
	uint64_t shift = 0, mult = 0, zero = 0;
	static struct perf_line samples[64];
	size_t nsamples = 0;
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "... Time Shift %" SCNu64, &shift);
		sscanf(line, "... Time Muliplier %" SCNu64, &mult);
		sscanf(line, "... Time Zero %" SCNu64, &zero);
		char *rec = strstr(line, "]: PERF_RECORD_SAMPLE");
		char *off = strstr(line, " 0x");
		if (rec && off && off < rec && nsamples < 64) {
			rec += strlen("]: PERF_RECORD_");
			rec[strcspn(rec, "\n")] = 0;
			samples[nsamples].offset = strtoull(off + 1, NULL, 16);
			snprintf(samples[nsamples].text, sizeof(samples[0].text), "%s", rec);
			nsamples++;
		}
	}
	if (f)
		fclose(f);
	CHECK(shift && mult && zero);
	CHECK_INT(nsamples, 15);
	struct hwt_pd_reader *r;
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	hwt_pd_reader_set_load_aux(r, false);
	struct hwt_pd_record rec;
	size_t convs = 0, matched = 0;
	while (hwt_pd_reader_next(r, &rec) > 0) {
		struct hwt_rec v;
		if (rec.type == HWT_PD_RECORD_TIME_CONV) {
			CHECK_INT(hwt_rec_parse(&rec, &v), 1);
			CHECK_U64(v.u.time_conv.time_shift, shift);
			CHECK_U64(v.u.time_conv.time_mult, mult);
			CHECK_U64(v.u.time_conv.time_zero, zero);
			CHECK(!v.u.time_conv.extended); /* perf 4.14's 32 bytes */
			convs++;
		}
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		const struct hwt_pd_attr *a = hwt_pd_reader_attr_by_id(r, rec.sid.id);
		struct hwt_rec_sample_head h;
		CHECK_INT(hwt_rec_sample_head(&rec, a ? a->attr.sample_type : 0, &h), 1);
		char got[256];
		snprintf(got, sizeof(got), "SAMPLE(IP, 0x%x): %d/%d: %#" PRIx64
			 " period: %" PRIu64 " addr: %#" PRIx64, rec.misc, (int)h.pid,
			 (int)h.tid, h.ip, h.period, h.addr);
		for (size_t i = 0; i < nsamples; i++)
			if (samples[i].offset == rec.file_offset) {
				CHECK_STR(got, samples[i].text);
				matched++;
			}
	}
	CHECK_INT(convs, 1);
	CHECK_INT(matched, nsamples);
	hwt_pd_reader_free(r);
}

/* The views of perf's pipe-mode and 5.12 records, short and whole. */
static void test_time_conv_and_feature_records(void)
{
	uint8_t buf[56] = {0};
	uint64_t w[6] = {31, 1073741824, 7, 99, 0xffff, 0};
	memcpy(buf + 8, w, 40);
	buf[48] = 1;
	buf[49] = 1;
	struct hwt_pd_record rec = {.type = HWT_PD_RECORD_TIME_CONV, .size = 56,
				    .data = buf};
	struct hwt_rec v;
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK(v.u.time_conv.extended);
	CHECK_U64(v.u.time_conv.time_zero, 7);
	CHECK_U64(v.u.time_conv.time_cycles, 99);
	CHECK_U64(v.u.time_conv.time_mask, 0xffff);
	CHECK_INT(v.u.time_conv.cap_user_time_short, 1);
	rec.size = 32;
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK(!v.u.time_conv.extended);
	CHECK_U64(v.u.time_conv.time_cycles, 0);
	rec.size = 31;
	CHECK_INT(hwt_rec_parse(&rec, &v), 0);
	rec = (struct hwt_pd_record){.type = HWT_PD_RECORD_HEADER_FEATURE,
				     .size = 16, .data = buf};
	CHECK_INT(hwt_rec_parse(&rec, &v), 1);
	CHECK_U64(v.u.header_feature.feat_id, 31);
	rec.size = 15;
	CHECK_INT(hwt_rec_parse(&rec, &v), 0);
	/* A sample cut after its ip: the tid and what follows are 0. */
	struct hwt_rec_sample_head h;
	rec = (struct hwt_pd_record){.type = PERF_RECORD_SAMPLE, .size = 16,
				     .data = buf};
	CHECK_INT(hwt_rec_sample_head(&rec, PERF_SAMPLE_IP | PERF_SAMPLE_TID, &h), 1);
	CHECK_U64(h.present, PERF_SAMPLE_IP);
	CHECK_U64(h.ip, 31);
	CHECK_INT(h.tid, 0);
	rec.type = PERF_RECORD_MMAP;
	CHECK_INT(hwt_rec_sample_head(&rec, PERF_SAMPLE_IP, &h), 0);
}

int main(void)
{
	RUN(test_views_match_perf);
	RUN(test_short_records);
	RUN(test_time_conv_and_samples_match_perf);
	RUN(test_time_conv_and_feature_records);
	return hwt_test_summary();
}
