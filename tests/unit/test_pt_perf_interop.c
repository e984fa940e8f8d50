/* perf interop: a perf.data that hwtrace writes (hwt_pd_writer) around
 * libipt's ptt streams, with an MMAP2 record pointing at each stream's
 * .bin code, is decoded by Linux perf 6.1's `perf script --itrace=b` into
 * the same branches hwt_decode_file reports, in the same order.
 *
 * perf reports trace starts and ends as branches from or to 0 ("tr strt",
 * "tr end ... => 0"); hwtrace reports them as trace_on/trace_off elements,
 * so those lines are left out of the comparison. A trace end on a branch
 * with a known target ("tr end call X => Y") is that branch, and counts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "test_pt_capture.h"

#define PTT HWT_TESTDATA "/ptt/expected"
#define HWT_TEST_MAX_BRANCHES 1024
#include "branch_list.h"

static int write_capture(const char *path, const char *bin, uint64_t org,
			 const uint8_t *trace, size_t trace_size)
{
	struct stat st;
	if (stat(bin, &st))
		return HWT_ERR_NOENT;
	struct pt_capture c = {
		.code_path = bin,
		.code_addr = org,
		.code_size = (uint64_t)st.st_size,
		.trace = trace,
		.trace_size = trace_size,
	};
	return pt_capture_write(path, &c);
}

/* perf script's "FLAGS FROM => TO" lines, trace starts and ends left
 * out. Returns the number of branch lines, or -1 when perf failed. */
static long perf_branches(const char *file, struct brlist *l)
{
	char cmd[2048], line[512];
	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' --itrace=b -F flags,ip,addr 2>/dev/null",
		 file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	long lines = 0;
	while (fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=>");
		if (!arrow || strstr(line, "tr strt"))
			continue;
		/* A trace end on a branch whose target is known is that
		 * branch; one to 0 is only the end. */
		if (strstr(line, "tr end") && strtoull(arrow + 2, NULL, 16) == 0)
			continue;
		add_perf_branch(l, line, arrow);
		lines++;
	}
	return pclose(p) == 0 ? lines : -1;
}

static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	static uint8_t buf[1 << 16];
	*size = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

/* Streams whose branches perf 6.1 and libipt 2.0.5 cannot agree on, with
 * the reason; every other ptt stream that qualifies is compared. */
static const struct {
	const char *prefix;
	const char *reason;
} excluded[] = {
	{"ptet", "event tracing (CFE/EVD): libipt 2.0.5 cannot follow it"},
	{"trig", "TRIG packets: perf 6.1 does not know them and resyncs"},
	{"tip-trig", "TRIG packets: perf 6.1 does not know them and resyncs"},
	{"fup-tip-trig", "TRIG packets: perf 6.1 does not know them and resyncs"},
	{"tnt-trig", "TRIG packets: perf 6.1 does not know them and resyncs"},
	{"tip_pgd-tnt_taken",
	 "perf 6.1 drops the taken jcc whose TNT bit the TIP.PGD replaces"},
	{"fup-tip_pgd", "FUP+TIP.PGD: perf shows the asynchronous branch to the "
	 "TIP.PGD target, which libipt 2.0.5's async-disabled event does not "
	 "carry"},
	{"psb-fup-tip_pgd", "FUP+TIP.PGD: as fup-tip_pgd"},
	{"fup-pip-vmcs-tip_pgd", "FUP+TIP.PGD: as fup-tip_pgd"},
};

static const char *excluded_reason(const char *name)
{
	for (size_t i = 0; i < sizeof(excluded) / sizeof(excluded[0]); i++) {
		size_t n = strlen(excluded[i].prefix);
		if (!strncmp(name, excluded[i].prefix, n) &&
		    (name[n] == 0 || !strcmp(excluded[i].prefix, "ptet")))
			return excluded[i].reason;
	}
	return NULL;
}

/* A stream qualifies when its source has 64-bit code at an org address,
 * no decoder options, no cpu-specific variants and no sideband, and a
 * ptxed expectation. */
static bool qualifies(const char *name, uint64_t *org)
{
	char path[512], line[512];
	snprintf(path, sizeof(path), PTT "/%s-ptxed.exp", name);
	if (access(path, R_OK))
		return false;
	snprintf(path, sizeof(path), PTT "/%s.sb", name);
	if (!access(path, R_OK))
		return false;
	snprintf(path, sizeof(path), HWT_TESTDATA "/ptt/src/%s.ptt", name);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = true, bits64 = false;
	*org = UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "opt:") || !strncmp(line, ";   cpu", 7) ||
		    !strncmp(line, ";  cpu", 6))
			ok = false;
		if (!strncmp(line, "bits 64", 7))
			bits64 = true;
		if (!strncmp(line, "org ", 4) && *org == UINT64_MAX)
			*org = strtoull(line + 4, NULL, 0);
	}
	fclose(f);
	return ok && bits64 && *org != UINT64_MAX;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void perf_decodes_what_hwtrace_writes(void)
{
	char tmp[] = "/tmp/hwt-pt-interop-XXXXXX";
	CHECK(mkdtemp(tmp) != NULL);
	size_t total = 0, streams = 0, nexcluded = 0;

	DIR *dir = opendir(HWT_TESTDATA "/ptt/src");
	CHECK(dir != NULL);
	if (!dir)
		return;
	char *names[512];
	size_t nnames = 0;
	struct dirent *de;
	while ((de = readdir(dir)) && nnames < 512) {
		size_t len = strlen(de->d_name);
		if (len > 4 && !strcmp(de->d_name + len - 4, ".ptt"))
			names[nnames++] = strndup(de->d_name, len - 4);
	}
	closedir(dir);
	qsort(names, nnames, sizeof(*names), cmp_str);

	for (size_t i = 0; i < nnames; i++) {
		char pt[512], bin[512], data[600];
		const char *name = names[i];
		uint64_t org;
		if (!qualifies(name, &org))
			continue;
		const char *why = excluded_reason(name);
		if (why) {
			printf("%s: excluded: %s\n", name, why);
			nexcluded++;
			continue;
		}
		snprintf(pt, sizeof(pt), PTT "/%s.pt", name);
		snprintf(bin, sizeof(bin), PTT "/%s.bin", name);
		snprintf(data, sizeof(data), "%s/%s.data", tmp, name);
		size_t size = 0;
		const uint8_t *trace = read_all(pt, &size);
		CHECK(trace != NULL);
		if (!trace)
			continue;
		int err = write_capture(data, bin, org, trace, size);
		CHECK_INT(err, 0);
		if (err) {
			fprintf(stderr, "%s: %s\n", data, hwt_errmsg());
			continue;
		}

		static struct brlist perf, ours;
		perf.n = ours.n = 0;
		long lines = perf_branches(data, &perf);
		if (lines < 0)
			HWT_FAIL("perf script failed on %s: is linux-perf installed?",
				 data);
		struct hwt_decode_opts opts = {.size = sizeof(opts)};
		struct hwt_elem_sink sink = {add_branch, &ours};
		CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);

		CHECK_INT(ours.n, perf.n);
		size_t same = 0;
		for (size_t j = 0; j < perf.n && j < ours.n; j++) {
			if (perf.v[j].from != ours.v[j].from ||
			    perf.v[j].to != ours.v[j].to) {
				HWT_FAIL("%s branch %zu: perf %" PRIx64 " => %" PRIx64
					 ", hwtrace %" PRIx64 " -> %" PRIx64,
					 name, j, perf.v[j].from,
					 perf.v[j].to, ours.v[j].from, ours.v[j].to);
				break;
			}
			same++;
		}
		CHECK_INT(same, perf.n);
		if (same != perf.n || ours.n != perf.n)
			printf("%s: perf script %zu branches, hwtrace %zu, %zu equal\n",
			       name, perf.n, ours.n, same);
		total += same;
		streams++;
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	printf("perf interop: %zu ptt streams compared, %zu branches equal in "
	       "order; %zu streams excluded (reasons listed)\n", streams, total,
	       nexcluded);
	/* The loop tests alone (loop-tnt, -tnt-tnt, -tnt-64) have 56 taken
	 * branches in ptxed's expectations. */
	CHECK(total >= 56);
	CHECK(streams >= 90);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), getenv("HWT_KEEP") ? "true %s" : "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
}

int main(void)
{
	RUN(perf_decodes_what_hwtrace_writes);
	return hwt_test_summary();
}
