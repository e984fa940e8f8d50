/* The kernel emulator's user page publishes a time conversion as an x86
 * kernel does (cap_user_time_zero, time_shift/mult/zero), and a session
 * reads it back. The values are those of a 2 GHz TSC that started 5 s
 * before CLOCK_MONOTONIC's zero: by hand, time_mult = 2^31 * 1e9 / 2e9 =
 * 1073741824, time_zero = 2^64 - 5e9 = 18446744068709551616; and with
 * perf's conversion (tools/perf/util/tsc.c tsc_to_perf_time: quot = tsc >>
 * shift, rem = tsc & (2^shift - 1), time = zero + quot * mult +
 * (rem * mult >> shift)) the TSC value 2 * (1e9 + 5e9) is perf time 1 s.
 * Without it (hwt_emu_set_time_conv false) the session says there is
 * none. */
#include <string.h>

#include "harness.h"
#include "discard_sink.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define PMU_TYPE 42

/* Opens one emulated AUX event on CPU 0 and reads its time conversion. */
static int read_conv(bool publish, struct hwt_pd_time_conv *tc)
{
	static const int cpu0[] = {0};
	struct hwt_emu_opts eo = {.size = sizeof(eo)};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = NULL;
	int ret;

	memset(tc, 0, sizeof(*tc));
	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	if (!emu)
		return HWT_ERR_NOMEM;
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_pt", PMU_TYPE), 0);
	if (!publish)
		CHECK_INT(hwt_emu_set_time_conv(emu, false), 0);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.os = hwt_emu_os(emu);
	o.aux = true;
	o.aux_attr.type = PMU_TYPE;
	o.aux_attr.size = sizeof(o.aux_attr);
	o.cpus = cpu0;
	o.ncpus = 1;
	o.pid = -1;
	o.data_pages = 4;
	o.aux_pages = 4;
	o.sink = (struct hwt_capture_sink){NULL, hwt_test_discard_record, hwt_test_discard_aux};
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	ret = hwt_session_time_conv(s, tc);
	hwt_session_stop(s);
	hwt_session_free(s);
	hwt_emu_free(emu);
	return ret;
}

static void user_page_publishes_a_tsc(void)
{
	struct hwt_pd_time_conv tc;

	CHECK_INT(read_conv(true, &tc), 0);
	CHECK(tc.cap_user_time_zero);
	CHECK(!tc.cap_user_time_short);
	CHECK_U64(tc.time_shift, 31);
	CHECK_U64(tc.time_mult, 1073741824u);
	CHECK_U64(tc.time_zero, 18446744068709551616ull);

	uint64_t tsc = 2ull * (1000000000ull + 5000000000ull);
	uint64_t quot = tsc >> tc.time_shift;
	uint64_t rem = tsc & ((1ull << tc.time_shift) - 1);
	uint64_t t = tc.time_zero + quot * tc.time_mult +
		     ((rem * tc.time_mult) >> tc.time_shift);
	CHECK_U64(t, 1000000000ull);
}

static void without_a_tsc(void)
{
	struct hwt_pd_time_conv tc;

	CHECK_INT(read_conv(false, &tc), HWT_ERR_NOSUP);
}

int main(void)
{
	RUN(user_page_publishes_a_tsc);
	RUN(without_a_tsc);
	return hwt_test_summary();
}
