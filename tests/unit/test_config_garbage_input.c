/* Garbage event strings, overrides and INI files give defined errors, never
 * a crash (run it under ASan/UBSan). A fixed-seed generator keeps runs
 * repeatable. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)state;
}

/* Mostly pieces that mean something, so the parser goes deep. */
static void random_text(char *buf, size_t size)
{
	static const char *const pieces[] = {
		"intel_pt", "cs_etm", "intel_bts", "/", "//", ",", "=", "@",
		"tmc_etr0", "cyc", "psb_period", "mtc_period", "0x", "99999999999999999999",
		"-1", "u", "k", "uk", ":", " ", "[", "]", "session", "mode",
		"snapshot", "sample", "\n", ";", "#", "\"", "aux_size", "3M", "4K",
		"filter", "start", "@ /bin/ls", "cpus", "0-3", "all", "per_thread",
		"yes", "retstack", "timestamp", "sink", "\xff", "",
	};
	size_t n = next() % 12, pos = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[next() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t len = strlen(p);

		if (pos + len + 1 >= size)
			break;
		memcpy(buf + pos, p, len + 1);
		pos += len;
	}
}

static int known_error(int ret)
{
	return ret == 0 || ret == HWT_ERR_CONFIG || ret == HWT_ERR_NOENT ||
	       ret == HWT_ERR_NOSUP || ret == HWT_ERR_FORMAT;
}

static void garbage_events_and_overrides(void)
{
	static const char *const fixtures[] = {
		FIXTURES "intel-client", FIXTURES "juno", FIXTURES "armv9-ete-trbe",
		FIXTURES "no-trace",
	};
	int unknown = 0;

	for (size_t f = 0; f < 4; f++) {
		struct hwt_os *os = hwt_os_linux_new(fixtures[f]);
		struct hwt_pmu_list *pmus = NULL;

		CHECK_INT(hwt_pmu_scan(os, &pmus), 0);
		for (int i = 0; i < 1500; i++) {
			struct hwt_profile *p = hwt_profile_new();
			struct hwt_event_plan plan;
			char ev[256], key[128], val[128];
			int ret;

			random_text(ev, sizeof(ev));
			ret = hwt_profile_parse_event(p, ev);
			if (next() % 2) {
				random_text(key, sizeof(key));
				random_text(val, sizeof(val));
				(void)hwt_profile_set(p, key, val);
			}
			if (ret == 0) {
				ret = hwt_profile_build_attrs(p, os, pmus, &plan);
				if (ret == 0)
					hwt_event_plan_release(&plan);
			}
			if (!known_error(ret)) {
				fprintf(stderr, "unexpected %d for \"%s\": %s\n", ret,
					ev, hwt_errmsg());
				unknown++;
			}
			hwt_profile_free(p);
		}
		hwt_pmu_list_free(pmus);
		hwt_os_free(os);
	}
	CHECK_INT(unknown, 0);
}

static void garbage_ini_files(void)
{
	char dir[] = "/tmp/hwt_garbage_XXXXXX", path[256];
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "intel-client");
	struct hwt_pmu_list *pmus = NULL;
	int unknown = 0;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(hwt_pmu_scan(os, &pmus), 0);
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	for (int i = 0; i < 400; i++) {
		struct hwt_profile *p = NULL;
		struct hwt_event_plan plan;
		FILE *f = fopen(path, "w");
		char line[256];
		int ret;

		if (!f)
			break;
		for (int l = next() % 10; l >= 0; l--) {
			random_text(line, sizeof(line));
			fprintf(f, "%s\n", line);
		}
		fclose(f);
		ret = hwt_profile_load(path, &p);
		if (ret == 0) {
			ret = hwt_profile_build_attrs(p, os, pmus, &plan);
			if (ret == 0)
				hwt_event_plan_release(&plan);
		}
		if (!known_error(ret))
			unknown++;
		hwt_profile_free(p);
	}
	unlink(path);
	rmdir(dir);
	hwt_pmu_list_free(pmus);
	hwt_os_free(os);
	CHECK_INT(unknown, 0);
}

int main(void)
{
	RUN(garbage_events_and_overrides);
	RUN(garbage_ini_files);
	return hwt_test_summary();
}
