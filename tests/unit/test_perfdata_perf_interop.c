/* Files the writer produces are read by Linux perf (/usr/bin/perf, 6.1):
 * `perf report -D` reads them without error and counts the same records per
 * type as the reader; copies of the real captures decode in `perf script
 * --itrace=b` exactly like the originals. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define PD HWT_TESTDATA "/perf-data"
#define QUIPPER PD "/quipper/perf.data.intel_pt-4.14"
#define SIMPLEPERF PD "/simpleperf-etm/perf_etm.data"
#define PERF "/usr/bin/perf"

static char tmpdir[256];

/* Runs @cmd with stderr merged into stdout; returns its output (malloced)
 * and stores the exit status. */
static char *run(const char *cmd, int *status)
{
	char full[4096];
	size_t len = 0, cap = 1 << 16;
	char *out = malloc(cap);
	FILE *p;

	snprintf(full, sizeof(full), "export PERF_PAGER=; %s 2>&1", cmd);
	p = popen(full, "r");
	if (!p) {
		*status = -1;
		out[0] = '\0';
		return out;
	}
	for (;;) {
		size_t n;

		if (len + 4096 > cap)
			out = realloc(out, cap *= 2);
		n = fread(out + len, 1, cap - len - 1, p);
		if (n == 0)
			break;
		len += n;
	}
	out[len] = '\0';
	*status = pclose(p);
	return out;
}

/* perf's "Aggregated stats" lines: "   MMAP2 events:   59  (81.9%)". */
static uint64_t perf_count(const char *dump, const char *name)
{
	const char *stats = strstr(dump, "Aggregated stats");
	char key[64];
	const char *p;

	if (!stats)
		return UINT64_MAX;
	snprintf(key, sizeof(key), " %s events:", name);
	p = strstr(stats, key);
	/* The per-event sections after the totals repeat some names. */
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Compares perf's counts with the reader's for every type either knows. */
static void check_counts(const char *path, const char *dump,
			 uint64_t *total_out)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	const uint64_t *counts;
	uint64_t total = 0;

	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	hwt_pd_reader_set_load_aux(r, false);
	while (hwt_pd_reader_next(r, &rec) > 0)
		;
	counts = hwt_pd_reader_counts(r);
	for (uint32_t t = 1; t < HWT_PD_NR_COUNTED_TYPES - 1; t++) {
		const char *name = hwt_pd_record_type_name(t);

		/* perf counts the ATTR events it synthesizes for its own
		 * CoreSight decoder output; they are not in the file. */
		if (!name || t == HWT_PD_RECORD_HEADER_ATTR)
			continue;
		if (perf_count(dump, name) != counts[t])
			HWT_FAIL("%s: perf counts %" PRIu64 " %s records, the "
				 "reader %" PRIu64, path, perf_count(dump, name),
				 name, counts[t]);
		hwt_test_checks++;
		total += counts[t];
	}
	*total_out = total;
	hwt_pd_reader_free(r);
}

static void perf_reads(const char *path, const char *what)
{
	char cmd[1024];
	uint64_t total = 0;
	char *out;
	int status;

	snprintf(cmd, sizeof(cmd), PERF " report --force -D --stdio -i %s", path);
	out = run(cmd, &status);
	CHECK_INT(status, 0);
	if (status)
		fprintf(stderr, "%s: perf said:\n%.2000s\n", what, out);
	CHECK(strstr(out, "Aggregated stats") != NULL);
	CHECK(strstr(out, "rror") == NULL);
	CHECK(strstr(out, "Failed") == NULL);
	check_counts(path, out, &total);
	CHECK(total > 0);
	free(out);
}

/* Copies every record of @src through the writer, with its events and the
 * feature sections perf shows. */
static int copy_file(const char *src, const char *dst)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_writer *w = NULL;
	struct hwt_pd_record rec;
	static const enum hwt_pd_feature strings[] = {
		HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE, HWT_PD_FEAT_ARCH,
		HWT_PD_FEAT_CPUDESC, HWT_PD_FEAT_CPUID, HWT_PD_FEAT_VERSION,
	};
	struct hwt_pd_build_id b;
	uint32_t avail, online;
	char buf[4096];
	int n, err;

	if ((err = hwt_pd_reader_open(src, &r)) ||
	    (err = hwt_pd_writer_open(dst, &w)))
		goto out;
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);

		err = hwt_pd_writer_add_attr(w, &a->attr, a->ids, a->nids, a->name);
		if (err)
			goto out;
	}
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		if (!hwt_pd_reader_feature_string(r, strings[i], buf, sizeof(buf)))
			hwt_pd_writer_set_feature(w, strings[i], buf, strlen(buf));
	if (!hwt_pd_reader_nr_cpus(r, &avail, &online))
		hwt_pd_writer_set_nr_cpus(w, avail, online);
	for (size_t i = 0; hwt_pd_reader_build_id(r, i, &b) > 0; i++)
		hwt_pd_writer_add_build_id(w, b.pid, b.misc & 0x7fff, b.id, b.size,
					   b.filename);
	while ((n = hwt_pd_reader_next(r, &rec)) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE)
			err = hwt_pd_writer_auxtrace(w, &rec.aux, rec.aux_data);
		else if (rec.type < 32768)
			err = hwt_pd_writer_record(w, rec.data);
		if (err)
			goto out;
	}
	err = n;
out:
	if (err)
		fprintf(stderr, "copy %s: %s\n", src, hwt_errmsg());
	hwt_pd_reader_free(r);
	if (w) {
		int cerr = hwt_pd_writer_close(w);
		err = err ? err : cerr;
	}
	return err;
}

struct bts {
	uint64_t from, to, misc;
};

/* A file written from synthetic records: a dummy sideband event and an
 * intel_bts AUXTRACE buffer, which perf -D decodes (its BTS records are
 * 24 bytes: from, to, flags). */
static void synthetic_file_reads_in_perf(void)
{
	char path[512], cmd[1024];
	struct hwt_pd_writer *w = NULL;
	struct perf_event_attr attr = {0};
	uint64_t ids[] = {41, 42};
	uint8_t rec[256];
	struct hwt_pd_auxtrace aux = {0};
	struct bts bts[2] = {{0x401000, 0x402000, 0}, {0x402010, 0x401004, 0}};
	static const uint64_t bts_priv[6] = {9, 10, 12345, 999, 1, 0};
	struct hwt_pd_time_conv tc = {10, 12345, 999, 77, 0xffffff, 1, 1};
	uint64_t total = 0;
	char *out;
	int status;

	snprintf(path, sizeof(path), "%s/synthetic.data", tmpdir);
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_HOSTNAME, "board7", 6), 0);
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CPUDESC,
					    "Test CPU @ 1GHz", 15), 0);
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CMDLINE,
					    "hwtrace\0record\0--\0true", 23), 0);
	CHECK_INT(hwt_pd_writer_set_nr_cpus(w, 8, 6), 0);
	{
		static const uint8_t id[20] = {0xde, 0xad, 0xbe, 0xef, 0x01};

		CHECK_INT(hwt_pd_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER,
						     id, 20, "/bin/true"), 0);
	}
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	attr.sample_id_all = 1;
	attr.mmap = attr.comm = attr.task = 1;
	CHECK_INT(hwt_pd_writer_add_attr(w, &attr, ids, 2, "dummy:u"), 0);

	/* PERF_RECORD_COMM "true" for 100/100, then the sample_id trailer:
	 * pid/tid, time, cpu/res, identifier. */
	memset(rec, 0, sizeof(rec));
	rec[0] = PERF_RECORD_COMM;
	rec[6] = 8 + 8 + 8 + 32;
	rec[8] = 100;
	rec[12] = 100;
	memcpy(rec + 16, "true", 5);
	rec[24] = 100, rec[28] = 100, rec[32] = 7, rec[40] = 1, rec[48] = 41;
	CHECK_INT(hwt_pd_writer_record(w, rec), 0);

	/* AUXTRACE_INFO type 2 (intel_bts): pmu type, time shift, mult,
	 * zero, cap_user_time_zero, snapshot mode. */
	CHECK_INT(hwt_pd_writer_auxtrace_info(w, 2, bts_priv, 6), 0);
	CHECK_INT(hwt_pd_writer_time_conv(w, &tc), 0);

	aux.size = sizeof(bts);
	aux.idx = 0;
	aux.tid = 100;
	aux.cpu = 0;
	CHECK_INT(hwt_pd_writer_auxtrace(w, &aux, bts), 0);
	CHECK_INT(hwt_pd_writer_finished_round(w), 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);

	snprintf(cmd, sizeof(cmd), PERF " report --force -D --stdio -i %s", path);
	out = run(cmd, &status);
	CHECK_INT(status, 0);
	CHECK(strstr(out, "rror") == NULL);
	CHECK_CONTAINS(out, "PERF_RECORD_COMM: true:100/100");
	CHECK_CONTAINS(out, "PERF_RECORD_AUXTRACE size: 0x30  offset: 0  ref: 0"
			    "  idx: 0  tid: 100  cpu: 0");
	/* perf's BTS dump: the from and to of each record. */
	CHECK_CONTAINS(out, "401000 -> 402000");
	CHECK_CONTAINS(out, "402010 -> 401004");
	CHECK_INT(perf_count(out, "COMM"), 1);
	CHECK_INT(perf_count(out, "AUXTRACE"), 1);
	CHECK_INT(perf_count(out, "AUXTRACE_INFO"), 1);
	CHECK_INT(perf_count(out, "FINISHED_ROUND"), 1);
	CHECK_INT(perf_count(out, "TIME_CONV"), 1);
	/* perf's intel_bts and TIME_CONV dumps (its spelling). */
	CHECK_CONTAINS(out, "  PMU Type           9\n  Time Shift         10\n"
			    "  Time Muliplier     12345\n  Time Zero          999\n"
			    "  Cap Time Zero      1\n  Snapshot mode      0");
	CHECK_CONTAINS(out, "... Time Shift      10\n... Time Muliplier  12345\n"
			    "... Time Zero       999\n... Time Cycles     77\n"
			    "... Time Mask       0xffffff\n... Cap Time Zero   1\n"
			    "... Cap Time Short  1");
	check_counts(path, out, &total);
	CHECK_INT(total, 5);
	free(out);

	/* perf's own view of the header the writer made. */
	snprintf(cmd, sizeof(cmd), PERF " report --force --header-only -i %s", path);
	out = run(cmd, &status);
	CHECK_INT(status, 0);
	CHECK_CONTAINS(out, "# event : name = dummy:u");
	CHECK_CONTAINS(out, "id = { 41, 42 }");
	CHECK_CONTAINS(out, "# nrcpus avail");
	CHECK_CONTAINS(out, "# arch : ");
	/* The CPUID feature is the host's: an arm64 program under qemu-user on
	 * an x86-64 host has no MIDR to read, and writes none. */
	if (hwt_test_emulator())
		HWT_SKIP_PART("# cpuid: run under %s, no arm64 MIDR on this host",
			      hwt_test_emulator());
	else
		CHECK_CONTAINS(out, "# cpuid : ");
	CHECK_CONTAINS(out, "contains AUX area data");
	CHECK_CONTAINS(out, "# hostname : board7\n");
	CHECK_CONTAINS(out, "# cpudesc : Test CPU @ 1GHz\n");
	CHECK_CONTAINS(out, "# cmdline : hwtrace record -- true \n");
	CHECK_CONTAINS(out, "# nrcpus online : 6\n# nrcpus avail : 8\n");
	free(out);

	snprintf(cmd, sizeof(cmd), PERF " buildid-list -i %s", path);
	out = run(cmd, &status);
	CHECK_INT(status, 0);
	CHECK_CONTAINS(out, "deadbeef01000000000000000000000000000000 /bin/true");
	free(out);
}

static void copies_of_real_files_read_in_perf(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/quipper-copy.data", tmpdir);
	CHECK_INT(copy_file(QUIPPER, path), 0);
	perf_reads(path, "quipper copy");
	snprintf(path, sizeof(path), "%s/simpleperf-copy.data", tmpdir);
	CHECK_INT(copy_file(SIMPLEPERF, path), 0);
	perf_reads(path, "simpleperf copy");
	/* The originals, for reference: the same counts. */
	perf_reads(QUIPPER, "quipper original");
}

/* Only the decoded branch lines: perf's warnings differ between a file
 * without a usable auxtrace index (the original) and one with it. */
static char *branch_lines(const char *text)
{
	char *res = calloc(1, strlen(text) + 1);
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);

		if (!strncmp(line, "   etm_test_loop ", 17))
			strncat(res, line, len);
		line = nl ? nl + 1 : NULL;
	}
	return res;
}

static void simpleperf_copy_decodes_like_original(void)
{
	char copy[512], symfs[512], cmd[2048], *ref = NULL, *got, *a, *b;
	FILE *f;
	long size;
	int status;

	snprintf(copy, sizeof(copy), "%s/simpleperf-copy.data", tmpdir);
	/* perf finds the traced binary under --symfs by its MMAP2 path. */
	snprintf(symfs, sizeof(symfs), "%s/symfs", tmpdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/data/local/tmp && cp %s "
		 "%s/data/local/tmp/", symfs, PD "/simpleperf-etm/etm_test_loop",
		 symfs);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), PERF " script --force --itrace=b -F comm,tid,flags,"
		 "ip,addr,dso --symfs %s -i %s", symfs, copy);
	got = run(cmd, &status);
	CHECK_INT(status, 0);
	f = fopen(SIMPLEPERF ".perf-script-itrace-b.txt", "r");
	CHECK(f != NULL);
	if (f) {
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		rewind(f);
		ref = calloc(1, (size_t)size + 1);
		CHECK_INT(fread(ref, 1, (size_t)size, f), size);
		fclose(f);
	}
	a = branch_lines(got);
	b = branch_lines(ref ? ref : "");
	/* The reference has 208 branches. */
	{
		int nl = 0;

		for (char *p = b; *p; p++)
			nl += *p == '\n';
		CHECK_INT(nl, 208);
	}
	CHECK_STR(a, b);
	free(a);
	free(b);
	free(ref);
	free(got);
}

/* Intel PT: the binaries of the quipper capture are not available, so the
 * decode itself is partial; the copy must decode exactly as the original. */
static void quipper_copy_decodes_like_original(void)
{
	char copy[512], cmd[1024], *x, *y;
	int s1, s2;

	snprintf(copy, sizeof(copy), "%s/quipper-copy.data", tmpdir);
	snprintf(cmd, sizeof(cmd), PERF " script --force --itrace=b -F ip,addr,flags "
		 "-i %s", QUIPPER);
	x = run(cmd, &s1);
	snprintf(cmd, sizeof(cmd), PERF " script --force --itrace=b -F ip,addr,flags "
		 "-i %s", copy);
	y = run(cmd, &s2);
	CHECK_INT(s1, 0);
	CHECK_INT(s2, s1);
	CHECK(strlen(x) > 1000);
	CHECK(strcmp(x, y) == 0);
	free(x);
	free(y);
}

/* The lines of @text that start with @prefix, in order. */
static void grep_lines(const char *text, const char *prefix, char *out,
		       size_t size)
{
	size_t used = 0, plen = strlen(prefix);

	out[0] = '\0';
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);

		if (!strncmp(line, prefix, plen) && used + len < size) {
			memcpy(out + used, line, len);
			used += len;
			out[used] = '\0';
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* Features the writer fills in from this machine equal those perf writes
 * here (perf inject to a pipe describes the machine it runs on). */
static void host_features_match_perf(void)
{
	static const char *const keys[] = {
		"# hostname :", "# os release :", "# arch :", "# nrcpus online :",
		"# nrcpus avail :", "# cpudesc :", "# cpuid :",
	};
	char path[512], pipe_path[512], cmd[1400], a[512], b[512];
	struct hwt_pd_writer *w = NULL;
	struct perf_event_attr attr = {0};
	uint64_t id = 1;
	char *ours, *theirs;
	int status;

	snprintf(path, sizeof(path), "%s/defaults.data", tmpdir);
	snprintf(pipe_path, sizeof(pipe_path), "%s/host.pipe", tmpdir);
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	CHECK_INT(hwt_pd_writer_add_attr(w, &attr, &id, 1, "dummy"), 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);
	snprintf(cmd, sizeof(cmd), "{ " PERF " inject -i %s -o - 2>/dev/null "
		 "> %s; }", QUIPPER, pipe_path);
	free(run(cmd, &status));
	CHECK_INT(status, 0);
	snprintf(cmd, sizeof(cmd), PERF " report --force --header-only -i %s", path);
	ours = run(cmd, &status);
	CHECK_INT(status, 0);
	snprintf(cmd, sizeof(cmd), PERF " report --force --header-only -i %s", pipe_path);
	theirs = run(cmd, &status);
	CHECK_INT(status, 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		/* Under qemu-user the program's machine is not perf's. */
		if (hwt_test_emulator() && (strstr(keys[i], "arch") ||
					    strstr(keys[i], "cpuid"))) {
			HWT_SKIP_PART("%s: run under %s, the host's perf is "
				      "another architecture", keys[i],
				      hwt_test_emulator());
			continue;
		}
		grep_lines(ours, keys[i], a, sizeof(a));
		grep_lines(theirs, keys[i], b, sizeof(b));
		CHECK(b[0] != '\0');
		CHECK_STR(a, b);
	}
	free(ours);
	free(theirs);
}

int main(void)
{
	char cmd[600];

	if (access(PERF, X_OK)) {
		fprintf(stderr, "FAIL: %s is missing; install linux-perf\n", PERF);
		return 1;
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/hwt-perfdata-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(synthetic_file_reads_in_perf);
	RUN(copies_of_real_files_read_in_perf);
	RUN(simpleperf_copy_decodes_like_original);
	RUN(quipper_copy_decodes_like_original);
	RUN(host_features_match_perf);
	snprintf(cmd, sizeof(cmd), "%s %s", getenv("HWT_KEEP") ? "true" : "rm -rf", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return hwt_test_summary();
}
