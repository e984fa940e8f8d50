/* The rvtrace AUXTRACE_INFO (docs/riscv.md): the record op writes the
 * PMU type and hwtrace's version-1 words with the profile's encoder
 * settings, and the decoder's reader takes them back; the series' one
 * word gives the defaults; a short, foreign, newer or out-of-range info
 * is refused naming what is wrong. Perf's padding: fewer than 8 zero
 * bytes up to a multiple of 8, nothing else. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backends/riscv-trace/rvt_record.h"
#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

static void info_round_trip(void)
{
	struct hwt_profile *p = hwt_profile_new();
	struct hwt_pmu pmu = {.type = 9};
	struct perf_event_attr attr = {0};
	uint64_t priv[16];
	struct rvt_opts o;

	CHECK(p != NULL);
	CHECK_INT(hwt_profile_parse_event(p, "rvtrace/xlen=32,callstack=5,src=3,"
					  "ts=off,extaddr=1/"), 0);
	CHECK_INT(rvt_record_ops.configure(NULL, &pmu, p, &attr), 0);
	CHECK_INT(rvt_record_ops.info(NULL, &pmu, &attr, NULL, 0, false, NULL,
				      priv, 16), RVT_INFO_WORDS);
	/* PMU type, "HWRV" version 1, xlen, callstack, src, ts (2: off),
	 * extaddr. */
	static const uint64_t want[RVT_INFO_WORDS] = {
		9, 0x4857525600000001ull, 32, 5, 3, 2, 1,
	};
	for (int i = 0; i < RVT_INFO_WORDS; i++)
		CHECK_U64(priv[i], want[i]);
	CHECK_INT(rvt_info_opts(priv, RVT_INFO_WORDS, &o), 0);
	CHECK_INT(o.xlen, 32);
	CHECK_INT(o.callstack, 5);
	CHECK_INT(o.src_bits, 3);
	CHECK_INT(o.ts, RVT_TS_OFF);
	CHECK_INT(o.extaddr, 1);
	CHECK_INT(rvt_record_ops.info(NULL, &pmu, &attr, NULL, 0, false, NULL,
				      priv, 6), HWT_ERR_INVAL);
	/* A bad setting stops configure with the key and where it came from. */
	struct hwt_profile *q = hwt_profile_new();
	CHECK_INT(hwt_profile_parse_event(q, "rvtrace/callstack=33/"), 0);
	CHECK_INT(rvt_record_ops.configure(NULL, &pmu, q, &attr), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [rvtrace]: callstack=33: expected a number "
		  "from 0 to 32");
	hwt_profile_free(q);
	hwt_profile_free(p);
}

static void info_refused(void)
{
	uint64_t series[1] = {9};
	uint64_t v1[7] = {9, 0x4857525600000001ull, 64, 32, 0, 0, 0};
	struct rvt_opts o;

	CHECK_INT(rvt_info_opts(series, 1, &o), 0);
	CHECK_INT(o.xlen, 64);
	CHECK_INT(o.callstack, 32);
	CHECK_INT(rvt_info_opts(series, 0, &o), HWT_ERR_FORMAT);
	CHECK_INT(rvt_info_opts(v1, 6, &o), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "riscv_ntrace: AUXTRACE_INFO has 6 words; "
		  "version 1 has 7");
	v1[2] = 48;
	CHECK_INT(rvt_info_opts(v1, 7, &o), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "riscv_ntrace: AUXTRACE_INFO settings out of "
		  "range (xlen 48, callstack 32, src 0, ts 0, extaddr 0)");
	v1[2] = 32;
	v1[3] = 33;
	CHECK_INT(rvt_info_opts(v1, 7, &o), HWT_ERR_FORMAT);
	v1[3] = 8;
	v1[5] = 3;
	CHECK_INT(rvt_info_opts(v1, 7, &o), HWT_ERR_FORMAT);
	v1[5] = 0;
	CHECK_INT(rvt_info_opts(v1, 7, &o), 0);
	CHECK_INT(o.callstack, 8);
}

static void padding(void)
{
	static const uint8_t zero[8], msg[4] = {0, 0, 3, 0};

	CHECK(rvt_perf_padding(zero, 4, 2608));
	CHECK(rvt_perf_padding(zero, 7, 8));
	CHECK(!rvt_perf_padding(zero, 8, 16));     /* 8 or more: not padding */
	CHECK(!rvt_perf_padding(zero, 4, 2604));   /* not up to a multiple of 8 */
	CHECK(!rvt_perf_padding(msg, 4, 2608));    /* a byte that is not 0 */
	CHECK(!rvt_perf_padding(zero, 0, 2608));
}

int main(void)
{
	RUN(info_round_trip);
	RUN(info_refused);
	RUN(padding);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
