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

#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/sample.h"
#include "sample_ptt_capture.h"

#define MAXS PTT_MAX_SAMPLES
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

static void sample_stacks_equal_perfs_decode(void)
{
	char dir[] = "/tmp/hwt-sample-perf-XXXXXX", path[128];
	CHECK(mkdtemp(dir) != NULL);
	size_t total_samples = 0, total_branches = 0;
	for (size_t i = 0; i < sizeof(ptt_sample_streams) /
				sizeof(*ptt_sample_streams); i++) {
		const char *name = ptt_sample_streams[i];
		char bin[512];
		uint64_t org = 0;
		size_t nsamples = 0;
		snprintf(path, sizeof(path), "%s/%s.data", dir, name);
		CHECK_INT(ptt_sample_capture(name, path, bin,
					     sizeof(bin), &org, &nsamples), 0);
		CHECK_U64(org, PTT_SAMPLE_ORG);

		nours = 0;
		struct hwt_elem_sink sink = {collect, NULL};
		struct hwt_decode_opts opts;
		memset(&opts, 0, sizeof(opts));
		opts.size = sizeof(opts);
		CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
		if (perf_stacks(path) < 0) {
			HWT_FAIL("%s: perf script failed (is linux-perf installed?)",
				 name);
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
					 "0x%" PRIx64 "->0x%" PRIx64 ")", name,
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
