/* libFuzzer target for branch-stack sampling's configuration (hwtrace
 * record -b -j FILTERS, a profile's [branch]): any bytes, the first
 * choosing the machine (Intel LBR, AMD BRS, Arm BRBE, none) and the
 * second whether the rest is a -j argument or a profile file. A filter
 * is parsed and, when it parses, built into the sampling event's
 * attribute against the machine's branch records; a profile is loaded
 * and its [branch] section read and built the same way. Every refusal
 * must say why; an attribute built must ask for a branch stack. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "hwtrace/brstack.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"
static const char *const machines[] = {"intel-lbr8", "amd-brs", "arm-brbe",
				       "no-trace"};
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))

static struct hwt_branch_hw hw[NMACHINES];
static char path[64];
static int fd = -1;

static void setup(void)
{
	fd = memfd_create("fuzz-branch", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (size_t i = 0; i < NMACHINES; i++) {
		char dir[512];
		snprintf(dir, sizeof(dir), FIXTURES "%s", machines[i]);
		struct hwt_os *os = hwt_os_linux_new(dir);
		if (!os)
			abort();
		int err = hwt_branch_hw_probe(os, &hw[i]);
		if (err < 0 && err != HWT_ERR_NOENT)
			abort();
		hwt_os_free(os);
	}
}

/* Builds the event; a refusal must say why, an event must sample. */
static void build(struct hwt_branch_sampling *bs, size_t m)
{
	struct perf_event_attr a;
	bs->config = PERF_COUNT_HW_CPU_CYCLES;
	hwt_error_clear();
	int err = hwt_branch_attr_build(bs, &hw[m], "cycles", &a);
	if (err < 0 && !hwt_errmsg()[0])
		abort();
	if (!err && (!(a.sample_type & PERF_SAMPLE_BRANCH_STACK) ||
		     !a.branch_sample_type || (!a.freq && !a.sample_period)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0)
		setup();
	if (size < 2)
		return 0;
	size_t m = data[0] % NMACHINES;
	struct hwt_branch_sampling bs = {0, 0, 0, 0};
	if (data[1] & 1) {
		char *spec = malloc(size - 1);
		if (!spec)
			abort();
		memcpy(spec, data + 2, size - 2);
		spec[size - 2] = 0;
		hwt_error_clear();
		int err = hwt_branch_filter_parse(spec, "-j", &bs.mode);
		free(spec);
		if (err < 0) {
			if (!hwt_errmsg()[0] || bs.mode)
				abort();
			return 0;
		}
		bs.period = data[1] >> 1;
		build(&bs, m);
		return 0;
	}
	if (ftruncate(fd, 0) ||
	    pwrite(fd, data + 2, size - 2, 0) != (ssize_t)(size - 2))
		abort();
	struct hwt_profile *p = NULL;
	hwt_error_clear();
	int err = hwt_profile_load(path, &p);
	if (err < 0) {
		if (!hwt_errmsg()[0])
			abort();
		return 0;
	}
	hwt_error_clear();
	err = hwt_branch_sampling_from_profile(p, &bs);
	if (err < 0 && !hwt_errmsg()[0])
		abort();
	if (!err)
		build(&bs, m);
	hwt_profile_free(p);
	return 0;
}
