/* The command hwtrace record launched is ended as perf record ends it
 * when the capture stops first: SIGTERM, which it may handle, and SIGKILL
 * only when it is still there 2 s later; a command never started is
 * killed at once. No process is left behind in any case. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/session.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Starts `sh -c SCRIPT`, lets it run 300 ms, frees it; returns how long
 * the free took and the pid in *pid. */
static double run_and_free(const char *script, bool start, pid_t *pid)
{
	char *argv[] = {"sh", "-c", (char *)script, NULL};
	struct hwt_workload *w = NULL;

	CHECK_INT(hwt_workload_new(argv, &w), 0);
	if (!w)
		return -1;
	*pid = hwt_workload_pid(w);
	if (start) {
		CHECK_INT(hwt_workload_start(w), 0);
		usleep(300000);
	}
	double t0 = now_s();
	hwt_workload_free(w);
	return now_s() - t0;
}

int main(void)
{
	char dir[] = "/tmp/hwt-workload-XXXXXX", file[128], script[256], buf[16] = {0};
	pid_t pid;

	if (!mkdtemp(dir))
		return 1;
	snprintf(file, sizeof(file), "%s/got", dir);

	/* A command that handles SIGTERM ends by itself, at once. */
	snprintf(script, sizeof(script), "trap 'echo term > %s; exit 3' TERM; "
		 "while :; do sleep 0.05; done", file);
	double took = run_and_free(script, true, &pid);
	FILE *f = fopen(file, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
	}
	CHECK_STR(buf, "term\n");
	CHECK(took < 1.0);
	CHECK(kill(pid, 0) == -1 && errno == ESRCH);

	/* One that ignores it is killed 2 s later. */
	took = run_and_free("trap '' TERM; while :; do sleep 0.05; done", true, &pid);
	CHECK(took >= 1.9 && took < 4.0);
	CHECK(kill(pid, 0) == -1 && errno == ESRCH);

	/* Never started: killed at once. */
	took = run_and_free("exit 0", false, &pid);
	CHECK(took < 1.0);
	CHECK(kill(pid, 0) == -1 && errno == ESRCH);

	unlink(file);
	rmdir(dir);
	return hwt_test_summary();
}
