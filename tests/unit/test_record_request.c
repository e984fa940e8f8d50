/* What record's trace options mean (hwt_record_profile_load): the profile
 * keys docs/config.md gives them (-e's backend and terms, --sink and
 * --filter as the backend's own keys, -S as session:mode = snapshot and
 * its size as snapshot:size, -C as session:cpus, --per-thread as
 * session:per_thread), each named by its option as the key's origin, and
 * a profile file's keys kept where no option overrides them; an option
 * that does not apply fails naming it. Also the cmdline feature
 * (hwt_pd_writer_set_cmdline) as perf 6.1 reads it back: perf report
 * --header-only prints "# cmdline : " and the words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/recorder.h"

#define PERF "/usr/bin/perf"

static char dir[] = "/tmp/hwt-record-request-XXXXXX";

static void options_set_their_keys(void)
{
	struct hwt_record_request rq = {
		.size = sizeof(rq), .event = "cs_etm//", .sink = "tmc_etr0",
		.snapshot = true, .snapshot_size = 65536, .cpus = "0-1",
		.per_thread = true,
	};
	struct hwt_profile *p = NULL;
	int err = hwt_record_profile_load(&rq, &p);
	if (err)
		HWT_FAIL("hwt_record_profile_load: %s", hwt_errmsg());
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_STR(hwt_profile_get(p, "session:backend"), "cs_etm");
	CHECK_STR(hwt_profile_get(p, "cs_etm:sink"), "tmc_etr0");
	CHECK_STR(hwt_profile_origin(p, "cs_etm:sink"), "--sink");
	CHECK_STR(hwt_profile_get(p, "session:mode"), "snapshot");
	CHECK_STR(hwt_profile_origin(p, "session:mode"), "-S");
	CHECK_STR(hwt_profile_get(p, "snapshot:size"), "65536");
	CHECK_STR(hwt_profile_get(p, "session:cpus"), "0-1");
	CHECK_STR(hwt_profile_origin(p, "session:cpus"), "-C");
	CHECK_STR(hwt_profile_get(p, "session:per_thread"), "1");
	CHECK_STR(hwt_profile_origin(p, "session:per_thread"), "--per-thread");
	hwt_profile_free(p);
}

/* --sink and --filter without a backend: the backends they are for. */
static void backend_keys_without_a_backend(void)
{
	struct hwt_record_request rq = {.size = sizeof(rq), .sink = "tmc_etf0",
					.filter = "start main"};
	struct hwt_profile *p = NULL;
	CHECK_INT(hwt_record_profile_load(&rq, &p), 0);
	CHECK_STR(hwt_profile_get(p, "cs_etm:sink"), "tmc_etf0");
	CHECK_STR(hwt_profile_get(p, "intel_pt:filter"), "start main");
	CHECK_STR(hwt_profile_origin(p, "intel_pt:filter"), "--filter");
	/* -S without a size leaves snapshot:size to the profile. */
	CHECK(hwt_profile_get(p, "snapshot:size") == NULL);
	hwt_profile_free(p);
}

static void file_keys_stay_under_options(void)
{
	char path[128];
	FILE *f;
	snprintf(path, sizeof(path), "%s/pt.ini", dir);
	if (!(f = fopen(path, "w"))) {
		HWT_FAIL("%s: cannot write", path);
		return;
	}
	fputs("[session]\nbackend = intel_pt\ncpus = 3\n[intel_pt]\n"
	      "filter = stop main\n", f);
	fclose(f);
	struct hwt_record_request rq = {.size = sizeof(rq), .profile = path,
					.filter = "start main"};
	struct hwt_profile *p = NULL;
	CHECK_INT(hwt_record_profile_load(&rq, &p), 0);
	CHECK_STR(hwt_profile_get(p, "session:backend"), "intel_pt");
	CHECK_STR(hwt_profile_get(p, "session:cpus"), "3");
	CHECK_STR(hwt_profile_get(p, "intel_pt:filter"), "start main");
	CHECK_STR(hwt_profile_origin(p, "intel_pt:filter"), "--filter");
	hwt_profile_free(p);
	unlink(path);

	/* A profile that does not exist: no profile, the error names it. */
	p = (struct hwt_profile *)1;
	CHECK(hwt_record_profile_load(&rq, &p) < 0);
	CHECK(p == NULL);
	CHECK_CONTAINS(hwt_errmsg(), path);
}

static void bad_event_is_named(void)
{
	struct hwt_record_request rq = {.size = sizeof(rq), .event = "no_such_pmu"};
	struct hwt_profile *p = NULL;
	CHECK(hwt_record_profile_load(&rq, &p) < 0);
	CHECK_CONTAINS(hwt_errmsg(), "no_such_pmu");
	hwt_profile_free(p);
}

static void cmdline_reads_in_perf(void)
{
	char path[128], cmd[256], line[512] = "";
	char *args[] = {"record", "-e", "intel_pt//", "--", "echo", "two words"};
	struct hwt_pd_writer *w;
	FILE *out;
	if (access(PERF, X_OK) != 0) {
		HWT_FAIL("%s is missing: install Debian's linux-perf", PERF);
		return;
	}
	snprintf(path, sizeof(path), "%s/cmd.data", dir);
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	CHECK_INT(hwt_pd_writer_set_cmdline(w, "hwtrace", 6, args), 0);
	CHECK_INT(hwt_pd_writer_finished_round(w), 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);
	snprintf(cmd, sizeof(cmd), PERF " report --header-only -i %s 2>/dev/null", path);
	if ((out = popen(cmd, "r"))) {
		char buf[512];
		while (fgets(buf, sizeof(buf), out))
			if (!strncmp(buf, "# cmdline : ", 12))
				snprintf(line, sizeof(line), "%s", buf);
		pclose(out);
	}
	CHECK_STR(line, "# cmdline : hwtrace record -e intel_pt// -- echo two "
			"words \n");
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp %s failed\n", dir);
		return 1;
	}
	RUN(options_set_their_keys);
	RUN(backend_keys_without_a_backend);
	RUN(file_keys_stay_under_options);
	RUN(bad_event_is_named);
	RUN(cmdline_reads_in_perf);
	rmdir(dir);
	return hwt_test_summary();
}
