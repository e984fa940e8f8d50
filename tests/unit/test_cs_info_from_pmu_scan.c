/* cs_etm's AUXTRACE_INFO built from the PMU scan of the shared sysfs
 * fixtures (juno: six ETMv4; armv9-ete-trbe: two ETE) holds the register
 * values the fixtures document (tests/fixtures/sysfs/README.md, taken from
 * OpenCSD's a57_single_step and ete_mem snapshots), and equals what the
 * same info op reads from sysfs directly. */
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/arm-cs/cs_info.h"
#include "backends/arm-cs/cs_meta.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"

/* Builds the words both ways; returns their number (or an error). */
static int both_ways(const char *fixture, const struct perf_event_attr *attr,
		     uint64_t *priv, size_t max)
{
	struct hwt_os *os = hwt_os_linux_new(fixture);
	struct hwt_pmu_list *list = NULL;
	const struct hwt_pmu *pmu = NULL;
	uint64_t direct[128];
	int n, m;

	CHECK_INT(hwt_pmu_scan(os, &list), 0);
	if (list)
		pmu = hwt_pmu_list_find(list, "cs_etm");
	CHECK(pmu != NULL);
	n = hwt_cs_info(os, pmu, attr, NULL, 0, false, NULL, priv, max);
	if (n < 0)
		fprintf(stderr, "%s: %s\n", fixture, hwt_errmsg());
	m = hwt_cs_info(os, NULL, attr, NULL, 0, false, NULL, direct, 128);
	CHECK_INT(m, n);
	if (n > 0 && m == n)
		CHECK(memcmp(priv, direct, (size_t)n * 8) == 0);
	hwt_pmu_list_free(list);
	hwt_os_free(os);
	return n;
}

static void test_juno_six_etmv4(void)
{
	/* contextid and timestamp, perf's defaults on a per-CPU session. */
	struct perf_event_attr attr = {.type = 8,
				       .config = (1ull << 14) | (1ull << 28)};
	uint64_t priv[128];
	int n = both_ways(FIXTURES "juno", &attr, priv, 128);

	CHECK_INT(n, 3 + 6 * 10);
	if (n != 63)
		return;
	CHECK_U64(priv[HWT_CS_HDR_VERSION], 1);
	CHECK_U64(priv[HWT_CS_HDR_PMU_TYPE_CPUS], (8ull << 32) | 6);
	for (int c = 0; c < 6; c++) {
		const uint64_t *b = &priv[3 + 10 * c];

		CHECK_U64(b[HWT_CS_BLK_MAGIC], HWT_CS_MAGIC_ETMV4);
		CHECK_U64(b[HWT_CS_BLK_CPU], c);
		CHECK_U64(b[HWT_CS_BLK_NR_PARAMS], 7);
		CHECK_U64(b[HWT_CS_ETMV4_TRCCONFIGR], 0x840);
		CHECK_U64(b[HWT_CS_ETMV4_TRCTRACEIDR], 0x10 + 2 * c);
		CHECK_U64(b[HWT_CS_ETMV4_TRCIDR0], 0x8000ca1);
		CHECK_U64(b[HWT_CS_ETMV4_TRCIDR1], 0x4200f410);
		CHECK_U64(b[HWT_CS_ETMV4_TRCIDR2], 0x20001088);
		CHECK_U64(b[HWT_CS_ETMV4_TRCIDR8], 0);
		CHECK_U64(b[HWT_CS_ETMV4_TRCAUTHSTATUS], 0xcc);
	}
}

static void test_armv9_two_ete(void)
{
	struct perf_event_attr attr = {.type = 8};
	uint64_t priv[128];
	int n = both_ways(FIXTURES "armv9-ete-trbe", &attr, priv, 128);

	CHECK_INT(n, 3 + 2 * 11);
	if (n != 25)
		return;
	CHECK_U64(priv[HWT_CS_HDR_PMU_TYPE_CPUS], (8ull << 32) | 2);
	for (int c = 0; c < 2; c++) {
		const uint64_t *b = &priv[3 + 11 * c];

		CHECK_U64(b[HWT_CS_BLK_MAGIC], HWT_CS_MAGIC_ETE);
		CHECK_U64(b[HWT_CS_BLK_CPU], c);
		CHECK_U64(b[HWT_CS_BLK_NR_PARAMS], 8);
		CHECK_U64(b[HWT_CS_ETE_TRCCONFIGR], 0);
		CHECK_U64(b[HWT_CS_ETE_TRCTRACEIDR], 0x10 + 2 * c);
		CHECK_U64(b[HWT_CS_ETE_TRCIDR0], 0x2801cea1);
		CHECK_U64(b[HWT_CS_ETE_TRCIDR1], 0x4100fff0);
		CHECK_U64(b[HWT_CS_ETE_TRCIDR2], 0xd0001088);
		CHECK_U64(b[HWT_CS_ETE_TRCIDR8], 0);
		/* The fixture has no mgmt/trcauthstatus: 0, as perf writes. */
		CHECK_U64(b[HWT_CS_ETE_TRCAUTHSTATUS], 0);
		CHECK_U64(b[HWT_CS_ETE_TRCDEVARCH], 0x47705a13);
	}
}

static void test_no_trace_machine(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "no-trace");
	uint64_t priv[16];

	CHECK_INT(hwt_cs_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 16),
		  HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "cs_etm/type");
	hwt_os_free(os);
}

int main(void)
{
	RUN(test_juno_six_etmv4);
	RUN(test_armv9_two_ete);
	RUN(test_no_trace_machine);
	return hwt_test_summary();
}
