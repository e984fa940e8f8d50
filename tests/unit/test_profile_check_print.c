/* hwt_profile_check and hwt_profile_check_print, the text of `hwtrace
 * config check`, on configs/intel_pt_snapshot.ini against the
 * intel-client sysfs fixture: the PMU type and the CPUs come from the
 * fixture's files, the buffer pages from the profile's sizes (512K and
 * 4M in 4096-byte pages), the trace event's config is the one perf
 * record wrote for intel_pt// in quipper's capture of the same CPU
 * family, an address filter's file is resolved as realpath(3) resolves
 * it; a profile for a PMU the tree lacks fails with nothing to free. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/profile_check.h"

#define TREE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"
#define SNAPSHOT_INI HWT_SOURCE_DIR "/configs/intel_pt_snapshot.ini"
#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

static const char *first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	CHECK(f != NULL);
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* The config perf record gave intel_pt// in quipper's capture. */
static unsigned long long perf_pt_config(void)
{
	struct hwt_pd_reader *r = NULL;
	unsigned long long config = 0;

	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	for (size_t i = 0; r && i < hwt_pd_reader_nr_attrs(r); i++)
		if (hwt_pd_reader_attr(r, i)->attr.type == 6)
			config = hwt_pd_reader_attr(r, i)->attr.config;
	hwt_pd_reader_free(r);
	return config;
}

/* The check of @profile on the fixture, printed into a string to free. */
static char *checked_text(struct hwt_profile *profile, const char *file,
			  struct hwt_profile_check **keep)
{
	struct hwt_os *os = hwt_os_linux_new(TREE);
	struct hwt_profile_check *c = NULL;
	char *text = NULL;
	size_t size = 0;

	CHECK(os != NULL);
	if (!os)
		return NULL;
	CHECK_INT(hwt_profile_check(profile, os, &c), 0);
	FILE *out = open_memstream(&text, &size);
	if (c && out)
		CHECK_INT(hwt_profile_check_print(out, c, file, "TREE"), 0);
	if (out)
		fclose(out);
	*keep = c;
	hwt_os_free(os);
	return text;
}

static void snapshot_profile(void)
{
	struct hwt_profile *profile = NULL;
	struct hwt_profile_check *c = NULL;
	char want[512], type[32], online[64];

	CHECK_INT(hwt_profile_load(SNAPSHOT_INI, &profile), 0);
	if (!profile)
		return;
	char *text = checked_text(profile, "FILE", &c);
	if (text) {
		snprintf(want, sizeof(want), "profile: FILE\nbackend: intel_pt (PMU "
			 "type %s), mode snapshot\ntracing: CPUs %s\n",
			 first_line(TREE "/bus/event_source/devices/intel_pt/type",
				    type, sizeof(type)),
			 first_line(TREE "/devices/system/cpu/online", online,
				    sizeof(online)));
		CHECK(!strncmp(text, want, strlen(want)));
		snprintf(want, sizeof(want), "\nbuffers: data %d pages, AUX %d "
			 "pages of 4096 bytes\nsnapshot: %d bytes on signal "
			 "(SIGUSR2)\noutput: perf.data (", 512 * 1024 / 4096,
			 4 * 1024 * 1024 / 4096, 4 * 1024 * 1024);
		CHECK_CONTAINS(text, want);
		snprintf(want, sizeof(want), "\nevent 1: intel_pt (AUX trace)\n"
			 "perf_event_attr:\n  type                             %s "
			 "(intel_pt)\n", type);
		CHECK_CONTAINS(text, want);
		snprintf(want, sizeof(want), "\n  config                           "
			 "%#llx\n", perf_pt_config());
		CHECK_CONTAINS(text, want);
		CHECK_CONTAINS(text, "\nevent 2: dummy:u (sideband)\n");
		CHECK(!strstr(text, "event 3"));
		CHECK(!strstr(text, "address filters"));
		CHECK_CONTAINS(text, "\nAUX pause/resume (record --trigger "
				     "resume:/pause:): ");
		CHECK_CONTAINS(text, "\n\nOK: the profile is valid for the machine "
				     "whose sysfs tree is TREE (not checked "
				     "against this one)\n");
	}
	if (c) {
		CHECK_U64(c->plan.aux_attr.config, perf_pt_config());
		CHECK(c->have_aux_action);
		CHECK_STR(c->resolved_filter, "");
		/* A write that fails. */
		FILE *ro = fopen(SNAPSHOT_INI, "r");
		if (ro) {
			CHECK_INT(hwt_profile_check_print(ro, c, NULL, NULL),
				  HWT_ERR_IO);
			fclose(ro);
		}
	}
	hwt_profile_check_free(c);
	hwt_profile_free(profile);
	free(text);
}

static void filter_resolved(void)
{
	struct hwt_profile *profile = hwt_profile_new();
	struct hwt_profile_check *c = NULL;
	char real[PATH_MAX], want[PATH_MAX + 128];

	CHECK(profile != NULL);
	if (!profile)
		return;
	CHECK_INT(hwt_profile_set_from(profile, "session:backend", "intel_pt",
				       "test"), 0);
	CHECK_INT(hwt_profile_set_from(profile, "intel_pt:filter",
				       "filter 0x1000/0x100@/bin/true", "test"), 0);
	char *text = checked_text(profile, NULL, &c);
	CHECK(realpath("/bin/true", real) != NULL);
	snprintf(want, sizeof(want), "filter 0x1000/0x100@%s", real);
	if (c)
		CHECK_STR(c->resolved_filter, want);
	snprintf(want, sizeof(want), "\naddress filters (1): filter "
		 "0x1000/0x100@/bin/true\n  as the kernel takes them: filter "
		 "0x1000/0x100@%s\n", real);
	if (text) {
		CHECK(!strncmp(text, "backend: intel_pt (PMU type ", 28));
		CHECK_CONTAINS(text, want);
	}
	hwt_profile_check_free(c);
	hwt_profile_free(profile);
	free(text);
}

/* The fixture has no cs_etm: an error naming it, and no result. */
static void absent_pmu(void)
{
	struct hwt_profile *profile = hwt_profile_new();
	struct hwt_os *os = hwt_os_linux_new(TREE);
	struct hwt_profile_check *c = (struct hwt_profile_check *)1;

	CHECK(profile && os);
	if (profile && os) {
		CHECK_INT(hwt_profile_set_from(profile, "session:backend",
					       "cs_etm", "test"), 0);
		CHECK(hwt_profile_check(profile, os, &c) < 0);
		CHECK(c == NULL);
		CHECK_CONTAINS(hwt_errmsg(), "cs_etm");
	}
	hwt_os_free(os);
	hwt_profile_free(profile);
}

int main(void)
{
	RUN(snapshot_profile);
	RUN(filter_resolved);
	RUN(absent_pmu);
	return hwt_test_summary();
}
