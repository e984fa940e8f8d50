/* What a recording tells its user (hwtrace/record_console.h), each
 * printer into a memory stream: a trace's ending lines for a success, a
 * full disk (with and without the file that was there, with
 * --keep-partial) and another error, and a command still running; a
 * branch sampling's on the emulator and on this machine; a program
 * recording's, which are hwt_record_print_program_stats's lines and the
 * output's unless a flight recorder wrote windows. The live lines of a
 * program recording through the callbacks hwt_program_console_attach
 * sets: the progress line and its rate, its clearing, the wait for the
 * program and its kill, a window's path escaped for a terminal. The stop
 * signals: each of SIGINT, SIGHUP and SIGTERM counts one request, and a
 * blocked read() returns EINTR on one instead of being restarted. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"
#include "hwtrace/swbranch.h"

struct memout {
	char *text;
	size_t len;
	FILE *f;
};

static void mem_open(struct memout *m)
{
	m->text = NULL;
	m->len = 0;
	m->f = open_memstream(&m->text, &m->len);
}

/* The text written since mem_open (the caller frees it). */
static char *mem_close(struct memout *m)
{
	fclose(m->f);
	return m->text;
}

static char *trace_end(const struct hwt_trace_request *rq, int err,
		       bool existed, const struct hwt_trace_summary *sum)
{
	struct memout m;
	mem_open(&m);
	hwt_record_print_trace_end(m.f, "P", rq, err, existed, sum);
	return mem_close(&m);
}

static void trace_lines(void)
{
	struct hwt_trace_request rq = {.size = sizeof(rq), .output = "o.data"};
	struct hwt_trace_summary sum = {.recorded = true};
	char *t;

	t = trace_end(&rq, 0, true, &sum);
	CHECK_STR(t, "P: wrote o.data\n");
	free(t);

	const char *hint = "P: --keep-partial replaces o.data with the part "
			   "recorded (marked as cut short) when the disk fills up\n";
	t = trace_end(&rq, HWT_ERR_NOSPC, true, &sum);
	CHECK_STR(t, hint);
	free(t);
	/* No file was there: the part recorded is the file, no hint. */
	t = trace_end(&rq, HWT_ERR_NOSPC, false, &sum);
	CHECK_STR(t, "");
	free(t);
	/* Nothing recorded: nothing to keep. */
	sum.recorded = false;
	t = trace_end(&rq, HWT_ERR_NOSPC, true, &sum);
	CHECK_STR(t, "");
	free(t);
	sum.recorded = true;
	rq.keep_partial = true;
	t = trace_end(&rq, HWT_ERR_NOSPC, true, &sum);
	CHECK_STR(t, "");
	free(t);
	rq.keep_partial = false;
	t = trace_end(&rq, HWT_ERR_IO, true, &sum);
	CHECK_STR(t, "");
	free(t);

	CHECK_INT(HWT_TERM_GRACE_MS, 2000);
	sum.command_running = true;
	t = trace_end(&rq, 0, false, &sum);
	CHECK_STR(t, "P: wrote o.data\nP: the command is still running: it "
		  "gets SIGTERM, and SIGKILL if it has not ended 2000 ms later\n");
	free(t);
	t = trace_end(&rq, HWT_ERR_IO, false, &sum);
	CHECK_STR(t, "P: the command is still running: it gets SIGTERM, and "
		  "SIGKILL if it has not ended 2000 ms later\n");
	free(t);
}

static void branch_lines(void)
{
	struct hwt_branch_request rq = {.size = sizeof(rq), .output = "b.data"};
	struct hwt_branch_summary sum;
	struct memout m;
	char *t;

	memset(&sum, 0, sizeof(sum));
	mem_open(&m);
	hwt_record_print_branch_end(m.f, "P", &rq, &sum);
	t = mem_close(&m);
	CHECK_STR(t, "P: wrote b.data\n");
	free(t);

	sum.emulated = true;
	sum.samples = 12;
	sum.lost = 3;
	sum.hw.kind = HWT_BRANCH_HW_LBR;
	sum.hw.depth = 32;
	strcpy(sum.hw.pmu, "cpu");
	mem_open(&m);
	hwt_record_print_branch_end(m.f, "P", &rq, &sum);
	t = mem_close(&m);
	/* The kind's name as brstack.h documents it. */
	CHECK_STR(hwt_branch_hw_name(HWT_BRANCH_HW_LBR), "LBR");
	CHECK_STR(t, "P: 12 samples of cpu's 32-record branch stacks (LBR), "
		  "3 records lost\nP: wrote b.data\n");
	free(t);
}

/* hwt_record_print_program_end's text and, separately, that of
 * hwt_record_print_program_stats alone. */
static void program_texts(const struct hwt_swb_opts *o,
			  const struct hwt_swb_stats *st, char **end,
			  char **stats)
{
	struct memout m;
	mem_open(&m);
	hwt_record_print_program_end(m.f, "P", o, st);
	*end = mem_close(&m);
	mem_open(&m);
	hwt_record_print_program_stats(m.f, "P", o, st);
	*stats = mem_close(&m);
}

static void program_lines(void)
{
	struct hwt_swb_opts o = {.size = sizeof(o), .output = "s.data",
				 .trigger = "symbol:work"};
	struct hwt_swb_stats st;
	char *end, *stats;

	memset(&st, 0, sizeof(st));
	st.trigger_entries = 4;
	program_texts(&o, &st, &end, &stats);
	CHECK_CONTAINS(stats, "P: sw_branch: trigger symbol:work: 4 entries seen");
	CHECK_STR(end, stats);
	free(end);
	free(stats);

	o.trigger = NULL;
	st.insns = 100;
	st.branches = 9;
	program_texts(&o, &st, &end, &stats);
	CHECK_CONTAINS(stats, " 100 instructions, 9 branches in ");
	char want[4096];
	snprintf(want, sizeof(want), "%sP: wrote s.data\n", stats);
	CHECK_STR(end, want);
	free(end);
	free(stats);
}

static void console_lines(void)
{
	struct memout m;
	mem_open(&m);
	struct hwt_program_console c = {.size = sizeof(c), .out = m.f,
					.prefix = "P"};
	struct hwt_swb_opts o = {.size = sizeof(o)};

	CHECK_INT(hwt_program_console_attach(&c, &o), 0);
	CHECK(o.progress == NULL);
	CHECK(o.waiting != NULL && o.window_written != NULL);
	CHECK(o.progress_arg == &c);
	c.progress = true;
	CHECK_INT(hwt_program_console_attach(&c, &o), 0);
	CHECK(o.progress != NULL);
	if (!o.progress || !o.waiting || !o.window_written) {
		free(mem_close(&m));
		return;
	}
	struct hwt_swb_progress p = {.insns = 1000, .branches = 10,
				     .elapsed_ns = 2000000000};
	o.progress(o.progress_arg, &p);
	p.elapsed_ns = 0; /* no time yet: no rate */
	o.progress(o.progress_arg, &p);
	p.done = true;
	o.progress(o.progress_arg, &p);
	o.waiting(o.progress_arg, 42, false);
	o.waiting(o.progress_arg, 42, true);
	o.window_written(o.progress_arg, "s.data.1", 7);
	o.window_written(o.progress_arg, "a\033[31mb", 8);
	char *t = mem_close(&m);
	CHECK_STR(t,
		  "\r\033[KP: sw_branch: 1000 instructions stepped, 10 branches, "
		  "500 instructions/s"
		  "\r\033[KP: sw_branch: 1000 instructions stepped, 10 branches, "
		  "0 instructions/s"
		  "\r\033[K"
		  "P: sw_branch: waiting for program 42 to end on SIGTERM; it gets "
		  "SIGKILL after 2000 ms (or at once on a second stop request)\n"
		  "P: sw_branch: program 42 did not end within 2000 ms of SIGTERM: "
		  "killed with SIGKILL\n"
		  "P: sw_branch: trigger fired in thread 7: wrote s.data.1\n"
		  "P: sw_branch: trigger fired in thread 8: wrote a\\x1b[31mb\n");
	free(t);

	struct hwt_program_console bad = {.size = 0, .out = stderr};
	CHECK_INT(hwt_program_console_attach(&bad, &o), HWT_ERR_INVAL);
	CHECK_INT(hwt_program_console_attach(NULL, &o), HWT_ERR_INVAL);
	bad.size = sizeof(bad);
	bad.out = NULL;
	CHECK_INT(hwt_program_console_attach(&bad, &o), HWT_ERR_INVAL);
}

static void stop_signals(void)
{
	struct hwt_swb_opts o = {.size = sizeof(o)};

	CHECK_INT(hwt_record_count_stop_signals(NULL), HWT_ERR_INVAL);
	CHECK_INT(hwt_record_count_stop_signals(&o), 0);
	CHECK(o.stop_requests != NULL);
	if (!o.stop_requests)
		return;
	sig_atomic_t before = *o.stop_requests;
	raise(SIGINT);
	CHECK_INT(*o.stop_requests, before + 1);
	raise(SIGHUP);
	raise(SIGTERM);
	CHECK_INT(*o.stop_requests, before + 3);

	/* A request interrupts a wait: the read fails with EINTR instead of
	 * being restarted until the child exits (which would read EOF). */
	int fds[2];
	CHECK_INT(pipe(fds), 0);
	pid_t child = fork();
	if (child == 0) {
		close(fds[0]);
		usleep(100000);
		kill(getppid(), SIGINT);
		sleep(5);
		_exit(0);
	}
	close(fds[1]);
	char byte;
	errno = 0;
	ssize_t n = read(fds[0], &byte, 1);
	int saved = errno;
	CHECK_INT((int)n, -1);
	CHECK_INT(saved, EINTR);
	CHECK_INT(*o.stop_requests, before + 4);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(fds[0]);
}

int main(void)
{
	RUN(trace_lines);
	RUN(branch_lines);
	RUN(program_lines);
	RUN(console_lines);
	RUN(stop_signals);
	return hwt_test_summary();
}
