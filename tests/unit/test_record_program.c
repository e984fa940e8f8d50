/* A backend that is its own trace source, recorded through the recorder
 * (hwtrace/recorder.h): which -e values name one (sw_branch with its u
 * modifier; no perf-event backend, no unknown name), the backend's checks
 * of its event and triggers reached through the table, and what
 * hwt_record_program_resolve makes of the options together: --tid alone
 * attaches to the thread's process (the oracle: getpid() of this process,
 * whose second thread is named), a program and an attach exclude each
 * other and one is needed, the profile's [snapshot] keys fill what the
 * options left unset (its size in whole 24-byte BTS records), bytes on
 * the command line likewise, and the flight recorder's options need each
 * other. Each refusal says whether it is about the options (a usage
 * error) or about reading the profile. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"

static char dir[] = "/tmp/hwt-record-program-XXXXXX";

static const struct hwt_backend *swb(void)
{
	return hwt_record_program_backend("sw_branch");
}

static void events_that_name_a_program_backend(void)
{
	const struct hwt_backend *be = swb();
	CHECK(be != NULL);
	CHECK_STR(be ? be->name : NULL, "sw_branch");
	CHECK(hwt_record_program_backend("sw_branch//u") == be);
	CHECK(hwt_record_program_backend("sw_branch/cyc/") == be);
	/* Backends recorded through a session, an unknown name, a name
	 * that only begins like one, nothing. */
	CHECK(hwt_backend_find("intel_pt") != NULL);
	CHECK(hwt_record_program_backend("intel_pt//u") == NULL);
	CHECK(hwt_record_program_backend("intel_bts//") == NULL);
	CHECK(hwt_record_program_backend("sw_branchx") == NULL);
	CHECK(hwt_record_program_backend("nosuch//") == NULL);
	CHECK(hwt_record_program_backend("/u") == NULL);
	CHECK(hwt_record_program_backend("") == NULL);
	CHECK(hwt_record_program_backend(NULL) == NULL);
}

static void event_and_trigger_checks(void)
{
	const struct hwt_backend *be = swb();
	CHECK_INT(hwt_record_program_check_event(be, "sw_branch"), 0);
	CHECK_INT(hwt_record_program_check_event(be, "sw_branch//u"), 0);
	CHECK_INT(hwt_record_program_check_event(be, "sw_branch/cyc/"),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e sw_branch/cyc/: sw_branch takes no terms "
		  "and only the u modifier (sw_branch, sw_branch//u): it traces "
		  "user code by stepping it, with no hardware to configure");
	CHECK_INT(hwt_record_program_check_trigger(be, "symbol:main"), 0);
	CHECK_INT(hwt_record_program_check_trigger(be, "latency:f>5ms"), 0);
	CHECK_INT(hwt_record_program_check_trigger(be, "signal:SIGSEGV"), 0);
	CHECK_INT(hwt_record_program_check_trigger(be, "when:later"),
		  HWT_ERR_CONFIG);
	/* A backend recorded through a session has none of this. */
	const struct hwt_backend *pt = hwt_backend_find("intel_pt");
	CHECK_INT(hwt_record_program_check_trigger(pt, "symbol:main"),
		  HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "backend intel_pt is not a trace source");
	struct hwt_swb_opts o = {.size = sizeof(o)};
	CHECK_INT(hwt_recorder_record_program(pt, &o, NULL), HWT_ERR_NOSUP);
	CHECK_INT(hwt_recorder_record_program(NULL, &o, NULL), HWT_ERR_NOSUP);
}

/* hwt_record_program_resolve of @o and @rq for sw_branch, the profile
 * freed. */
static int resolve(struct hwt_program_request *rq, struct hwt_swb_opts *o)
{
	struct hwt_profile *p = NULL;
	int err = hwt_record_program_resolve(swb(), rq, o, &p);
	hwt_profile_free(p);
	return err;
}

static pthread_mutex_t parked = PTHREAD_MUTEX_INITIALIZER;
static pid_t second_tid;

static void *second_thread(void *arg)
{
	(void)arg;
	second_tid = gettid();
	pthread_mutex_lock(&parked); /* held by main until the check ends */
	pthread_mutex_unlock(&parked);
	return NULL;
}

static void tid_attaches_to_its_process(void)
{
	pthread_t t;
	pthread_mutex_lock(&parked);
	if (pthread_create(&t, NULL, second_thread, NULL)) {
		pthread_mutex_unlock(&parked);
		HWT_FAIL("pthread_create");
		return;
	}
	while (!__atomic_load_n(&second_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	CHECK(second_tid != getpid());
	struct hwt_swb_opts o = {.size = sizeof(o), .attach_tid = second_tid};
	struct hwt_program_request rq = {.size = sizeof(rq)};
	CHECK_INT(resolve(&rq, &o), 0);
	CHECK_INT(o.attach_pid, getpid());
	CHECK_INT(o.attach_tid, second_tid);
	pthread_mutex_unlock(&parked);
	pthread_join(t, NULL);

	/* Above the kernel's largest pid (4194304): no such thread. */
	o = (struct hwt_swb_opts){.size = sizeof(o), .attach_tid = INT32_MAX};
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK(rq.option_error);
	CHECK_STR(hwt_errmsg(), "--tid 2147483647: no such thread");
}

static void program_or_attach(void)
{
	char *const prog[] = {"./prog", "arg", NULL};
	struct hwt_program_request rq = {.size = sizeof(rq)};
	struct hwt_swb_opts o = {.size = sizeof(o), .argv = prog};
	CHECK_INT(resolve(&rq, &o), 0);
	CHECK(o.argv == prog);

	o = (struct hwt_swb_opts){.size = sizeof(o), .argv = prog,
				  .attach_pid = getpid()};
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK(rq.option_error);
	CHECK_STR(hwt_errmsg(), "-p/--tid attach to a running program: give "
		  "no command to run (./prog)");

	o = (struct hwt_swb_opts){.size = sizeof(o), .attach_pid = getpid()};
	CHECK_INT(resolve(&rq, &o), 0);
	CHECK(o.argv == NULL);

	o = (struct hwt_swb_opts){.size = sizeof(o)};
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK(rq.option_error);
	CHECK_STR(hwt_errmsg(), "-e sw_branch needs a command to run after --, "
		  "or -p PID");
}

static const char *write_profile(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		HWT_FAIL("cannot write %s", path);
		return path;
	}
	fputs(text, f);
	fclose(f);
	return path;
}

static void profile_fills_what_is_unset(void)
{
	char *const prog[] = {"./prog", NULL};
	const char *path = write_profile("fr.ini", "[snapshot]\ntrigger = "
					 "symbol:slow\ntrigger_count = 3\n"
					 "size = 240\n");
	struct hwt_program_request rq = {.size = sizeof(rq), .profile = path};
	struct hwt_swb_opts o = {.size = sizeof(o), .argv = prog};
	struct hwt_profile *p = NULL;
	CHECK_INT(hwt_record_program_resolve(swb(), &rq, &o, &p), 0);
	CHECK_STR(o.trigger, "symbol:slow");
	CHECK(rq.snapshot);
	CHECK_U64(o.trigger_count, 3);
	CHECK_U64(o.snapshot_records, 240 / 24);
	hwt_profile_free(p);

	/* The options' own values stay. */
	rq = (struct hwt_program_request){.size = sizeof(rq), .profile = path,
					  .snapshot = true};
	o = (struct hwt_swb_opts){.size = sizeof(o), .argv = prog,
				  .trigger = "latency:f>1ms", .trigger_count = 7,
				  .snapshot_records = 100};
	CHECK_INT(resolve(&rq, &o), 0);
	CHECK_STR(o.trigger, "latency:f>1ms");
	CHECK_U64(o.trigger_count, 7);
	CHECK_U64(o.snapshot_records, 100);

	/* Bytes on the command line: their whole records, before the
	 * profile's size. */
	rq = (struct hwt_program_request){.size = sizeof(rq), .profile = path,
					  .snapshot_bytes = 48 * 1024 + 5};
	o = (struct hwt_swb_opts){.size = sizeof(o), .argv = prog};
	CHECK_INT(resolve(&rq, &o), 0);
	CHECK_U64(o.snapshot_records, 2048);
}

static void profile_refusals(void)
{
	char *const prog[] = {"./prog", NULL};
	struct hwt_program_request rq = {.size = sizeof(rq)};
	struct hwt_swb_opts o = {.size = sizeof(o), .argv = prog};

	rq.profile = write_profile("bad.ini", "[snapshot]\ntrigger = when:later\n");
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK(rq.option_error);
	CHECK_CONTAINS(hwt_errmsg(), "bad.ini");
	CHECK_CONTAINS(hwt_errmsg(), ": [snapshot] trigger: ");

	o = (struct hwt_swb_opts){.size = sizeof(o), .argv = prog};
	rq.profile = write_profile("small.ini", "[snapshot]\ntrigger = "
				   "symbol:f\nsize = 10\n");
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK(rq.option_error);
	CHECK_CONTAINS(hwt_errmsg(), ": [snapshot] size = 10: less than one "
		       "record (24 bytes)");

	/* Reading the profile is not an option's fault. */
	o = (struct hwt_swb_opts){.size = sizeof(o), .argv = prog};
	char missing[300];
	snprintf(missing, sizeof(missing), "%s/missing.ini", dir);
	rq.profile = missing;
	CHECK(resolve(&rq, &o) != 0);
	CHECK(!rq.option_error);
}

static void flight_recorder_options_need_each_other(void)
{
	char *const prog[] = {"./prog", NULL};
	struct hwt_program_request rq = {.size = sizeof(rq)};
	struct hwt_swb_opts o = {.size = sizeof(o), .argv = prog,
				 .trigger = "symbol:f"};
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK(rq.option_error);
	CHECK_STR(hwt_errmsg(), "--trigger writes windows of a flight "
		  "recorder: give --snapshot too");

	rq.snapshot = true;
	o.trigger = NULL;
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e sw_branch --snapshot writes a window only "
		  "when a trigger fires: give --trigger symbol:FUNC, "
		  "latency:FUNC>TIME or signal:SIGNALS");

	rq.snapshot = false;
	o.trigger_after_ns = 1000;
	CHECK_INT(resolve(&rq, &o), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--trigger-count and --trigger-after apply to "
		  "--trigger");

	/* Together they are fine. */
	rq.snapshot = true;
	o.trigger = "symbol:f";
	CHECK_INT(resolve(&rq, &o), 0);
	/* A request of another size is refused, not read past. */
	rq.size = sizeof(rq) - 1;
	CHECK_INT(resolve(&rq, &o), HWT_ERR_INVAL);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp %s failed\n", dir);
		return 1;
	}
	RUN(events_that_name_a_program_backend);
	RUN(event_and_trigger_checks);
	RUN(tid_attaches_to_its_process);
	RUN(program_or_attach);
	RUN(profile_fills_what_is_unset);
	RUN(profile_refusals);
	RUN(flight_recorder_options_need_each_other);
	char path[300];
	const char *names[] = {"fr.ini", "bad.ini", "small.ini"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	return hwt_test_summary();
}
