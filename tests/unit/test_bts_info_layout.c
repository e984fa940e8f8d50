/* intel_bts's AUXTRACE_INFO priv words in the layout of perf's
 * intel_bts_info_fill (tools/perf/util/intel-bts.h: PMU type, time shift,
 * time mult, time zero, cap_user_time_zero, snapshot mode; 6 words). No
 * public BTS capture exists, so the values are hand-set: the PMU type of
 * the fixture and a TIME_CONV from a real capture. */
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/x86-bts/bts_meta.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/intel-skl"

static void test_words_in_perf_order(void)
{
	/* TIME_CONV of quipper's Skylake capture. */
	struct hwt_record_info_ctx ctx = {.size = sizeof(ctx),
					  .cap_user_time_zero = true,
					  .time_shift = 31,
					  .time_mult = 1789569706,
					  .time_zero = 18446744041015200657ull,
					  .sched_switch = 2};
	struct perf_event_attr attr = {.type = 7};
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	uint64_t priv[8];
	int n;

	memset(priv, 0xee, sizeof(priv));
	n = hwt_bts_info(os, NULL, &attr, NULL, 0, true, &ctx, priv, 8);
	CHECK_INT(n, 6);
	CHECK_U64(priv[0], 7);
	CHECK_U64(priv[1], 31);
	CHECK_U64(priv[2], 1789569706);
	CHECK_U64(priv[3], 18446744041015200657ull);
	CHECK_U64(priv[4], 1);
	CHECK_U64(priv[5], 1);
	CHECK_U64(priv[6], 0xeeeeeeeeeeeeeeeeull); /* nothing written past 6 */

	/* Without the user page's time: zeros and cap 0, as perf writes
	 * when cap_user_time_zero is unset. */
	n = hwt_bts_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 6);
	CHECK_INT(n, 6);
	CHECK_U64(priv[0], 7);
	CHECK_U64(priv[1], 0);
	CHECK_U64(priv[2], 0);
	CHECK_U64(priv[3], 0);
	CHECK_U64(priv[4], 0);
	CHECK_U64(priv[5], 0);
	hwt_os_free(os);
}

static void test_type_from_pmu_struct(void)
{
	struct hwt_pmu pmu = {.name = "intel_bts", .type = 11};
	uint64_t priv[6];

	CHECK_INT(hwt_bts_info(NULL, &pmu, NULL, NULL, 0, false, NULL, priv, 6), 6);
	CHECK_U64(priv[0], 11);
}

static void test_errors(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	struct perf_event_attr attr = {.type = 6};
	uint64_t priv[6];

	CHECK_INT(hwt_bts_info(os, NULL, &attr, NULL, 0, false, NULL, priv, 6),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "intel_bts has type 7");
	CHECK_INT(hwt_bts_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 5),
		  HWT_ERR_NOSPC);
	CHECK_INT(hwt_bts_info(NULL, NULL, NULL, NULL, 0, false, NULL, priv, 6),
		  HWT_ERR_INVAL);
	hwt_os_free(os);
}

int main(void)
{
	RUN(test_words_in_perf_order);
	RUN(test_type_from_pmu_struct);
	RUN(test_errors);
	return hwt_test_summary();
}
