/* Linux perf 6.1 reads the intel_pt AUXTRACE_INFO hwtrace writes: a
 * perf.data holding it, written with the perf.data writer, makes
 * `perf report -D` print the values it was built from. */
#include <stdlib.h>

#include "harness.h"
#include "perf_report.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "backends/x86-pt/pt_meta.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/intel-skl"

static char report[1 << 16];

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

	n = hwt_pt_info(os, NULL, &attr, cpus, 2, true, &ctx, priv, 64);
	hwt_os_free(os);
	CHECK_INT(n, 21);
	if (n != 21)
		return;
	CHECK_INT(hwt_test_perf_report_info("intel_pt//u", 6, HWT_AUXTRACE_INTEL_PT,
					    priv, n, report, sizeof(report)),
		  0);
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
