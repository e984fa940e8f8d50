/* intel_pt's and intel_bts's AUXTRACE_INFO built from the PMU scan of the
 * shared intel-client fixture hold the values that fixture documents
 * (tests/fixtures/sysfs/README.md: the kernel's format fields, the quipper
 * capture's type and max non-turbo ratio, event_trace 0), and equal what
 * the same info op reads from sysfs directly. */
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/x86-bts/bts_meta.h"
#include "backends/x86-pt/pt_meta.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"

static void test_intel_pt(void)
{
	struct hwt_record_info_ctx ctx = {.size = sizeof(ctx),
					  .tsc_ctc_given = true,
					  .tsc_ctc_n = 100, .tsc_ctc_d = 2};
	struct perf_event_attr attr = {.type = 6};
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	struct hwt_pmu_list *list = NULL;
	const struct hwt_pmu *pmu = NULL;
	uint64_t a[32], b[32];
	int cpus[] = {0, 1, 2, 3};
	int n, m;

	CHECK_INT(hwt_pmu_scan(os, &list), 0);
	if (list)
		pmu = hwt_pmu_list_find(list, "intel_pt");
	CHECK(pmu != NULL);
	n = hwt_pt_info(os, pmu, &attr, cpus, 4, false, &ctx, a, 32);
	m = hwt_pt_info(os, NULL, &attr, cpus, 4, false, &ctx, b, 32);
	CHECK_INT(n, 18);
	CHECK_INT(m, 18);
	if (n == 18 && m == 18) {
		CHECK(memcmp(a, b, sizeof(uint64_t) * 18) == 0);
		CHECK_U64(a[HWT_PT_PRIV_PMU_TYPE], 6);
		CHECK_U64(a[HWT_PT_PRIV_TSC_BIT], 0x400);
		CHECK_U64(a[HWT_PT_PRIV_NORETCOMP_BIT], 0x800);
		CHECK_U64(a[HWT_PT_PRIV_MTC_BIT], 0x200);
		CHECK_U64(a[HWT_PT_PRIV_MTC_FREQ_BITS], 0x3c000);
		CHECK_U64(a[HWT_PT_PRIV_CYC_BIT], 0x2);
		CHECK_U64(a[HWT_PT_PRIV_MAX_NONTURBO_RATIO], 12);
		CHECK_U64(a[HWT_PT_PRIV_FIXED_WORDS], 0);
	}
	hwt_pmu_list_free(list);
	hwt_os_free(os);
}

static void test_intel_bts(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	struct hwt_pmu_list *list = NULL;
	const struct hwt_pmu *pmu = NULL;
	uint64_t a[8];

	CHECK_INT(hwt_pmu_scan(os, &list), 0);
	if (list)
		pmu = hwt_pmu_list_find(list, "intel_bts");
	CHECK(pmu != NULL);
	CHECK_INT(hwt_bts_info(os, pmu, NULL, NULL, 0, true, NULL, a, 8), 6);
	CHECK_U64(a[HWT_BTS_PRIV_PMU_TYPE], 7);
	CHECK_U64(a[HWT_BTS_PRIV_SNAPSHOT_MODE], 1);
	hwt_pmu_list_free(list);
	hwt_os_free(os);
}

int main(void)
{
	RUN(test_intel_pt);
	RUN(test_intel_bts);
	return hwt_test_summary();
}
