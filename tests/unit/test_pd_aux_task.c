/* hwt_pd_aux_task gives the task a per-CPU capture follows, as Linux perf
 * reads it from the first AUXTRACE record: `perf report -D` prints that
 * record's tid and cpu, and the task is the tid when the cpu is not -1
 * and the tid is above 0, else -1.
 *
 * Oracles: the `perf report -D` dumps stored beside two real captures
 * (quipper's Intel PT capture of task 3174 on CPUs 0-3; simpleperf's ETM
 * capture of whole CPUs, tid 0), and perf 6.1's dump of files written
 * here: a per-CPU buffer of task 4242, a per-thread buffer (cpu -1), a
 * whole-CPU buffer (tid -1), a file without AUXTRACE records. A missing
 * file is an error that names it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define PERF "/usr/bin/perf"

/* The task a `perf report -D` dump names in its first AUXTRACE line, by
 * the rule above; -2 when the dump has no AUXTRACE line, -3 when it does
 * not read as one. */
static long task_of_dump(FILE *dump)
{
	char line[1024];
	while (fgets(line, sizeof(line), dump)) {
		const char *at = strstr(line, "PERF_RECORD_AUXTRACE size:");
		const char *t, *c;
		long tid, cpu;
		if (!at)
			continue;
		t = strstr(at, " tid: ");
		c = strstr(at, " cpu: ");
		if (!t || !c || sscanf(t, " tid: %ld", &tid) != 1 ||
		    sscanf(c, " cpu: %ld", &cpu) != 1)
			return -3;
		return cpu != -1 && tid > 0 ? tid : -1;
	}
	return -2;
}

/* The task of @path's dump: the stored dump file @path, or (@run_perf)
 * the dump perf report -D makes of the capture @path now. */
static long task_of_perf_dump(const char *path, bool run_perf)
{
	char cmd[512];
	FILE *f;
	long task;
	snprintf(cmd, sizeof(cmd), PERF " report -D -i %s 2>/dev/null", path);
	if (!(f = run_perf ? popen(cmd, "r") : fopen(path, "r"))) {
		HWT_FAIL("%s: %s", run_perf ? cmd : path,
			 run_perf ? "cannot run it" : "the stored dump is missing");
		return -4;
	}
	task = task_of_dump(f);
	if (run_perf)
		pclose(f);
	else
		fclose(f);
	return task;
}

static int32_t task_of(const char *path)
{
	int32_t tid = -100;
	int err = hwt_pd_aux_task(path, &tid);
	if (err < 0)
		HWT_FAIL("hwt_pd_aux_task(%s): %s", path, hwt_errmsg());
	return tid;
}

static void check_real(const char *capture)
{
	char path[512], dump[600];
	snprintf(path, sizeof(path), "%s/perf-data/%s", HWT_TESTDATA, capture);
	snprintf(dump, sizeof(dump), "%s.perf-report-D.txt", path);
	long want = task_of_perf_dump(dump, false);
	CHECK(want >= -1);
	CHECK_INT(task_of(path), want);
}

/* A capture with one AUX event and, unless @with_aux is false, one
 * 64-byte AUXTRACE buffer of @tid on @cpu (UINT32_MAX for -1). */
static int write_capture(const char *path, bool with_aux, uint32_t tid,
			 uint32_t cpu)
{
	struct perf_event_attr attr = {.size = sizeof(attr), .type = 8,
				       .sample_type = PERF_SAMPLE_IDENTIFIER |
						      PERF_SAMPLE_TID |
						      PERF_SAMPLE_TIME,
				       .sample_id_all = 1};
	static const uint8_t build_id[20] = {0x12, 0x34};
	static const uint8_t payload[64];
	struct hwt_pd_auxtrace aux = {.size = sizeof(payload), .idx = 0,
				      .tid = tid, .cpu = cpu};
	uint64_t id = 1;
	struct hwt_pd_writer *w;
	if (hwt_pd_writer_open(path, &w) < 0)
		return -1;
	hwt_pd_writer_add_attr(w, &attr, &id, 1, "intel_pt//");
	/* A build id: the writer's empty build-id section trips UBSan. */
	hwt_pd_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, build_id, 20,
				   "/bin/ls");
	/* A round's end in the file without a buffer: a data section of 0
	 * bytes reads as one whose size perf left unwritten. */
	if ((with_aux ? hwt_pd_writer_auxtrace(w, &aux, payload) :
			hwt_pd_writer_finished_round(w)) < 0) {
		hwt_pd_writer_discard(w);
		return -1;
	}
	return hwt_pd_writer_close(w);
}

static void check_written(const char *dir, bool with_aux, uint32_t tid,
			  uint32_t cpu, long want)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/aux.data", dir);
	if (write_capture(path, with_aux, tid, cpu) < 0) {
		HWT_FAIL("writing %s: %s", path, hwt_errmsg());
		return;
	}
	/* perf reads the record as written (the positive control), then
	 * the library agrees with perf. */
	CHECK_INT(task_of_perf_dump(path, true), want);
	CHECK_INT(task_of(path), want);
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/hwt-aux-task-XXXXXX";
	int32_t tid = 7;

	if (access(PERF, X_OK) != 0) {
		fprintf(stderr, "%s is missing: install Debian's linux-perf; the "
			"test checks hwtrace against perf's reading\n", PERF);
		return 1;
	}
	check_real("quipper/perf.data.intel_pt-4.14");
	CHECK_INT(task_of("" HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"),
		  3174);
	check_real("simpleperf-etm/perf_etm.data");

	if (!mkdtemp(dir)) {
		HWT_FAIL("mkdtemp: no temporary directory");
		return 1;
	}
	check_written(dir, true, 4242, 1, 4242);
	check_written(dir, true, 4242, UINT32_MAX, -1);
	check_written(dir, true, UINT32_MAX, 2, -1);
	/* No AUXTRACE record: perf's dump has none (-2); the library says
	 * there is no task. */
	{
		char path[512];
		snprintf(path, sizeof(path), "%s/aux.data", dir);
		CHECK_INT(write_capture(path, false, 0, 0), 0);
		CHECK_INT(task_of_perf_dump(path, true), -2);
		CHECK_INT(task_of(path), -1);
		unlink(path);
	}
	rmdir(dir);

	CHECK(hwt_pd_aux_task("/nonexistent/aux.data", &tid) < 0);
	CHECK_INT(tid, -1);
	CHECK(strstr(hwt_errmsg(), "/nonexistent/aux.data") != NULL);
	return hwt_test_summary();
}
