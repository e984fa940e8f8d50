/* A program recording's closing lines (hwt_record_print_program_stats,
 * hwtrace/recorder.h) into a memory stream. A flight recorder's: the
 * trigger's counts for each kind (symbol: entries, latency: calls,
 * signal: fired or not), the no-window line (and its stop request
 * variant), how the program ended as the kernel's wait status of a real
 * child says (an exit status, a signal), a detach for -p, the trigger
 * escaped for a terminal. A plain recording's: a real sw_branch
 * recording of known_path 5 from kp_run to kp_done, whose 18 taken
 * branches are known from the program (5 calls, 3 odd, 5 returns, 4
 * loops, done): the summary says 18 branches, stopped at --stop, and
 * the ring line the trace bytes that perf 6.1's `perf report -D` finds
 * in the file's AUXTRACE records. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "../programs/elf_syms.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"

/* The printer's lines for @o and @st (freed by the caller). */
static char *printed(const struct hwt_swb_opts *o, const struct hwt_swb_stats *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	hwt_record_print_program_stats(f, "P", o, st);
	fclose(f);
	return text;
}

/* The wait status of a child that ends with _exit(@code) or, @code < 0,
 * by the signal -@code. */
static int child_status(int code)
{
	int status = 0;
	pid_t pid = fork();
	if (pid == 0) {
		if (code < 0) {
			signal(-code, SIG_DFL);
			raise(-code);
		}
		_exit(code < 0 ? 99 : code);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	return status;
}

static void trigger_lines(void)
{
	struct hwt_swb_opts o = {.size = sizeof(o), .trigger = "symbol:work"};
	struct hwt_swb_stats st;
	char *t;

	memset(&st, 0, sizeof(st));
	st.trigger_entries = 7;
	st.trigger_calls = 5;
	st.trigger_fired = 2;
	st.exit_status = child_status(3);
	CHECK(WIFEXITED(st.exit_status));
	t = printed(&o, &st);
	CHECK_STR(t, "P: sw_branch: trigger symbol:work: 7 entries seen, 2 fired\n"
		  "P: the program exited with status 3\n");
	free(t);

	o.trigger = "latency:work>5ms";
	st.exit_status = child_status(-SIGUSR1);
	CHECK(WIFSIGNALED(st.exit_status));
	char want[256];
	snprintf(want, sizeof(want), "P: sw_branch: trigger latency:work>5ms: "
		 "5 calls seen, 2 fired\nP: the program was killed by signal "
		 "%d (%s)\n", SIGUSR1, strsignal(SIGUSR1));
	t = printed(&o, &st);
	CHECK_STR(t, want);
	free(t);

	/* Not fired: the no-window line, and a detach instead of the end. */
	o.trigger = "signal:SIGSEGV";
	o.attach_pid = 4242;
	st.trigger_fired = 0;
	st.interrupted = true;
	t = printed(&o, &st);
	CHECK_STR(t, "P: sw_branch: trigger signal:SIGSEGV: did not fire\n"
		  "P: no window written (the trigger did not fire before the "
		  "stop request)\n"
		  "P: sw_branch: detached from process 4242: it runs on\n");
	free(t);

	/* An escape in the trigger is no escape on the terminal. */
	o.trigger = "symbol:a\033[2Jb";
	o.attach_pid = 0;
	st.interrupted = false;
	st.exit_status = child_status(0);
	t = printed(&o, &st);
	CHECK_STR(t, "P: sw_branch: trigger symbol:a\\x1b[2Jb: 7 entries seen, "
		  "0 fired\nP: no window written (the trigger did not fire)\n"
		  "P: the program exited with status 0\n");
	free(t);
}

/* The AUXTRACE records' bytes of @path as perf report -D prints them;
 * -1 when perf is not installed or fails. */
static long long perf_auxtrace_bytes(const char *path)
{
	char cmd[8192], line[1024];
	long long sum = 0;
	if (system("command -v perf >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "perf report -D -i '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		const char *a = strstr(line, "PERF_RECORD_AUXTRACE size: ");
		if (a)
			sum += strtoll(a + 27, NULL, 0);
	}
	return pclose(p) == 0 ? sum : -1;
}

static void recording_lines(void)
{
	char dir[] = "/tmp/hwt-program-print-XXXXXX", out[4096];
	if (!mkdtemp(dir)) {
		perror(dir);
		CHECK(false);
		return;
	}
	snprintf(out, sizeof(out), "%s/kp.data", dir);
	char *argv[] = {(char *)test_program("known_path"), "5", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "kp_run",
		.stop = "kp_done", .output = out, .quiet_child = true,
	};
	struct hwt_swb_stats st;
	int err = hwt_swb_record(&o, &st);
	CHECK_INT(err, 0);
	if (err) {
		fprintf(stderr, "%s\n", hwt_errmsg());
	} else {
		/* The positive control: the program's own count. */
		CHECK_U64(st.branches, 18);
		CHECK_U64(st.nrings, 1);
		char *t = printed(&o, &st);
		char want[128];
		CHECK_CONTAINS(t, "P: per thread:\n");
		long long bytes = perf_auxtrace_bytes(out);
		if (bytes >= 0) {
			/* Whole BTS records: the positive control of the parse. */
			CHECK(bytes > 0 && bytes % HWT_BTS_RECORD_SIZE == 0);
			snprintf(want, sizeof(want), "  thread: %lld bytes captured "
				 "in ", bytes);
			CHECK_CONTAINS(t, want);
		} else {
			HWT_SKIP_PART("perf (Debian: linux-perf) does not read %s", out);
		}
		CHECK_CONTAINS(t, " instructions, 18 branches in ");
		CHECK_CONTAINS(t, "instructions/s), stopped at --stop; sideband from ");
		CHECK(!strstr(t, "detached"));
		free(t);
	}
	unlink(out);
	rmdir(dir);
}

int main(void)
{
	RUN(trigger_lines);
	RUN(recording_lines);
	return hwt_test_summary();
}
