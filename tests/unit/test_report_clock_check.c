/* hwt_report_clock_check: captures whose traces keep time by the same
 * clock go into one table, others are refused naming both files. Oracle
 * for the clocks: `perf report -D` of the quipper capture shows an
 * intel_pt event (perf time in ns), of simpleperf's capture a cs_etm
 * one (ticks of the trace's timestamp counter). */
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/report_request.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define ETM HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"
#define ELF HWT_TESTDATA "/perf-data/simpleperf-etm/etm_test_loop"

static void same_clock_taken(void)
{
	CHECK_INT(hwt_report_clock_check(PT, PT), 0);
	CHECK_INT(hwt_report_clock_check(ETM, ETM), 0);
	/* Neither file states a clock: nothing tells them apart. */
	CHECK_INT(hwt_report_clock_check(ELF, ELF), 0);
}

static void other_clock_refused(void)
{
	CHECK_INT(hwt_report_clock_check(PT, ETM), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), ETM ": its trace's time is of another clock "
		  "than " PT "'s: report them apart");
	CHECK_INT(hwt_report_clock_check(ETM, PT), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), PT ": its trace's time is of another clock "
		  "than " ETM "'s: report them apart");
	/* A file that is no capture has no clock: not the first one's. */
	CHECK_INT(hwt_report_clock_check(PT, ELF), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), ELF ": its trace's time is of another clock "
		  "than " PT "'s: report them apart");
}

int main(void)
{
	RUN(same_clock_taken);
	RUN(other_clock_refused);
	return hwt_test_summary();
}
