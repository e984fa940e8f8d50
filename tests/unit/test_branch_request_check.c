/* hwt_branch_request_check (hwtrace/recorder.h): which branch-sampling
 * requests go together. The positive controls: a request for the
 * emulator and one for a command pass, and passing opens nothing (their
 * paths do not exist). Each refusal is HWT_ERR_INVAL with the text
 * `hwtrace record -b` prints as its usage error (docs/branch-records.md
 * names the options); when two conflicts meet, the sampling's own options
 * are named before the machine, as a command line is read. The same
 * refusals come from hwt_recorder_record_branch before any file is made. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

#define NOWHERE "/nonexistent/hwt-branch-request-check"

static char *cmd[] = {"true", NULL};

static struct hwt_branch_request emulated(void)
{
	return (struct hwt_branch_request){
		.size = sizeof(struct hwt_branch_request), .profile = NULL,
		.any = true, .filter = NULL, .period = 3, .freq = 0,
		.data_pages = 0, .output = NOWHERE "/out.data", .argv = NULL,
		.sysfs = NOWHERE "/sysfs", .truth = NOWHERE "/truth.data",
		.on_recorder = NULL, .on_recorder_arg = NULL,
	};
}

static struct hwt_branch_request on_command(void)
{
	struct hwt_branch_request rq = emulated();
	rq.argv = cmd;
	rq.sysfs = rq.truth = NULL;
	return rq;
}

static void refused(const struct hwt_branch_request *rq, const char *msg)
{
	CHECK_INT(hwt_branch_request_check(rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), msg);
}

static void whole_requests_pass(void)
{
	struct hwt_branch_request rq = emulated();
	CHECK_INT(hwt_branch_request_check(&rq), 0);
	rq = on_command();
	CHECK_INT(hwt_branch_request_check(&rq), 0);
	rq.any = false;
	rq.filter = "any_call,u";
	rq.period = 0;
	rq.freq = 1000;
	CHECK_INT(hwt_branch_request_check(&rq), 0);
	CHECK(access(NOWHERE, F_OK) != 0);
}

static void incomplete_requests_refused(void)
{
	const char *msg = "branch sampling: a request with its size and an "
			  "output file";
	struct hwt_branch_request rq = emulated();
	refused(NULL, msg);
	/* A caller built before the group field (its struct ends before
	 * it) is whole; one shorter than that is not. */
	rq.size = offsetof(struct hwt_branch_request, group);
	CHECK_INT(hwt_branch_request_check(&rq), 0);
	rq.size = offsetof(struct hwt_branch_request, group) - 1;
	refused(&rq, msg);
	rq = emulated();
	rq.output = NULL;
	refused(&rq, msg);
}

/* -e's group: its syntax refused before anything is opened, in the
 * parser's words; a group that parses goes on to the machine. */
static void group_syntax(void)
{
	struct hwt_branch_request rq = emulated();
	rq.group = "cpu/branch-misses,branch_type=counter/";
	CHECK_INT(hwt_branch_request_check(&rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "-e cpu/branch-misses,branch_type=counter/: "
				"not an event group: branch counters count the "
				"events of a group, give -e '{LEADER,MEMBER,...}' "
				"(perf's braces)");
	rq.group = "{branches,cpu/event=0xc4,umask=0xfe/}";
	CHECK_INT(hwt_branch_request_check(&rq), 0);
	/* A caller whose struct ends before the field has no group. */
	rq.group = "bogus";
	rq.size = offsetof(struct hwt_branch_request, group);
	CHECK_INT(hwt_branch_request_check(&rq), 0);
}

static void conflicts_named(void)
{
	const char *machine_none = "what to sample? give -- CMD, or --sysfs DIR "
		"(the emulated machine) and --emulate-branches FILE (a "
		"sw_branch capture of its program)";
	struct hwt_branch_request rq = emulated();

	rq.filter = "any_ret";
	refused(&rq, "-b is -j any: give one of -b and -j any_ret");
	rq = emulated();
	rq.freq = 4000;
	refused(&rq, "-c 3 and -F 4000: a period or a frequency, not both");

	rq = on_command();
	rq.truth = NOWHERE "/truth.data";
	refused(&rq, "--sysfs and --emulate-branches record the emulator's "
		"program: no command");
	rq = on_command();
	rq.sysfs = NOWHERE "/sysfs";
	refused(&rq, "--sysfs and --emulate-branches record the emulator's "
		"program: no command");

	rq = emulated();
	rq.truth = NULL;
	refused(&rq, machine_none);
	rq = emulated();
	rq.sysfs = NULL;
	refused(&rq, machine_none);

	/* Every conflict at once: -b with -j is the first named. */
	rq = emulated();
	rq.argv = cmd;
	rq.filter = "cond";
	rq.freq = 10;
	refused(&rq, "-b is -j any: give one of -b and -j cond");
	rq.any = false;
	refused(&rq, "-c 3 and -F 10: a period or a frequency, not both");
	rq.freq = 0;
	refused(&rq, "--sysfs and --emulate-branches record the emulator's "
		"program: no command");
}

static void recording_refuses_the_same(void)
{
	struct hwt_branch_request rq = emulated();
	struct hwt_branch_summary sum;
	rq.freq = 4000;
	memset(&sum, 0xff, sizeof(sum));
	CHECK_INT(hwt_recorder_record_branch(&rq, &sum), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "-c 3 and -F 4000: a period or a frequency, "
		  "not both");
	CHECK(!sum.emulated);
	CHECK_U64(sum.samples, 0);
	CHECK(access(NOWHERE, F_OK) != 0);
}

int main(void)
{
	RUN(whole_requests_pass);
	RUN(incomplete_requests_refused);
	RUN(group_syntax);
	RUN(conflicts_named);
	RUN(recording_refuses_the_same);
	return hwt_test_summary();
}
