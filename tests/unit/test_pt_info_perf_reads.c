/* Linux perf 6.1 reads the intel_pt AUXTRACE_INFO hwtrace writes: a
 * perf.data holding it, written with the perf.data writer, makes
 * `perf report -D` print the values it was built from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "backends/x86-pt/pt_meta.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/intel-skl"
#define PERF "/usr/bin/perf"

static char report[1 << 16];

/* Writes a perf.data with one intel_pt event and the AUXTRACE_INFO of
 * @priv, then keeps perf report -D's output in report[]. */
static int perf_dump(const uint64_t *priv, int n)
{
	char dir[] = "/tmp/hwt-pt-info-XXXXXX", path[64], cmd[256];
	struct perf_event_attr attr = {.size = sizeof(attr), .type = 6,
				       .sample_type = PERF_SAMPLE_IDENTIFIER |
						      PERF_SAMPLE_TID |
						      PERF_SAMPLE_TIME |
						      PERF_SAMPLE_CPU,
				       .sample_id_all = 1};
	static const uint8_t build_id[20] = {0x12, 0x34};
	uint64_t id = 1, rec[80];
	struct hwt_pd_writer *w;
	size_t got = 0;
	FILE *p;

	if (access(PERF, X_OK) != 0) {
		fprintf(stderr, "%s is missing: install Debian's linux-perf; this "
			"test checks perf reads what hwtrace writes\n", PERF);
		return -1;
	}
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	if (hwt_pd_writer_open(path, &w) < 0)
		return -1;
	hwt_pd_writer_add_attr(w, &attr, &id, 1, "intel_pt//u");
	/* A build id, as real captures have: the writer's empty build id
	 * section trips UBSan (memcpy from NULL) in core/perfdata_host.c. */
	hwt_pd_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, build_id, 20,
				   "/bin/ls");
	memset(rec, 0, sizeof(rec));
	rec[0] = HWT_PD_RECORD_AUXTRACE_INFO | (uint64_t)(16 + 8 * n) << 48;
	rec[1] = HWT_AUXTRACE_INTEL_PT;
	memcpy(&rec[2], priv, 8 * (size_t)n);
	if (hwt_pd_writer_record(w, rec) < 0 || hwt_pd_writer_close(w) < 0) {
		fprintf(stderr, "writing %s: %s\n", path, hwt_errmsg());
		return -1;
	}
	snprintf(cmd, sizeof(cmd), PERF " report -D -i %s 2>&1", path);
	p = popen(cmd, "r");
	if (p) {
		got = fread(report, 1, sizeof(report) - 1, p);
		pclose(p);
	}
	report[got] = '\0';
	unlink(path);
	rmdir(dir);
	return 0;
}

static void test_perf_prints_our_values(void)
{
	struct hwt_record_info_ctx ctx = {.size = sizeof(ctx),
					  .cap_user_time_zero = true,
					  .time_shift = 31,
					  .time_mult = 1789569706,
					  .time_zero = 18446744041015200657ull,
					  .sched_switch = 3,
					  .filter = "filter main @ /bin/ls",
					  .tsc_ctc_given = true,
					  .tsc_ctc_n = 100,
					  .tsc_ctc_d = 2};
	struct perf_event_attr attr = {.type = 6};
	int cpus[] = {0, 1};
	uint64_t priv[64];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	int n;

	n = hwt_pt_info_ctx(os, NULL, &attr, cpus, 2, true, &ctx, priv, 64);
	hwt_os_free(os);
	CHECK_INT(n, 21);
	if (n != 21)
		return;
	CHECK_INT(perf_dump(priv, n), 0);
	/* perf's intel_pt_print_info, one line per priv word. */
	CHECK_CONTAINS(report, "PERF_RECORD_AUXTRACE_INFO type: 1");
	CHECK_CONTAINS(report, "  PMU Type            6\n");
	CHECK_CONTAINS(report, "  Time Shift          31\n");
	CHECK_CONTAINS(report, "  Time Muliplier      1789569706\n");
	CHECK_CONTAINS(report, "  Time Zero           18446744041015200657\n");
	CHECK_CONTAINS(report, "  Cap Time Zero       1\n");
	CHECK_CONTAINS(report, "  TSC bit             0x400\n");
	CHECK_CONTAINS(report, "  NoRETComp bit       0x800\n");
	CHECK_CONTAINS(report, "  Have sched_switch   3\n");
	CHECK_CONTAINS(report, "  Snapshot mode       1\n");
	CHECK_CONTAINS(report, "  Per-cpu maps        1\n");
	CHECK_CONTAINS(report, "  MTC bit             0x200\n");
	CHECK_CONTAINS(report, "  MTC freq bits       0x3c000\n");
	CHECK_CONTAINS(report, "  TSC:CTC numerator   100\n");
	CHECK_CONTAINS(report, "  TSC:CTC denominator 2\n");
	CHECK_CONTAINS(report, "  CYC bit             0x2\n");
	CHECK_CONTAINS(report, "  Max non-turbo ratio 12\n");
	CHECK_CONTAINS(report, "  Filter string len.  21\n");
	CHECK_CONTAINS(report, "  Filter string       filter main @ /bin/ls\n");
	CHECK_CONTAINS(report, "  Cap Event Trace     0\n");
	if (getenv("HWT_SHOW") || hwt_test_failures)
		fprintf(stderr, "perf report -D said:\n%.4000s\n", report);
}

int main(void)
{
	RUN(test_perf_prints_our_values);
	return hwt_test_summary();
}
