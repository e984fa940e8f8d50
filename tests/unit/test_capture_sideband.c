/* The real kernel's data ring with a software `dummy` event: the sideband
 * of a known workload (/bin/sleep 0.02, which must block once) arrives complete, through a forward ring
 * with a tail and through a backward (overwrite) ring. Needs
 * perf_event_open of a dummy event (perf_event_paranoid <= 2 for one's own
 * child); fails with the kernel's reason when it is refused. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

struct seen {
	int pid;
	char exe[PATH_MAX];
	int comm_exec, mmap2_exe, exit, fork, switch_out, switch_in, cpu_wide;
	int others;
	uint64_t last_time;
	int time_backwards;
};

static int on_record(void *ctx, const struct perf_event_header *h)
{
	struct seen *s = ctx;
	const uint8_t *body = (const uint8_t *)(h + 1);
	uint32_t pid, tid;

	memcpy(&pid, body, 4);
	memcpy(&tid, body + 4, 4);
	switch (h->type) {
	case PERF_RECORD_COMM:
		if ((int)pid == s->pid && (h->misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    !strcmp((const char *)body + 8, "sleep"))
			s->comm_exec++;
		break;
	case PERF_RECORD_MMAP2:
		/* pid, tid, addr, len, pgoff, maj, min, ino, ino_gen, prot,
		 * flags, filename */
		if ((int)pid == s->pid &&
		    !strcmp((const char *)body + 8 + 8 * 3 + 4 * 2 + 8 * 2 + 4 * 2,
			    s->exe))
			s->mmap2_exe++;
		break;
	case PERF_RECORD_EXIT:
		/* pid, ppid, tid, ptid: the workload's main thread. Other
		 * threads of the forked child (a sanitizer's) end at exec. */
		memcpy(&tid, body + 8, 4);
		if ((int)pid == s->pid && tid == pid)
			s->exit++;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* CPU-wide ones name the other task: count the workload's
		 * own from the sample_id's pid (the first field). */
		if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			s->cpu_wide++;
			break;
		}
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			s->switch_out++;
		else
			s->switch_in++;
		break;
	default:
		s->others++;
	}
	return 0;
}

static void run(bool backward, bool per_cpu, bool system_wide)
{
	char *argv[] = {"/bin/sleep", "0.02", NULL};
	struct hwt_workload *w = NULL;
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_capture_stats cs;
	struct seen seen;
	int status = 0, err, guard = 0;

	memset(&seen, 0, sizeof(seen));
	if (!realpath("/bin/sleep", seen.exe))
		HWT_FAIL("realpath /bin/sleep");
	CHECK_INT(hwt_workload_new(argv, &w), 0);
	seen.pid = hwt_workload_pid(w);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sideband = true;
	o.sideband_backward = backward;
	o.pid = system_wide ? -1 : seen.pid;
	o.per_thread = !per_cpu;
	/* System-wide events are enabled at once; the workload's exec is
	 * then seen like any other task's. */
	o.enable_on_exec = !system_wide;
	/* System-wide, every task of a busy machine (a parallel test run, a
	 * sanitizer build) switches into these rings: 16 MiB per CPU holds
	 * the workload's 20 ms however late the reader is scheduled. */
	if (system_wide)
		o.data_pages = 4096;
	if (per_cpu) {
		static int cpus[256];
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		for (long i = 0; i < n && i < 256; i++)
			cpus[i] = (int)i;
		o.cpus = cpus;
		o.ncpus = (int)(n < 256 ? n : 256);
	}
	if (!system_wide)
		o.data_pages = 16;
	o.sink = (struct hwt_capture_sink){&seen, on_record, NULL};
	CHECK_INT(hwt_session_new(&o, &s), 0);
	err = hwt_session_open(s);
	if (err < 0) {
		HWT_FAIL("the kernel refused the dummy event: %s", hwt_errmsg());
		goto out;
	}
	CHECK_INT(hwt_workload_start(w), 0);
	while (hwt_workload_poll(w, &status) == 0 && guard++ < 5000) {
		if (!backward)
			CHECK(hwt_session_poll(s, 10, NULL, 0) >= 0);
		else
			usleep(2000);
	}
	CHECK_INT(status, 0);
	CHECK_INT(hwt_session_stop(s), 0);
	CHECK_INT(hwt_session_stats(s, 0, &cs), 0);
	/* One exec: one COMM with COMM_EXEC naming "sleep", the MMAP2 of its
	 * binary, one EXIT; its nanosleep switched it out and back in. */
	CHECK_INT(seen.comm_exec, 1);
	CHECK_INT(seen.mmap2_exe, 1);
	CHECK_INT(seen.exit, 1);
	if (system_wide) {
		CHECK(seen.cpu_wide >= 2);
	} else {
		CHECK(seen.switch_out >= 1);
		CHECK(seen.switch_in >= 1);
	}
	CHECK_U64(cs.lost_events, 0);
out:
	hwt_session_free(s);
	hwt_workload_free(w);
}

static void test_forward_ring_sideband_of_sleep_is_complete(void)
{
	run(false, false, false);
}

static void test_backward_ring_sideband_of_sleep_is_complete(void)
{
	run(true, false, false);
}

/* One ring per CPU, each event following the workload (and its children)
 * wherever it runs. */
static void test_per_cpu_rings_sideband_of_sleep_is_complete(void)
{
	run(false, true, false);
}

/* Every task on every CPU (as root or with perf_event_paranoid <= 0):
 * the workload's records are among them, and switches are CPU-wide. */
static void test_system_wide_sideband_holds_the_workload(void)
{
	run(false, true, true);
}

static void test_missing_program_is_reported(void)
{
	char *argv[] = {"/nonexistent/hwtrace-test-prog", NULL};
	struct hwt_workload *w = NULL;

	CHECK_INT(hwt_workload_new(argv, &w), 0);
	CHECK_INT(hwt_workload_start(w), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "/nonexistent/hwtrace-test-prog");
	CHECK_CONTAINS(hwt_errmsg(), "No such file");
	hwt_workload_free(w);
}

int main(void)
{
	RUN(test_forward_ring_sideband_of_sleep_is_complete);
	RUN(test_backward_ring_sideband_of_sleep_is_complete);
	RUN(test_per_cpu_rings_sideband_of_sleep_is_complete);
	RUN(test_system_wide_sideband_holds_the_workload);
	RUN(test_missing_program_is_reported);
	return hwt_test_summary();
}
