/* Linux perf 6.1 reads the intel_bts AUXTRACE_INFO hwtrace writes: a
 * perf.data holding it, written with the perf.data writer, makes
 * `perf report -D` print the values it was built from. */
#include <stdlib.h>

#include "harness.h"
#include "perf_report.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "backends/x86-bts/bts_meta.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/intel-skl"

static char report[1 << 16];

static void test_perf_prints_our_values(void)
{
	struct hwt_record_info_ctx ctx = {.size = sizeof(ctx),
					  .cap_user_time_zero = true,
					  .time_shift = 31,
					  .time_mult = 1789569706,
					  .time_zero = 18446744041015200657ull};
	struct perf_event_attr attr = {.type = 7};
	uint64_t priv[8];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	int n;

	n = hwt_bts_info(os, NULL, &attr, NULL, 0, true, &ctx, priv, 8);
	hwt_os_free(os);
	CHECK_INT(n, 6);
	if (n != 6)
		return;
	CHECK_INT(hwt_test_perf_report_info("intel_bts//u", 7, HWT_AUXTRACE_INTEL_BTS,
					    priv, n, report, sizeof(report)),
		  0);
	/* perf's intel_bts_print_info. */
	CHECK_CONTAINS(report, "PERF_RECORD_AUXTRACE_INFO type: 2");
	CHECK_CONTAINS(report, "  PMU Type           7\n");
	CHECK_CONTAINS(report, "  Time Shift         31\n");
	CHECK_CONTAINS(report, "  Time Muliplier     1789569706\n");
	CHECK_CONTAINS(report, "  Time Zero          18446744041015200657\n");
	CHECK_CONTAINS(report, "  Cap Time Zero      1\n");
	CHECK_CONTAINS(report, "  Snapshot mode      1\n");
	if (getenv("HWT_SHOW") || hwt_test_failures)
		fprintf(stderr, "perf report -D said:\n%.4000s\n", report);
}

int main(void)
{
	RUN(test_perf_prints_our_values);
	return hwt_test_summary();
}
