/* hwt_capture_file_clock answers with the clock of the backend whose
 * event the file holds. Oracle for the event: `perf evlist -i` on the
 * quipper capture prints "intel_pt//" (then cycles, dummy:u), so its
 * clock is the intel_pt backend's, perf time in ns. Files that are not
 * perf.data captures, a directory and a missing path have none. */
#include <stddef.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/capture.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define ETM_DIR HWT_TESTDATA "/perf-data/simpleperf-etm"

static void intel_pt_capture(void)
{
	const struct hwt_trace_clock *c = hwt_capture_file_clock(PT);
	CHECK(c != NULL);
	CHECK(c == hwt_backend_find("intel_pt")->clock);
	if (c) {
		CHECK_STR(c->unit, "ns");
		CHECK_CONTAINS(c->meaning, "TSC packets");
	}
}

static void not_a_capture(void)
{
	CHECK(hwt_capture_file_clock(ETM_DIR "/etm_test_loop") == NULL);
	CHECK(hwt_capture_file_clock(ETM_DIR) == NULL);
	CHECK(hwt_capture_file_clock(ETM_DIR "/no-such-file") == NULL);
	CHECK(hwt_capture_file_clock(NULL) == NULL);
}

/* Every trace that carries time states its clock; N-Trace's timestamps
 * are not converted to a clock the report can name yet. */
static void backends_state_theirs(void)
{
	static const struct {
		const char *backend, *unit;
	} want[] = {
		{"intel_pt", "ns"}, {"intel_bts", "ns"},
		{"cs_etm", "ticks"}, {"sw_branch", "ns"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct hwt_backend *b = hwt_backend_find(want[i].backend);
		CHECK(b && b->clock);
		if (b && b->clock)
			CHECK_STR(b->clock->unit, want[i].unit);
	}
	CHECK(hwt_backend_find("riscv_ntrace")->clock == NULL);
}

int main(void)
{
	RUN(intel_pt_capture);
	RUN(not_a_capture);
	RUN(backends_state_theirs);
	return hwt_test_summary();
}
