/* hwt_capture_units_write_jsonl: a capture's units as the JSON lines of
 * `hwtrace units`.
 *
 * Oracle: `hwtrace units` on the Intel PT capture of the test data, run
 * before the listing moved into the library, printed 9 lines: unit 1 is
 * queue 0 (CPU 0) whole, 12240 bytes; units 2 to 9 cut queue 1 (CPU 3)
 * at 0, 16984, 32888, 49296, 65744, 98704, 115024, 131472, ending at
 * 137728. Independently: the units of each queue are contiguous from 0,
 * and each line's fields are hwt_capture_units' of the same capture. The
 * LBR capture has nothing to cut: one unit-0 line whose cost is its
 * size as stat gives it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define LBR HWT_TESTDATA "/perf-data/simpleperf-lbr/perf_lbr.data"

/* The lines written for @file into @buf; the return of the call. */
static int write_lines(const char *file, char *buf, size_t size)
{
	FILE *f = tmpfile();
	if (!f)
		return HWT_ERR_IO;
	int err = hwt_capture_units_write_jsonl(f, file);
	rewind(f);
	size_t n = fread(buf, 1, size - 1, f);
	buf[n] = 0;
	fclose(f);
	return err;
}

static void test_pt_units(void)
{
	static char buf[8192];
	CHECK_INT(write_lines(PT, buf, sizeof(buf)), 0);
	static const uint64_t offsets[] = {0, 0, 16984, 32888, 49296, 65744,
					   98704, 115024, 131472};
	static const uint64_t sizes[] = {12240, 16984, 15904, 16408, 16448,
					 32960, 16320, 16448, 6256};
	char want[512];
	const char *line = buf;
	uint64_t next[2] = {0, 0};
	for (int i = 0; i < 9; i++) {
		int q = i ? 1 : 0;
		snprintf(want, sizeof(want), "{\"file\":\"%s\",\"unit\":%d,"
			 "\"units\":9,\"queue\":%d,\"cpu\":%d,\"tid\":3174,"
			 "\"offset\":%" PRIu64 ",\"size\":%" PRIu64 ",",
			 PT, i + 1, q, q ? 3 : 0, offsets[i], sizes[i]);
		CHECK_INT(strncmp(line, want, strlen(want)), 0);
		CHECK_U64(offsets[i], next[q]);
		next[q] += sizes[i];
		char cost[64];
		snprintf(cost, sizeof(cost), ",\"cost\":%" PRIu64 "}\n", sizes[i]);
		const char *nl = strchr(line, '\n');
		CHECK(nl != NULL);
		if (!nl)
			return;
		CHECK_INT(strncmp(nl + 1 - strlen(cost), cost, strlen(cost)), 0);
		line = nl + 1;
	}
	CHECK_U64(next[1], 137728);
	CHECK_STR(line, "");
	/* Each line's times are hwt_capture_units'. */
	struct hwt_capture *cap = NULL;
	CHECK_INT(hwt_capture_open(PT, NULL, &cap), 0);
	const struct hwt_capture_unit *u = NULL;
	CHECK_INT(hwt_capture_units(cap, &u), 9);
	snprintf(want, sizeof(want), "\"time_from\":%" PRIu64 ",\"time_until\":%"
		 PRIu64 ",", u[0].time_from, u[0].time_until);
	CHECK_CONTAINS(buf, want);
	CHECK_U64(u[0].time_from, 641258037956);
	hwt_capture_free(cap);
}

static void test_nothing_to_cut(void)
{
	static char buf[1024];
	struct stat st;
	CHECK_INT(stat(LBR, &st), 0);
	char want[512];
	snprintf(want, sizeof(want), "{\"file\":\"%s\",\"unit\":0,\"units\":0,"
		 "\"cost\":%lld}\n", LBR, (long long)st.st_size);
	CHECK_INT(write_lines(LBR, buf, sizeof(buf)), 0);
	CHECK_STR(buf, want);
	CHECK_INT((long long)st.st_size, 23855);
}

static void test_errors(void)
{
	static char buf[256];
	CHECK_INT(hwt_capture_units_write_jsonl(NULL, PT), HWT_ERR_INVAL);
	CHECK_INT(hwt_capture_units_write_jsonl(stdout, NULL), HWT_ERR_INVAL);
	/* A file that is no capture: the open's error, no line. */
	CHECK(write_lines(HWT_SOURCE_DIR "/CMakeLists.txt", buf,
			  sizeof(buf)) < 0);
	CHECK_STR(buf, "");
	CHECK(write_lines("/nonexistent/perf.data", buf, sizeof(buf)) < 0);
	CHECK_STR(buf, "");
}

int main(void)
{
	RUN(test_pt_units);
	RUN(test_nothing_to_cut);
	RUN(test_errors);
	return hwt_test_summary();
}
