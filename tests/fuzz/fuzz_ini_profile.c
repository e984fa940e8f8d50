/* libFuzzer target for INI profiles (hwtrace record -c, config check):
 * any bytes as a profile file, loaded and built into an event plan
 * against the PMUs of the first byte's fixture machine (Intel PT and BTS,
 * Juno's ETMv4 with ETR/ETF sinks, Armv9 ETE with TRBE), so every key's
 * parser and check runs on what a user could write. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"
static const char *const machines[] = {"intel-client", "juno",
				       "armv9-ete-trbe", "no-trace"};
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))

static struct hwt_os *os[NMACHINES];
static struct hwt_pmu_list *pmus[NMACHINES];
static char path[64];
static int fd = -1;

static void setup(void)
{
	fd = memfd_create("fuzz-ini", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (size_t i = 0; i < NMACHINES; i++) {
		char dir[512];
		snprintf(dir, sizeof(dir), FIXTURES "%s", machines[i]);
		os[i] = hwt_os_linux_new(dir);
		if (!os[i] || hwt_pmu_scan(os[i], &pmus[i]) < 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwt_profile *p = NULL;
	struct hwt_event_plan plan;

	if (fd < 0)
		setup();
	if (size < 1)
		return 0;
	size_t m = data[0] % NMACHINES;
	if (ftruncate(fd, 0) ||
	    pwrite(fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	int err = hwt_profile_load(path, &p);
	if (err < 0) {
		if (!hwt_errmsg()[0])
			abort(); /* every refusal says why */
		return 0;
	}
	err = hwt_profile_build_attrs(p, os[m], pmus[m], &plan);
	if (err < 0 && !hwt_errmsg()[0])
		abort();
	if (!err) {
		char buf[4096];
		hwt_attr_format(&plan.aux_attr, NULL, buf, sizeof(buf));
		hwt_event_plan_release(&plan);
	}
	hwt_profile_free(p);
	return 0;
}
