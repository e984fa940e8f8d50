/* Branch-stack sampling's configuration: perf record -j's names as the
 * kernel's branch_sample_type bits (the literal values of enum
 * perf_branch_sample_type in include/uapi/linux/perf_event.h, written
 * out here rather than taken from the header the code uses), the
 * depth each sysfs fixture gives (Intel LBR 8, 16 and 32, AMD BRS 16 and
 * LBRv2 16, Arm BRBE 64, and a BRBE depth the hardware cannot have,
 * refused), the branch counters of caps/branch_counter_nr and _width
 * (the kernel's 4 of 2 bits on intel-lbr-counters; half a pair, or more
 * than a word, refused), the
 * event's attribute (hwt_branch_attr_build: every field perf record -b
 * -c / -F sets), and a profile's [branch] section with its errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/brstack.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"

static void bits_are_the_kernels(void)
{
	static const struct {
		const char *name;
		uint64_t bit;
	} uapi[] = {
		{"any,u", 1ull << 3 | 1ull << 0}, {"any,k", 1ull << 3 | 1ull << 1},
		{"any,hv", 1ull << 3 | 1ull << 2}, {"any_call", 1ull << 4},
		{"any_ret", 1ull << 5}, {"ind_call", 1ull << 6},
		{"abort_tx", 1ull << 7}, {"in_tx", 1ull << 8}, {"no_tx", 1ull << 9},
		{"cond", 1ull << 10}, {"stack", 1ull << 11}, {"ind_jmp", 1ull << 12},
		{"call", 1ull << 13}, {"no_flags", 1ull << 14},
		{"no_cycles", 1ull << 15}, {"save_type", 1ull << 16},
		{"hw_index", 1ull << 17}, {"priv", 1ull << 18},
		{"counter", 1ull << 19},
	};
	for (size_t i = 0; i < sizeof(uapi) / sizeof(*uapi); i++) {
		uint64_t m;
		CHECK_INT(hwt_branch_filter_parse(uapi[i].name, "-j", &m), 0);
		CHECK_U64(m, uapi[i].bit);
	}
}

static struct hwt_os *fixture(const char *name)
{
	char root[4096];
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s", HWT_SOURCE_DIR, name);
	struct hwt_os *os = hwt_os_linux_new(root);
	if (!os)
		HWT_FAIL("no OS seam for %s", root);
	return os;
}

static void depths(void)
{
	static const struct {
		const char *fixture, *pmu;
		enum hwt_branch_hw_kind kind;
		unsigned depth;
		bool arch_lbr; /* caps/pmu_name names an Arch LBR CPU */
		unsigned counters, width; /* caps/branch_counter_nr, _width */
	} want[] = {
		{"intel-lbr", "cpu", HWT_BRANCH_HW_LBR, 32, false, 0, 0},
		{"intel-lbr16", "cpu", HWT_BRANCH_HW_LBR, 16, false, 0, 0},
		{"intel-lbr8", "cpu", HWT_BRANCH_HW_LBR, 8, false, 0, 0},
		{"intel-archlbr", "cpu", HWT_BRANCH_HW_LBR, 32, true, 0, 0},
		{"intel-lbr-counters", "cpu", HWT_BRANCH_HW_LBR, 32, true, 4, 2},
		{"amd-brs", "cpu", HWT_BRANCH_HW_BRS, 16, false, 0, 0},
		{"amd-lbrv2", "cpu", HWT_BRANCH_HW_LBR, 16, false, 0, 0},
		{"arm-brbe", "armv8_pmuv3_0", HWT_BRANCH_HW_BRBE, 64, false, 0, 0},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		struct hwt_branch_hw hw;
		struct hwt_os *os = fixture(want[i].fixture);
		CHECK_INT(hwt_branch_hw_probe(os, &hw), 0);
		CHECK_INT(hw.kind, want[i].kind);
		CHECK_INT(hw.depth, want[i].depth);
		CHECK_STR(hw.pmu, want[i].pmu);
		CHECK_INT(hw.arch_lbr, want[i].arch_lbr);
		CHECK_INT(hw.counters, want[i].counters);
		CHECK_INT(hw.counter_width, want[i].width);
		hwt_os_free(os);
	}
	/* A BRBE depth BRBIDR0_EL1.NUMREC cannot give, named. */
	char dir[] = "/tmp/hwt_brbe_XXXXXX", path[256];
	if (!mkdtemp(dir))
		HWT_FAIL("mkdtemp");
	const char *parts[] = {"bus", "bus/event_source", "bus/event_source/devices",
			       "bus/event_source/devices/armv9_cortex_x4",
			       "bus/event_source/devices/armv9_cortex_x4/caps"};
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, parts[i]);
		mkdir(path, 0700);
	}
	snprintf(path, sizeof(path), "%s/%s/branches", dir, parts[4]);
	FILE *f = fopen(path, "w");
	if (!f)
		HWT_FAIL("%s", path);
	fputs("48\n", f);
	fclose(f);
	struct hwt_os *os = hwt_os_linux_new(dir);
	struct hwt_branch_hw hw;
	CHECK_INT(hwt_branch_hw_probe(os, &hw), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "bus/event_source/devices/armv9_cortex_x4/caps/"
				"branches: \"48\" is not a BRBE depth (8, 16, 32 or 64)");
	hwt_os_free(os);
	unlink(path);
	for (size_t i = sizeof(parts) / sizeof(*parts); i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", dir, parts[i]);
		rmdir(path);
	}
	rmdir(dir);
}

/* @files ("caps/NAME=VALUE", ...) in a cpu PMU of a new sysfs tree
 * under @dir (a mkdtemp template), probed; the tree is removed. */
static int probe_cpu(char *dir, const char *const *files, size_t n,
		     struct hwt_branch_hw *hw)
{
	static const char *const parts[] = {
		"bus", "bus/event_source", "bus/event_source/devices",
		"bus/event_source/devices/cpu",
		"bus/event_source/devices/cpu/caps"};
	const size_t nparts = sizeof(parts) / sizeof(*parts);
	char path[256];
	if (!mkdtemp(dir))
		HWT_FAIL("mkdtemp");
	for (size_t i = 0; i < nparts; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, parts[i]);
		mkdir(path, 0700);
	}
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(files[i], '=');
		snprintf(path, sizeof(path), "%s/%s/%.*s", dir, parts[3],
			 (int)(eq - files[i]), files[i]);
		FILE *f = fopen(path, "w");
		if (!f)
			HWT_FAIL("%s", path);
		fprintf(f, "%s\n", eq + 1);
		fclose(f);
	}
	struct hwt_os *os = hwt_os_linux_new(dir);
	int err = hwt_branch_hw_probe(os, hw);
	hwt_os_free(os);
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(files[i], '=');
		snprintf(path, sizeof(path), "%s/%s/%.*s", dir, parts[3],
			 (int)(eq - files[i]), files[i]);
		unlink(path);
	}
	for (size_t i = nparts; i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", dir, parts[i]);
		rmdir(path);
	}
	rmdir(dir);
	return err;
}

/* Branch counters: both files or neither, fitting one 64-bit word. */
static void counter_caps(void)
{
	struct hwt_branch_hw hw;
	char d1[] = "/tmp/hwt_brcntr_XXXXXX";
	const char *no_width[] = {"caps/branches=32", "caps/branch_counter_nr=4"};
	CHECK_INT(probe_cpu(d1, no_width, 2, &hw), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "bus/event_source/devices/cpu/caps/"
				"branch_counter_nr \"4\" and branch_counter_width "
				"\"(none)\": not counters that fit a 64-bit word "
				"(both files, each at least 1)");
	char d2[] = "/tmp/hwt_brcntr_XXXXXX";
	const char *too_wide[] = {"caps/branches=32", "caps/branch_counter_nr=4",
				  "caps/branch_counter_width=17"};
	CHECK_INT(probe_cpu(d2, too_wide, 3, &hw), HWT_ERR_FORMAT);
	/* Positive control: 4 counters of 16 bits fill the word. */
	char d3[] = "/tmp/hwt_brcntr_XXXXXX";
	const char *full[] = {"caps/branches=32", "caps/branch_counter_nr=4",
			      "caps/branch_counter_width=16"};
	CHECK_INT(probe_cpu(d3, full, 3, &hw), 0);
	CHECK_INT(hw.counters, 4);
	CHECK_INT(hw.counter_width, 16);
	/* A width alone: no counters. */
	char d4[] = "/tmp/hwt_brcntr_XXXXXX";
	const char *width_only[] = {"caps/branches=32",
				    "caps/branch_counter_width=2"};
	CHECK_INT(probe_cpu(d4, width_only, 2, &hw), 0);
	CHECK_INT(hw.counters, 0);
}

static void attrs(void)
{
	struct hwt_branch_hw lbr = {HWT_BRANCH_HW_LBR, 32, 0, "cpu", false, 0};
	struct hwt_branch_hw brs = {HWT_BRANCH_HW_BRS, 16, 0, "cpu", false, 0};
	struct hwt_branch_sampling bs = {PERF_SAMPLE_BRANCH_ANY_CALL |
					 PERF_SAMPLE_BRANCH_USER, 1000, 0,
					 PERF_COUNT_HW_CPU_CYCLES};
	struct perf_event_attr a;
	CHECK_INT(hwt_branch_attr_build(&bs, &lbr, "cycles", &a), 0);
	CHECK_INT(a.type, PERF_TYPE_HARDWARE);
	CHECK_U64(a.config, PERF_COUNT_HW_CPU_CYCLES);
	CHECK_U64(a.sample_type, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				 PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK);
	CHECK_U64(a.branch_sample_type, (1ull << 4) | (1ull << 0));
	CHECK_U64(a.sample_period, 1000);
	CHECK_INT(a.freq, 0);
	CHECK_INT(a.exclude_user, 0);
	CHECK_INT(a.exclude_kernel, 1);
	CHECK_INT(a.exclude_hv, 1);
	CHECK_INT(a.sample_id_all, 1);
	CHECK_INT(a.disabled, 1);
	CHECK_INT(a.size, sizeof(a));
	/* No filter: -j any; no period: perf's 4000 a second; no level:
	 * every one. */
	struct hwt_branch_sampling none = {0, 0, 0, PERF_COUNT_HW_CPU_CYCLES};
	CHECK_INT(hwt_branch_attr_build(&none, &brs, "cycles", &a), 0);
	CHECK_U64(a.branch_sample_type, 1ull << 3);
	CHECK_INT(a.freq, 1);
	CHECK_U64(a.sample_freq, 4000);
	CHECK_INT(a.exclude_user + a.exclude_kernel + a.exclude_hv, 0);
	struct hwt_branch_sampling fq = {PERF_SAMPLE_BRANCH_ANY, 0, 99,
					 PERF_COUNT_HW_CPU_CYCLES};
	CHECK_INT(hwt_branch_attr_build(&fq, &lbr, "cycles", &a), 0);
	CHECK_U64(a.sample_freq, 99);
	/* The hardware's refusals, in perf's words where it has them. */
	CHECK_INT(hwt_branch_attr_build(&bs, &brs, "cycles", &a), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "cycles: AMD BRS can only capture all branches");
	CHECK_INT(hwt_branch_attr_build(&bs, NULL, "cycles", &a), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "cycles: PMU Hardware or event type doesn't "
				     "support branch stack sampling.");
	struct hwt_branch_sampling both = {PERF_SAMPLE_BRANCH_ANY, 10, 10,
					   PERF_COUNT_HW_CPU_CYCLES};
	CHECK_INT(hwt_branch_attr_build(&both, &lbr, "cycles", &a), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "cycles: a period (-c 10) and a frequency (-F 10): "
				"give one of them");
}

static void profiles(void)
{
	struct hwt_profile *p = hwt_profile_new();
	struct hwt_branch_sampling bs = {0, 0, 0, 0};
	CHECK_INT(hwt_profile_set_from(p, "branch:filter", "any_ret,u,save_type",
				       "b.ini"), 0);
	CHECK_INT(hwt_profile_set_from(p, "branch:period", "250", "b.ini"), 0);
	CHECK_INT(hwt_branch_sampling_from_profile(p, &bs), 0);
	CHECK_U64(bs.mode, (1ull << 5) | (1ull << 0) | (1ull << 16));
	CHECK_U64(bs.period, 250);
	CHECK_U64(bs.freq, 0);
	CHECK_INT(hwt_profile_set_from(p, "branch:freq", "100", "b.ini"), 0);
	CHECK_INT(hwt_branch_sampling_from_profile(p, &bs), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "[branch] period and freq (b.ini): give one "
				     "of them");
	CHECK_INT(hwt_profile_set_from(p, "branch:filter", "any,nope", "b.ini"), 0);
	CHECK_INT(hwt_branch_sampling_from_profile(p, &bs), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "[branch] filter = (b.ini): any,nope: unknown "
				"branch filter nope, check man page");
	hwt_profile_free(p);
	/* Nothing set: the values stay as they were. */
	p = hwt_profile_new();
	struct hwt_branch_sampling keep = {1ull << 3, 7, 0, 0};
	CHECK_INT(hwt_branch_sampling_from_profile(p, &keep), 0);
	CHECK_U64(keep.mode, 1ull << 3);
	CHECK_U64(keep.period, 7);
	hwt_profile_free(p);
}

/* record -b's options over a profile file (hwt_branch_sampling_of): -b
 * and -j replace the profile's filter, -c or -F both its period and
 * freq; the event is PERF_COUNT_HW_BRANCH_INSTRUCTIONS (4 in the uapi's
 * enum perf_hw_id). */
static void options_over_profile(void)
{
	char dir[] = "/tmp/hwt-branch-XXXXXX", path[64];
	struct hwt_branch_sampling bs;
	FILE *f;
	if (!mkdtemp(dir)) {
		HWT_FAIL("mkdtemp: no temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/b.ini", dir);
	if (!(f = fopen(path, "w"))) {
		HWT_FAIL("%s: cannot write", path);
		rmdir(dir);
		return;
	}
	fputs("[branch]\nfilter = any_ret,u\nperiod = 250\n", f);
	fclose(f);

	CHECK_INT(hwt_branch_sampling_of(path, false, NULL, 0, 0, &bs), 0);
	CHECK_U64(bs.mode, (1ull << 5) | (1ull << 0));
	CHECK_U64(bs.period, 250);
	CHECK_U64(bs.freq, 0);
	CHECK_U64(bs.config, 4);
	CHECK_INT(hwt_branch_sampling_of(path, true, NULL, 0, 1000, &bs), 0);
	CHECK_U64(bs.mode, 1ull << 3);
	CHECK_U64(bs.period, 0);
	CHECK_U64(bs.freq, 1000);
	CHECK_INT(hwt_branch_sampling_of(path, false, "cond,k", 99, 0, &bs), 0);
	CHECK_U64(bs.mode, (1ull << 10) | (1ull << 1));
	CHECK_U64(bs.period, 99);
	CHECK_INT(hwt_branch_sampling_of(NULL, false, NULL, 0, 0, &bs), 0);
	CHECK_U64(bs.mode, 0);
	CHECK_U64(bs.period, 0);
	CHECK_U64(bs.config, 4);
	CHECK_INT(hwt_branch_sampling_of(path, false, "any,nope", 0, 0, &bs),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-j any,nope: unknown branch filter nope, check "
				"man page");
	unlink(path);
	rmdir(dir);
	CHECK(hwt_branch_sampling_of(path, false, NULL, 0, 0, &bs) < 0);
	CHECK_CONTAINS(hwt_errmsg(), path);
}

int main(void)
{
	RUN(bits_are_the_kernels);
	RUN(depths);
	RUN(counter_caps);
	RUN(attrs);
	RUN(profiles);
	RUN(options_over_profile);
	return hwt_test_summary();
}
