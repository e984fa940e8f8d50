/* hwt_recorder_record_branch (hwtrace/recorder.h): branch records sampled
 * on the kernel emulator from a sw_branch capture of known_path 5 traced
 * from kp_run to kp_done, whose 18 taken branches are known from the
 * program (5 calls, 3 odd, 5 returns, 4 loops, done; the capture's own
 * count is checked first, the positive control). The emulated event
 * counts those branches, so a period of 3 gives 6 samples and one of 4
 * gives 4 (a sample after every PERIOD-th branch). The oracles: that
 * arithmetic, the fixture's caps/branches (the depth), and perf 6.1,
 * whose `perf script -F period` prints one line a sample with its period.
 * The recorder is handed to the caller once it exists and taken back
 * before it is freed. Refusals: a request naming both machines or
 * neither, an unknown filter before a missing sysfs tree (the options'
 * errors first), transactions the ground truth does not have; none of
 * them leaves an output file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../programs/elf_syms.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-lbr"

static char dir[] = "/tmp/hwt-record-branch-XXXXXX";
static char truth[4096], out[4096];

/* The recorder as the request's callback sees it. */
struct seen {
	int attached, detached;
	struct hwt_recorder *last;
};

static void on_recorder(void *arg, struct hwt_recorder *r)
{
	struct seen *s = arg;
	if (r)
		s->attached++;
	else
		s->detached++;
	s->last = r;
}

static bool record_truth(void)
{
	char *argv[] = {(char *)test_program("known_path"), "5", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "kp_run",
		.stop = "kp_done", .output = truth, .quiet_child = true,
	};
	struct hwt_swb_stats st;
	int err = hwt_swb_record(&o, &st);
	CHECK_INT(err, 0);
	if (err) {
		fprintf(stderr, "%s\n", hwt_errmsg());
		return false;
	}
	CHECK_U64(st.branches, 18);
	return st.branches == 18;
}

/* The depth the fixture's cpu PMU claims. */
static unsigned fixture_depth(void)
{
	FILE *f = fopen(FIXTURE "/bus/event_source/devices/cpu/caps/branches", "r");
	unsigned depth = 0;
	if (f) {
		if (fscanf(f, "%u", &depth) != 1)
			depth = 0;
		fclose(f);
	}
	return depth;
}

/* perf 6.1's samples of @path: how many, and how many of them have
 * period @period; false when perf is not installed. */
static bool perf_samples(const char *path, uint64_t period, uint64_t *n,
			 uint64_t *with_period)
{
	char cmd[8192], line[256];
	if (system("command -v perf >/dev/null 2>&1") != 0)
		return false;
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' -F period 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	*n = *with_period = 0;
	if (!p)
		return false;
	while (fgets(line, sizeof(line), p)) {
		(*n)++;
		if (strtoull(line, NULL, 10) == period)
			(*with_period)++;
	}
	return pclose(p) == 0;
}

static struct hwt_branch_request request(uint64_t period)
{
	return (struct hwt_branch_request){
		.size = sizeof(struct hwt_branch_request), .any = true,
		.period = period, .output = out, .sysfs = FIXTURE, .truth = truth,
	};
}

static void sample_with_period(uint64_t period, uint64_t want_samples)
{
	struct hwt_branch_request rq = request(period);
	struct seen seen = {0, 0, NULL};
	struct hwt_branch_summary sum;
	rq.on_recorder = on_recorder;
	rq.on_recorder_arg = &seen;
	unlink(out);
	int err = hwt_recorder_record_branch(&rq, &sum);
	CHECK_INT(err, 0);
	if (err) {
		fprintf(stderr, "%s\n", hwt_errmsg());
		return;
	}
	CHECK(sum.emulated);
	CHECK_U64(sum.samples, want_samples);
	CHECK_U64(sum.lost, 0);
	CHECK_INT(sum.hw.kind, HWT_BRANCH_HW_LBR);
	CHECK_STR(sum.hw.pmu, "cpu");
	CHECK_U64(sum.hw.depth, fixture_depth());
	CHECK_U64(fixture_depth(), 32);
	CHECK_INT(seen.attached, 1);
	CHECK_INT(seen.detached, 1);
	CHECK(seen.last == NULL);

	uint64_t n, with_period;
	if (perf_samples(out, period, &n, &with_period)) {
		CHECK_U64(n, want_samples);
		CHECK_U64(with_period, want_samples);
	} else {
		HWT_SKIP_PART("perf (Debian: linux-perf) does not read %s", out);
	}
}

static void samples_every_period_th_branch(void)
{
	sample_with_period(3, 6);
	sample_with_period(4, 4);
}

static void refusals_leave_no_file(void)
{
	char *cmd[] = {"true", NULL};
	struct hwt_branch_request rq = request(3);
	struct hwt_branch_summary sum;
	unlink(out);

	rq.argv = cmd; /* both machines */
	CHECK_INT(hwt_recorder_record_branch(&rq, &sum), HWT_ERR_INVAL);
	rq = request(3);
	rq.sysfs = NULL; /* neither: the emulator needs both */
	CHECK_INT(hwt_recorder_record_branch(&rq, &sum), HWT_ERR_INVAL);
	rq = request(3);
	rq.size = 0;
	CHECK_INT(hwt_recorder_record_branch(&rq, &sum), HWT_ERR_INVAL);
	CHECK_INT(hwt_recorder_record_branch(NULL, &sum), HWT_ERR_INVAL);

	/* The filter's error comes before the machine's. */
	rq = request(3);
	rq.any = false;
	rq.filter = "nosuch";
	rq.sysfs = "/nonexistent/sysfs";
	CHECK_INT(hwt_recorder_record_branch(&rq, &sum), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "nosuch");

	rq = request(3);
	rq.any = false;
	rq.filter = "any,abort_tx";
	CHECK_INT(hwt_recorder_record_branch(&rq, &sum), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "its ground truth has no transactions");
	CHECK(access(out, F_OK) != 0);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return EXIT_FAILURE;
	}
	snprintf(truth, sizeof(truth), "%s/truth.data", dir);
	snprintf(out, sizeof(out), "%s/branches.data", dir);
	if (record_truth()) {
		RUN(samples_every_period_th_branch);
		RUN(refusals_leave_no_file);
	}
	unlink(truth);
	unlink(out);
	rmdir(dir);
	return hwt_test_summary();
}
