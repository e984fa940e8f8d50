/* A perf.data that hwtrace writes with the real ETM capture in it is read
 * by Linux perf 6.1: `perf script --itrace=b` finds the same branches in
 * it that hwtrace decodes from it.
 *
 * The copy is made record by record with hwt_pd_writer (attributes,
 * sideband, AUXTRACE_INFO, the AUXTRACE buffer). perf reports trace starts
 * as branches from 0 ("tr strt"), which hwtrace reports as trace_on
 * elements; those are left out. At the end of the buffer hwtrace reports
 * the last taken branch with target 0 (the trace stops before reaching
 * it), which perf drops: that one trailing branch is checked separately. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "pd_copy.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define DIR HWT_TESTDATA "/perf-data/simpleperf-etm"
#define HWT_TEST_MAX_BRANCHES 4096
#include "branch_list.h"

static int copy_capture(const char *src, const char *dst, int *auxtraces)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_writer *w;
	struct hwt_pd_record rec;
	int err = hwt_test_pd_copy_open(src, dst, &r, &w);
	if (err)
		return err;
	static const enum hwt_pd_feature strings[] = {
		HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE, HWT_PD_FEAT_ARCH,
	};
	for (size_t i = 0; i < 3 && !err; i++) {
		char buf[256];
		if (hwt_pd_reader_feature_string(r, strings[i], buf, sizeof(buf)) == 0)
			err = hwt_pd_writer_set_feature(w, strings[i], buf,
							strlen(buf) + 1);
	}
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1) {
		err = 0;
		/* simpleperf's own record types are not perf's to read. */
		if (rec.type >= 64 && rec.type != 70 && rec.type != 71 &&
		    rec.type != 72 && rec.type != 79)
			continue;
		if (rec.type == 71) {
			err = hwt_pd_writer_auxtrace(w, &rec.aux, rec.aux_data);
			(*auxtraces)++;
		} else {
			err = hwt_pd_writer_record(w, rec.data);
		}
	}
	int cerr = hwt_pd_writer_close(w);
	hwt_pd_reader_free(r);
	return err ? err : cerr;
}

/* Runs perf script and reads "FLAGS FROM => TO" lines. Returns the number
 * of lines read, or -1 when perf could not be run. */
static long perf_branches(const char *file, const char *symfs,
			  struct brlist *l, int *starts)
{
	char cmd[2048], line[512];
	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' --itrace=b -F flags,ip,addr --symfs '%s' "
		 "2>/dev/null", file, symfs);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	long lines = 0;
	while (fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=>");
		if (!arrow)
			continue;
		lines++;
		if (strstr(line, "tr strt")) {
			(*starts)++;
			continue;
		}
		add_perf_branch(l, line, arrow);
	}
	int rc = pclose(p);
	return rc == 0 ? lines : -1;
}

static void perf_reads_what_hwtrace_writes(void)
{
	char tmp[] = "/tmp/hwt-cs-interop-XXXXXX";
	char copy[512], symfs[512], path[600];
	int auxtraces = 0;

	CHECK(mkdtemp(tmp) != NULL);
	snprintf(copy, sizeof(copy), "%s/perf.data", tmp);
	snprintf(symfs, sizeof(symfs), "%s/symfs", tmp);
	int err = copy_capture(DIR "/perf_etm.data", copy, &auxtraces);
	CHECK_INT(err, 0);
	if (err)
		fprintf(stderr, "copy: %s\n", hwt_errmsg());
	CHECK_INT(auxtraces, 1);

	/* --symfs tree: SYMFS/data/local/tmp/etm_test_loop */
	mkdir(symfs, 0700);
	snprintf(path, sizeof(path), "%s/data", symfs);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/data/local", symfs);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/data/local/tmp", symfs);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/data/local/tmp/etm_test_loop", symfs);
	CHECK_INT(symlink(DIR "/etm_test_loop", path), 0);

	static struct brlist perf, ours;
	int starts = 0;
	long lines = perf_branches(copy, symfs, &perf, &starts);
	if (lines < 0)
		HWT_FAIL("perf script could not run on %s: is linux-perf "
			 "installed (/usr/bin/perf)?", copy);
	/* As for the original capture: 208 lines, 2 of them trace starts. */
	CHECK_INT(lines, 208);
	CHECK_INT(starts, 2);

	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	opts.lookup.size = sizeof(opts.lookup);
	opts.lookup.symfs = symfs;
	struct hwt_elem_sink sink = {add_branch, &ours};
	CHECK_INT(hwt_decode_file(copy, &opts, &sink), 0);

	CHECK_INT(perf.n, 206);
	CHECK_INT(ours.n, perf.n + 1);
	size_t same = 0;
	for (size_t i = 0; i < perf.n && i < ours.n; i++) {
		if (perf.v[i].from != ours.v[i].from || perf.v[i].to != ours.v[i].to) {
			HWT_FAIL("branch %zu: perf %" PRIx64 " => %" PRIx64
				 ", hwtrace %" PRIx64 " -> %" PRIx64, i,
				 perf.v[i].from, perf.v[i].to, ours.v[i].from,
				 ours.v[i].to);
			break;
		}
		same++;
	}
	CHECK_INT(same, perf.n);
	if (ours.n == perf.n + 1) {
		/* The return at 0x10b0 as the buffer ends (golden: 10b0->0). */
		CHECK_U64(ours.v[perf.n].from, 0x582b2b10b0ull);
		CHECK_U64(ours.v[perf.n].to, 0);
	}
	printf("perf script: %zu branches (+%d trace starts); hwtrace: %zu, "
	       "%zu equal in order\n", perf.n, starts, ours.n, same);

	unlink(path);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
}

int main(void)
{
	RUN(perf_reads_what_hwtrace_writes);
	return hwt_test_summary();
}
