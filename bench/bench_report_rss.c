/* Peak memory of `hwtrace report` and `report --collapsed` as the trace
 * grows.
 *
 * Two captures, each made at 1x and 8x by writing its AUXTRACE buffers
 * several times over (each copy a buffer of its own, as a long full-trace
 * session has, so each copy decodes again from its sync point):
 *  - CoreSight: the real simpleperf ETMv4 capture of etm_test_loop (64
 *    copies of its buffer at 1x, 512 at 8x), symbols from the binary
 *    beside it;
 *  - sw_branch: swb_demo (calls, loops, a recursion) recorded here with
 *    swb_record from main to exit (its buffers once at 1x, 8 times at
 *    8x); skipped when the machine does not let it trace.
 * The decode alone (text to /dev/null) is measured too: a report cannot
 * be flatter than the decoder under it.
 * Each command is run RUNS times, the sizes in turns; each process's peak
 * RSS is the kernel's (wait4's ru_maxrss: this small process starts it,
 * so nothing of a big parent is counted). Printed: median and spread of
 * each, and the ratio of the 8x median to the 1x median (the goal: at
 * most 1.2, memory flat in trace size).
 *
 * Usage: bench_report_rss [RUNS]
 * The test data is found through $HWT_TESTDATA, the command through
 * $HWT_CLI (default: tools/hwtrace in the build tree beside bench/), the
 * recorder beside it (tests/programs/). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "tests/unit/pd_copy.h"
#include "bench/peak_rss.h"

#define MAX_RUNS 15

static char tmp[] = "/tmp/bench-report-rss-XXXXXX";

/* The build tree: the directory above this program's (build/bench). */
static const char *build_dir(void)
{
	static char path[1024];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		return ".";
	path[n] = '\0';
	for (int up = 0; up < 2; up++) {
		char *slash = strrchr(path, '/');
		if (slash)
			*slash = '\0';
	}
	return path;
}

static const char *cli(void)
{
	static char path[1100];
	const char *env = getenv("HWT_CLI");
	if (env && *env)
		return env;
	snprintf(path, sizeof(path), "%s/tools/hwtrace", build_dir());
	return path;
}

static const char *testdata(void)
{
	const char *env = getenv("HWT_TESTDATA");
	return env && *env ? env : HWT_TESTDATA;
}

/* @src with every AUXTRACE buffer written @copies times, each copy at
 * the next offset of its queue; the other records as they are. AUX
 * records announce the first copy's data only: hwtrace decodes the
 * AUXTRACE buffers. */
static int repeat_capture(const char *src, const char *dst, int copies)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_writer *w;
	struct hwt_pd_record rec;
	int err = hwt_test_pd_copy_open(src, dst, &r, &w);
	if (err)
		return err;
	/* Each queue's next free offset, so copies do not overlap. */
	uint64_t next[64] = {0};
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1) {
		err = 0;
		if (rec.type >= 64 && rec.type != 70 && rec.type != 71)
			continue; /* the file's own bookkeeping */
		if (rec.type != 71) {
			err = hwt_pd_writer_record(w, rec.data);
			continue;
		}
		struct hwt_pd_auxtrace aux = rec.aux;
		uint64_t *off = &next[aux.idx % 64];
		for (int i = 0; i < copies && !err; i++) {
			if (*off > aux.offset)
				aux.offset = *off;
			err = hwt_pd_writer_auxtrace(w, &aux, rec.aux_data);
			aux.offset += aux.size;
			*off = aux.offset;
		}
	}
	int cerr = hwt_pd_writer_close(w);
	hwt_pd_reader_free(r);
	return err ? err : cerr;
}

/* What is measured: the decode alone (the floor the report stands on),
 * the report's table and its folded stacks. */
enum what { DECODE, REPORT, COLLAPSED };
static const char *const what_name[] = {
	"decode -o /dev/null (the decoder's own)", "report", "report --collapsed",
};

/* The peak RSS (KiB) of `hwtrace decode|report [--collapsed] -j 1
 * [--symfs @symfs] -o /dev/null @data`, or -1 when it fails. */
static long peak_kib(const char *data, enum what what, const char *symfs)
{
	const char *argv[12];
	int n = 0;
	argv[n++] = cli();
	argv[n++] = what == DECODE ? "decode" : "report";
	argv[n++] = "-j";
	argv[n++] = "1";
	if (what == COLLAPSED)
		argv[n++] = "--collapsed";
	if (symfs) {
		argv[n++] = "--symfs";
		argv[n++] = symfs;
	}
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	argv[n++] = data;
	argv[n] = NULL;
	return peak_rss_kib(argv);
}

/* Measures one capture at both sizes, the decode and both outputs; 0
 * when every run worked. */
static int bench_capture(const char *name, const char *one,
			 const char *eight, const char *symfs, int runs)
{
	int status = 0;
	for (enum what what = DECODE; what <= COLLAPSED; what++) {
		long kib[2][MAX_RUNS];
		for (int i = 0; i < runs; i++)
			for (int s = 0; s < 2; s++)
				kib[s][i] = peak_kib(s ? eight : one, what, symfs);
		printf("%s, %s, peak RSS KiB, median of %d (least-most):\n",
		       name, what_name[what], runs);
		long med[2];
		bool failed = false;
		for (int s = 0; s < 2; s++) {
			qsort(kib[s], (size_t)runs, sizeof(long), cmp_long);
			failed |= kib[s][0] < 0;
			med[s] = kib[s][runs / 2];
			printf("  %s  %8ld (%ld-%ld)\n", s ? "8x" : "1x", med[s],
			       kib[s][0], kib[s][runs - 1]);
		}
		if (failed || med[0] <= 0) {
			printf("  failed (a report did not finish)\n");
			status = 1;
			continue;
		}
		printf("  ratio 8x/1x: %.3f%s\n", (double)med[1] / (double)med[0],
		       what == DECODE ? "" : " (goal: at most 1.2)");
	}
	return status;
}

static int bench_coresight(int runs)
{
	char src[1100], bin[1100], symfs[200], dir[300], link[400];
	char one[200], eight[200];
	snprintf(src, sizeof(src), "%s/perf-data/simpleperf-etm/perf_etm.data",
		 testdata());
	snprintf(bin, sizeof(bin), "%s/perf-data/simpleperf-etm/etm_test_loop",
		 testdata());
	/* The capture names /data/local/tmp/etm_test_loop. */
	snprintf(symfs, sizeof(symfs), "%s/symfs", tmp);
	static const char *const parts[] = {"", "/data", "/data/local",
					    "/data/local/tmp"};
	for (int i = 0; i < 4; i++) {
		snprintf(dir, sizeof(dir), "%s%s", symfs, parts[i]);
		if (mkdir(dir, 0700) && errno != EEXIST)
			return 1;
	}
	snprintf(link, sizeof(link), "%s/etm_test_loop", dir);
	snprintf(one, sizeof(one), "%s/etm-1x.data", tmp);
	snprintf(eight, sizeof(eight), "%s/etm-8x.data", tmp);
	if (symlink(bin, link) || repeat_capture(src, one, 64) ||
	    repeat_capture(src, eight, 512)) {
		fprintf(stderr, "bench_report_rss: the CoreSight captures: %s\n",
			hwt_errmsg());
		return 1;
	}
	return bench_capture("CoreSight (simpleperf ETMv4 x64 / x512)", one,
			     eight, symfs, runs);
}

static int bench_sw_branch(int runs)
{
	char rec[1100], demo[1100], cmd[3000], src[200], one[200], eight[200];
	snprintf(rec, sizeof(rec), "%s/tests/programs/swb_record", build_dir());
	snprintf(demo, sizeof(demo), "%s/tests/programs/swb_demo", build_dir());
	snprintf(src, sizeof(src), "%s/swb.data", tmp);
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' --quiet --start main --stop "
		 "exit -- '%s' 3000 >/dev/null 2>&1", rec, src, demo);
	if (system(cmd) != 0) {
		printf("sw_branch: skipped (swb_record could not trace here)\n");
		return 0;
	}
	snprintf(one, sizeof(one), "%s/swb-1x.data", tmp);
	snprintf(eight, sizeof(eight), "%s/swb-8x.data", tmp);
	if (repeat_capture(src, one, 1) || repeat_capture(src, eight, 8)) {
		fprintf(stderr, "bench_report_rss: the sw_branch captures: %s\n",
			hwt_errmsg());
		return 1;
	}
	return bench_capture("sw_branch (swb_demo 3000 x1 / x8)", one, eight,
			     NULL, runs);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 5;
	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: bench_report_rss [RUNS (1-%d)]\n",
			MAX_RUNS);
		return 2;
	}
	if (!mkdtemp(tmp)) {
		perror("bench_report_rss: mkdtemp");
		return 1;
	}
	int status = bench_coresight(runs) | bench_sw_branch(runs);
	if (getenv("HWT_BENCH_KEEP")) {
		printf("kept %s\n", tmp);
		return status;
	}
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_report_rss: could not remove %s\n", tmp);
	return status;
}
