/* Each AUX sample's branch stack against Linux perf's decode of the same
 * window: an AUX sampling capture (intel_pt leader, cycles with
 * PERF_SAMPLE_AUX, an MMAP2 of the code) of libipt ptt streams with their
 * code, one sample at the end of every packet (the packet offsets of
 * libipt's ptdump listing) carrying the whole stream before it. perf
 * 6.1's `perf script --itrace=b` decodes every sample's window on its own
 * and prints its branches before the sample; hwtrace's stack for the sample
 * must be those branches, newest first, and --branch-profile must count
 * each from->to as often as perf shows it, as offsets in the .bin. Trace
 * starts and ends perf shows as branches from or to 0 are left out
 * (hwtrace shows them as trace_on and trace_off). The trace event has the tsc bit set: perf 6.1 crashes
 * decoding sample windows of a capture without time stamps. Windows end
 * on packet boundaries because perf joins a packet cut at a window's end
 * with the start of the next sample's window, which hwtrace, decoding
 * each window alone, never does. */
#include <sys/stat.h>
#include <unistd.h>

#include "core/perfdata/perfdata_format.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/sample.h"
#include "test_pt_capture.h"

#define PTT HWT_TESTDATA "/ptt/expected"
#define MAXS 64
#define MAXB 256

struct stack {
	uint64_t from[MAXB], to[MAXB];
	size_t n;
};

static struct stack ours[MAXS], theirs[MAXS];
static size_t nours, ntheirs;

static int collect(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	if (e->type != HWT_ELEM_SAMPLE || nours >= MAXS)
		return 0;
	struct stack *s = &ours[nours++];
	s->n = 0;
	for (size_t i = 0; i < e->u.sample.nbranches && s->n < MAXB; i++) {
		s->from[s->n] = e->u.sample.branches[i].from;
		s->to[s->n] = e->u.sample.branches[i].to;
		s->n++;
	}
	return 0;
}

static int write_capture(const char *path, const char *bin, uint64_t org,
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
		.sample_type = stype | PERF_SAMPLE_AUX, .sample_id_all = 1,
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
	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	size_t n;
	if (!err)
		err = pt_capture_info_comm(w, id_dummy, false);

	memset(rec, 0, sizeof(rec));
	memcpy(rec + 8, pidtid, 8);
	uint64_t mm[3] = {org, (uint64_t)st.st_size, 0};
	memcpy(rec + 16, mm, sizeof(mm));
	uint32_t prot_flags[2] = {PROT_READ | PROT_EXEC, MAP_PRIVATE};
	memcpy(rec + 64, prot_flags, 8);
	size_t fn = strlen(bin) + 1;
	memcpy(rec + 72, bin, fn);
	n = 72 + ((fn + 7) & ~(size_t)7);
	n += pt_capture_sample_id(rec + n, 2, id_dummy);
	pt_capture_header(rec, PERF_RECORD_MMAP2, 0, n);
	if (!err)
		err = hwt_pd_writer_record(w, rec);

	for (size_t k = 0; k < nends && !err; k++) {
		size_t p = ends[k];
		uint64_t asz = (p + 7) & ~(uint64_t)7; /* zero-padded, as the kernel */
		uint8_t *q = rec + 8;
		pd_put64(q, id_cyc), q += 8;
		pd_put64(q, 0x1000 + p), q += 8;
		pd_put32(q, PT_CAPTURE_PID), pd_put32(q + 4, PT_CAPTURE_PID), q += 8;
		pd_put64(q, 1000 + p), q += 8;
		pd_put64(q, 0), q += 8;
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

/* perf script's default lines: branches before the sample they belong to,
 * then the cycles sample. */
static int perf_stacks(const char *path)
{
	char cmd[700], line[1024];
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' --itrace=b 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	struct stack cur = {.n = 0};
	ntheirs = 0;
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, " cycles:")) {
			if (ntheirs < MAXS) {
				/* Oldest first: reverse into newest first. */
				struct stack *s = &theirs[ntheirs++];
				s->n = cur.n;
				for (size_t i = 0; i < cur.n; i++) {
					s->from[i] = cur.from[cur.n - 1 - i];
					s->to[i] = cur.to[cur.n - 1 - i];
				}
			}
			cur.n = 0;
			continue;
		}
		char *b = strstr(line, " branches:"), *arrow = strstr(line, " => ");
		if (!b || !arrow)
			continue;
		b = strchr(b + 1, ' ');
		uint64_t from = strtoull(b, NULL, 16), to = strtoull(arrow + 4, NULL, 16);
		if (from && to && cur.n < MAXB) {
			cur.from[cur.n] = from;
			cur.to[cur.n] = to;
			cur.n++;
		}
	}
	return pclose(p) == 0 ? 0 : -1;
}

/* --branch-profile over the same capture: for every from->to, the number
 * of times it appears in perf's stacks, addresses as offsets in the .bin
 * (mapped at @org from file offset 0). */
static void check_profile(const char *path, const char *bin, uint64_t org)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.branch_profile = out;
	nours = 0;
	struct hwt_elem_sink sink = {collect, NULL};
	CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
	fclose(out);
	size_t lines = 0, distinct = 0;
	for (size_t k = 0; k < ntheirs; k++) {
		for (size_t j = 0; j < theirs[k].n; j++) {
			uint64_t from = theirs[k].from[j], to = theirs[k].to[j];
			bool seen = false;
			for (size_t a = 0; a <= k && !seen; a++)
				for (size_t b = 0; b < theirs[a].n && !seen; b++)
					if ((a < k || b < j) && theirs[a].from[b] == from &&
					    theirs[a].to[b] == to)
						seen = true;
			if (seen)
				continue;
			distinct++;
			uint64_t count = 0;
			for (size_t a = 0; a < ntheirs; a++)
				for (size_t b = 0; b < theirs[a].n; b++)
					count += theirs[a].from[b] == from &&
						 theirs[a].to[b] == to;
			char want[1200];
			snprintf(want, sizeof(want), "\n%s+0x%" PRIx64 "->%s+0x%" PRIx64
				 " %" PRIu64 "\n", bin, from - org, bin, to - org, count);
			char *hay = malloc(size + 2);
			hay[0] = '\n';
			memcpy(hay + 1, text, size + 1);
			if (!strstr(hay, want)) {
				HWT_FAIL("profile lacks%s", want);
			}
			free(hay);
		}
	}
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	CHECK_INT(lines, distinct);
	free(text);
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

static void sample_stacks_equal_perfs_decode(void)
{
	static const struct {
		const char *name;
		uint64_t org;
	} streams[] = {
		{"loop-tnt", 0x100000},
		{"loop-tnt-tnt", 0x100000},
		{"loop-tnt-64", 0x100000},
		{"ret_near_far", 0x100000},
		{"call_direct-ret_compressed", 0x100000},
		{"call_indirect_deferred-ret_compressed", 0x100000},
	};
	char dir[] = "/tmp/hwt-sample-perf-XXXXXX", path[128];
	CHECK(mkdtemp(dir) != NULL);
	size_t total_samples = 0, total_branches = 0;
	for (size_t i = 0; i < sizeof(streams) / sizeof(*streams); i++) {
		char pt[512], bin[512], src[512], line[256];
		uint64_t org = 0;
		snprintf(src, sizeof(src), HWT_TESTDATA "/ptt/src/%s.ptt",
			 streams[i].name);
		FILE *f = fopen(src, "r");
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "org ", 4) && !org)
				org = strtoull(line + 4, NULL, 0);
		if (f)
			fclose(f);
		CHECK_U64(org, streams[i].org);
		snprintf(pt, sizeof(pt), PTT "/%s.pt", streams[i].name);
		snprintf(bin, sizeof(bin), PTT "/%s.bin", streams[i].name);
		snprintf(path, sizeof(path), "%s/%s.data", dir, streams[i].name);
		size_t len = 0, nsamples = 0;
		uint8_t *d = slurp(pt, &len);
		CHECK(d != NULL && len > 0);
		if (!d)
			continue;
		/* The end of every packet: where the next one starts, and
		 * the end of the stream. */
		size_t ends[MAXS];
		char exp[512];
		snprintf(exp, sizeof(exp), PTT "/%s-ptdump.exp", streams[i].name);
		f = fopen(exp, "r");
		CHECK(f != NULL);
		while (f && fgets(line, sizeof(line), f) && nsamples + 1 < MAXS) {
			char *end;
			unsigned long long off = strtoull(line, &end, 16);
			if (end == line + 16 && off > 0 && off < len)
				ends[nsamples++] = (size_t)off;
		}
		if (f)
			fclose(f);
		ends[nsamples++] = len;
		CHECK_INT(write_capture(path, bin, org, d, ends, nsamples), 0);

		nours = 0;
		struct hwt_elem_sink sink = {collect, NULL};
		struct hwt_decode_opts opts;
		memset(&opts, 0, sizeof(opts));
		opts.size = sizeof(opts);
		CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
		if (perf_stacks(path) < 0) {
			HWT_FAIL("%s: perf script failed (is linux-perf installed?)",
				 streams[i].name);
			continue;
		}
		CHECK_INT(nours, nsamples);
		CHECK_INT(ntheirs, nsamples);
		check_profile(path, bin, org);
		for (size_t k = 0; k < nours && k < ntheirs; k++) {
			const struct stack *a = &ours[k], *b = &theirs[k];
			total_samples++;
			total_branches += a->n;
			bool same = a->n == b->n;
			for (size_t j = 0; same && j < a->n; j++)
				same = a->from[j] == b->from[j] && a->to[j] == b->to[j];
			if (!same)
				HWT_FAIL("%s sample %zu: hwtrace %zu branches (newest "
					 "0x%" PRIx64 "->0x%" PRIx64 "), perf %zu (newest "
					 "0x%" PRIx64 "->0x%" PRIx64 ")", streams[i].name,
					 k, a->n, a->n ? a->from[0] : 0,
					 a->n ? a->to[0] : 0, b->n, b->n ? b->from[0] : 0,
					 b->n ? b->to[0] : 0);
		}
		if (!getenv("HWT_KEEP"))
			unlink(path);
	}
	fprintf(stderr, "%zu samples, %zu branches equal to perf's\n",
		total_samples, total_branches);
	CHECK(total_branches >= 200);
	if (!getenv("HWT_KEEP"))
		rmdir(dir);
}

int main(void)
{
	RUN(sample_stacks_equal_perfs_decode);
	return hwt_test_summary();
}
