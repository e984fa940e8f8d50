/* Malformed sysfs files give a clean intel_pt / intel_bts info error
 * naming the file. */
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/x86-bts/bts_meta.h"
#include "backends/x86-pt/pt_meta.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/bad"

static void test_bad_files(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	struct hwt_pmu pmu = {.name = "intel_pt", .type = 6};
	uint64_t priv[64];

	CHECK_INT(hwt_pt_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "intel_pt/format/mtc_period");
	CHECK_CONTAINS(hwt_errmsg(), "\"config:17-14\"");
	/* Formats from a PMU description; the ratio is still read. */
	CHECK_INT(hwt_pt_info(os, &pmu, NULL, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "intel_pt/max_nonturbo_ratio");
	CHECK_CONTAINS(hwt_errmsg(), "\"12.5\"");
	CHECK_INT(hwt_bts_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "intel_bts/type");
	hwt_os_free(os);
}

int main(void)
{
	RUN(test_bad_files);
	return hwt_test_summary();
}
