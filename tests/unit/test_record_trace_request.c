/* hwt_recorder_record_trace (hwtrace/recorder.h): the replay of the
 * quipper Intel PT capture (CPUs 0 and 3) from a request to a complete
 * file. The oracle: perf 6.1's own `perf report -D` of the original
 * capture (the test data's .perf-report-D.txt), whose AUXTRACE records
 * give each CPU's trace bytes; the new file, read by perf report -D,
 * holds the same bytes on the same CPUs, and the closing lines on the
 * request's report count them. The positive control: the oracle's text
 * parses into two CPUs with trace. The stages reach the callback in
 * their order, the recorder only between RECORDER and DONE. Refusals: a
 * request without size or output, and a capture that does not exist:
 * no file is left, a file that was at the output stays as it was, and
 * the message names the capture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define NCPU 8

static char dir[] = "/tmp/hwt-record-trace-XXXXXX";
static char out[4096];

/* Each CPU's AUXTRACE bytes in perf report -D's text from @f. */
static int auxtrace_bytes(FILE *f, unsigned long long bytes[NCPU])
{
	char line[1024];
	int records = 0;

	memset(bytes, 0, NCPU * sizeof(bytes[0]));
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "PERF_RECORD_AUXTRACE size: ");
		const char *c = strstr(line, " cpu: ");
		if (!p || !c)
			continue;
		unsigned long long size = strtoull(p + 27, NULL, 0);
		long cpu = strtol(c + 6, NULL, 10);
		if (cpu >= 0 && cpu < NCPU) {
			bytes[cpu] += size;
			records++;
		}
	}
	return records;
}

struct stages {
	int seen[4];
	int order[8];
	int n;
	bool recorder_outside; /* a recorder given at OPENING or DONE */
};

static void on_stage(void *arg, enum hwt_trace_stage st, struct hwt_recorder *r)
{
	struct stages *s = arg;
	s->seen[st]++;
	if (s->n < 8)
		s->order[s->n++] = (int)st;
	if ((st == HWT_TRACE_STAGE_OPENING || st == HWT_TRACE_STAGE_DONE) && r)
		s->recorder_outside = true;
	if (st == HWT_TRACE_STAGE_RECORDER && !r)
		s->recorder_outside = true;
}

static struct hwt_trace_request request(void)
{
	struct hwt_trace_request rq;
	memset(&rq, 0, sizeof(rq));
	rq.size = sizeof(rq);
	rq.trace.size = sizeof(rq.trace);
	rq.output = out;
	rq.emulate = PT;
	rq.emulate_lossless = true;
	rq.pid = -1;
	rq.prefix = "test";
	return rq;
}

static void replay_holds_the_capture_bytes(void)
{
	unsigned long long want[NCPU], got[NCPU];
	FILE *f = fopen(PT ".perf-report-D.txt", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	int nwant = auxtrace_bytes(f, want);
	fclose(f);
	/* The positive control: the oracle has trace on CPUs 0 and 3. */
	CHECK_INT(nwant, 2);
	CHECK(want[0] > 0 && want[3] > 0);

	char *report = NULL;
	size_t report_len = 0;
	FILE *rep = open_memstream(&report, &report_len);
	struct stages st;
	memset(&st, 0, sizeof(st));
	struct hwt_trace_request rq = request();
	rq.report = rep;
	rq.on_stage = on_stage;
	rq.on_stage_arg = &st;
	struct hwt_trace_summary sum;
	int err = hwt_recorder_record_trace(&rq, &sum);
	fclose(rep);
	CHECK_INT(err, 0);
	if (err)
		fprintf(stderr, "%s\n", hwt_errmsg());
	CHECK(sum.recorded);
	CHECK(!sum.command_running);
	CHECK_INT(st.n, 4);
	for (int i = 0; i < 4; i++) {
		CHECK_INT(st.seen[i], 1);
		CHECK_INT(st.order[i], i);
	}
	CHECK(!st.recorder_outside);

	char line[128];
	CHECK_CONTAINS(report, "test: per CPU:\n");
	for (int cpu = 0; cpu < NCPU; cpu++) {
		if (!want[cpu])
			continue;
		snprintf(line, sizeof(line), "  cpu %d: %llu bytes captured", cpu,
			 want[cpu]);
		CHECK_CONTAINS(report, line);
	}
	free(report);

	char cmd[8192];
	if (system("command -v perf >/dev/null 2>&1") != 0) {
		HWT_SKIP_PART("perf (Debian: linux-perf) is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "perf report -D -i '%s' 2>/dev/null", out);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	int ngot = auxtrace_bytes(p, got);
	CHECK_INT(pclose(p), 0);
	CHECK(ngot >= 2);
	for (int cpu = 0; cpu < NCPU; cpu++)
		CHECK_U64(got[cpu], want[cpu]);
}

static void refusals_leave_the_output(void)
{
	struct hwt_trace_request rq = request();
	struct hwt_trace_summary sum;

	unlink(out);
	rq.size = 0;
	CHECK_INT(hwt_recorder_record_trace(&rq, &sum), HWT_ERR_INVAL);
	rq = request();
	rq.output = NULL;
	CHECK_INT(hwt_recorder_record_trace(&rq, &sum), HWT_ERR_INVAL);
	rq = request();
	rq.trace.size = 0;
	CHECK_INT(hwt_recorder_record_trace(&rq, &sum), HWT_ERR_INVAL);
	CHECK_INT(hwt_recorder_record_trace(NULL, NULL), HWT_ERR_INVAL);
	CHECK(access(out, F_OK) != 0);

	/* A file at the output stays as it was. */
	FILE *f = fopen(out, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("kept\n", f);
	fclose(f);
	rq = request();
	rq.emulate = HWT_TESTDATA "/nonexistent.data";
	int err = hwt_recorder_record_trace(&rq, &sum);
	CHECK(err < 0);
	CHECK_CONTAINS(hwt_errmsg(), "nonexistent.data");
	CHECK(!sum.recorded);
	char buf[16] = "";
	f = fopen(out, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
	}
	CHECK_STR(buf, "kept\n");
	unlink(out);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return EXIT_FAILURE;
	}
	snprintf(out, sizeof(out), "%s/replay.data", dir);
	RUN(replay_holds_the_capture_bytes);
	RUN(refusals_leave_the_output);
	unlink(out);
	rmdir(dir);
	return hwt_test_summary();
}
