/* Every validation error, with its exact message: each names the key, says
 * what is wrong and how to fix it. Nothing is opened. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"

/* Builds a profile from an event string and "section.key=value" pairs on
 * @fixture; returns the error and leaves the message in hwt_errmsg(). */
static int try_build(const char *fixture, const char *event,
		     const char *const *sets)
{
	struct hwt_os *os = hwt_os_linux_new(fixture);
	struct hwt_pmu_list *pmus = NULL;
	struct hwt_profile *p = hwt_profile_new();
	struct hwt_event_plan plan;
	int ret = hwt_pmu_scan(os, &pmus);

	if (!ret && event)
		ret = hwt_profile_parse_event(p, event);
	for (size_t i = 0; !ret && sets && sets[i]; i++) {
		char key[128];
		const char *eq = strchr(sets[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - sets[i]), sets[i]);
		ret = hwt_profile_set(p, key, eq + 1);
	}
	if (!ret)
		ret = hwt_profile_build_attrs(p, os, pmus, &plan);
	if (!ret)
		hwt_event_plan_release(&plan);
	hwt_profile_free(p);
	hwt_pmu_list_free(pmus);
	hwt_os_free(os);
	return ret;
}

static void unknown_key_suggests_nearest(void)
{
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt/cyc_tresh=3/", NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(),
		  "-e: unknown key \"cyc_tresh\" in [intel_pt]; did you mean "
		  "\"cyc_thresh\"? Valid keys: pt, cyc, pwr_evt, fup_on_ptw, mtc, "
		  "tsc, noretcomp, ptw, branch, event, notnt, mtc_period, "
		  "cyc_thresh, psb_period, filter");
	static const char *const s1[] = {"session.aux_sise=4M", NULL};
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", s1),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(),
		  "--set: unknown key \"aux_sise\" in [session]; did you mean "
		  "\"aux_size\"? Valid keys: backend, mode, cpus, per_thread, "
		  "data_size, aux_size, output, user, kernel");
	static const char *const s2[] = {"sesion.mode=full", NULL};
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", s2),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(),
		  "--set: unknown section [sesion]; did you mean [session]? "
		  "Sections are: session, snapshot, sample, intel_pt, intel_bts, "
		  "cs_etm, rvtrace, branch");
	/* Nothing near: no suggestion. */
	static const char *const s3[] = {"snapshot.zzzzzzzz=1", NULL};
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", s3),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(),
		  "--set: unknown key \"zzzzzzzz\" in [snapshot]. Valid keys: "
		  "size, trigger, fifo, interval_ms, trigger_count");
}

/* perf's message shape for caps (perf-intel-pt.txt gives "Invalid
 * psb_period for intel_pt. Valid values are: 0-5" and "... mtc_period ...
 * 0,3,6,9" and "... cyc_thresh ... 0-12"), led by the key's origin. */
static void value_outside_caps_lists_valid_values(void)
{
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt/psb_period=15/u",
			    NULL), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [intel_pt] psb_period = 15: Invalid "
				"psb_period for intel_pt. Valid values are: 0-5");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt/mtc_period=15/u",
			    NULL), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [intel_pt] mtc_period = 15: Invalid "
				"mtc_period for intel_pt. Valid values are: 0,3,6,9");
	CHECK_INT(try_build(FIXTURES "intel-client",
			    "intel_pt/cyc,cyc_thresh=15/u", NULL), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [intel_pt] cyc_thresh = 15: Invalid "
				"cyc_thresh for intel_pt. Valid values are: 0-12");
	/* A feature the CPU lacks. */
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt/ptw/", NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [intel_pt] ptw: this CPU does not support "
				"it (sysfs/bus/event_source/devices/intel_pt/caps/"
				"ptwrite is 0); remove ptw");
	/* A value wider than its field. */
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt/psb_period=16/",
			    NULL), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [intel_pt] psb_period = 16: value 16 does "
				"not fit psb_period (4 bits of config); the largest "
				"value is 15");
	/* An ETM option the trace unit does not have: Juno's A57 ETM has no
	 * return stack (TRCIDR0 0x08000ca1, bit 9 clear). */
	CHECK_INT(try_build(FIXTURES "juno", "cs_etm/retstack/", NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [cs_etm] retstack: the ETMv4 of CPU 0 has "
				"no return stack (TRCIDR0.RETSTACK) (trcidr0 = "
				"0x8000ca1); remove retstack");
}

static void absent_sink_lists_sinks_present(void)
{
	CHECK_INT(try_build(FIXTURES "juno", "cs_etm/@tmc_etr1/", NULL),
		  HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "-e: [cs_etm] sink = tmc_etr1: no such sink on "
				"this machine (sysfs/bus/event_source/devices/"
				"cs_etm/sinks/tmc_etr1); sinks here: tmc_etf0, "
				"tmc_etr0, tpiu0");
}

static void buffer_size_must_be_power_of_two(void)
{
	static const char *const s1[] = {"session.aux_size=3M", NULL};
	static const char *const s2[] = {"session.data_size=100K", NULL};
	static const char *const s3[] = {"session.aux_size=4K", NULL};

	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", s1),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [session] aux_size = 3M is not a power "
				"of two; use 2M or 4M (the kernel maps these "
				"buffers as 2^n pages)");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", s2),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [session] data_size = 100K is not a "
				"power of two; use 64K or 128K (the kernel maps "
				"these buffers as 2^n pages)");
	if (sysconf(_SC_PAGESIZE) == 4096) {
		/* perf: full-trace mode needs at least 2 pages. */
		CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", s3),
			  HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), "--set: [session] aux_size = 4K is too "
					"small; the smallest is 8K");
	} else {
		fprintf(stderr, "page size is not 4 KiB: the 8K minimum check "
			"is written for 4 KiB pages\n");
		CHECK(0);
	}
}

static void absent_pmu_names_the_pmus_present(void)
{
	CHECK_INT(try_build(FIXTURES "juno", "intel_pt//", NULL), HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "PMU intel_pt is not present on this machine (no "
				"sysfs/bus/event_source/devices/intel_pt); trace "
				"PMUs here: cs_etm. Pick one of those, or decode "
				"captures from another machine with 'hwtrace "
				"decode'");
	CHECK_INT(try_build(FIXTURES "no-trace", "cs_etm//", NULL), HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "PMU cs_etm is not present on this machine (no "
				"sysfs/bus/event_source/devices/cs_etm); trace "
				"PMUs here: none. Pick one of those, or decode "
				"captures from another machine with 'hwtrace "
				"decode'");
	/* No backend named and none present. */
	CHECK_INT(try_build(FIXTURES "no-trace", NULL, NULL), HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "no backend chosen and this machine has no trace "
				"PMU hwtrace can drive (trace PMUs here: none); set "
				"[session] backend or run 'hwtrace list' to see why");
}

static void other_checks(void)
{
	static const char *const bts_cpus[] = {"session.cpus=0-1", NULL};
	static const char *const both[] = {"session.cpus=0", "session.per_thread=yes",
					   NULL};
	static const char *const offline[] = {"session.cpus=0-7", NULL};
	static const char *const filters[] = {
		"intel_pt.filter=filter main @ /bin/ls,filter foo @ /bin/ls,"
		"start 0x1000/8", NULL};
	static const char *const bad_filter[] = {"intel_pt.filter=keep main", NULL};
	static const char *const snap[] = {"session.mode=snapshot",
					   "snapshot.size=8M", NULL};
	static const char *const mode[] = {"session.mode=fast", NULL};

	CHECK_INT(try_build(FIXTURES "intel-client", "intel_bts//", bts_cpus),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: intel_bts traces per thread only (the "
				"kernel refuses per-CPU BTS events); set [session] "
				"per_thread = yes and remove [session] cpus");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", both),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [session] sets both per_thread and cpus; "
				"trace either per thread or on CPUs: remove one");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", offline),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [session] cpus names CPU 4, which is not "
				"online here (online: 0-3)");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", filters),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [intel_pt] filter has 3 address filters "
				"but intel_pt supports 2 (nr_addr_filters); remove 1");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", bad_filter),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "each filter is \"filter|start|stop|"
				     "tracestop ADDR[/SIZE] [@FILE]\"");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", snap),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [snapshot] size = 8M must be between 1 "
				"and the AUX area size 4194304 ([session] aux_size)");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//", mode),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: [session] mode = fast is not a mode; use "
				"full, snapshot or sample");
	CHECK_INT(try_build(FIXTURES "armv9-ete-trbe", "cs_etm/cc_threshold=4/",
			    NULL), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "term cc_threshold lives in config3");
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_bts/cyc/",
			    (const char *const[]){"session.per_thread=yes", NULL}),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "unknown key \"cyc\" in [intel_bts]");
	CHECK_INT(try_build(FIXTURES "juno", "cs_etm/contextid2/", NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e: [cs_etm] contextid2: this kernel runs at "
				"EL1 (format/contextid is config:14), and the ETM "
				"driver traces CONTEXTIDR_EL2 only for a kernel at "
				"EL2; use contextid1 or contextid");
	CHECK_INT(try_build(FIXTURES "armv9-ete-trbe", "cs_etm/contextid2/", NULL),
		  0);
	CHECK_INT(try_build(FIXTURES "intel-client", NULL,
			    (const char *const[]){"session.backend=sw_branch",
						  NULL}), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: backend sw_branch has no PMU, so a "
				"profile cannot configure it; profiles drive "
				"intel_pt, intel_bts, cs_etm and riscv_ntrace");
	CHECK_INT(try_build(FIXTURES "intel-client", NULL,
			    (const char *const[]){"session.backend=intl_pt",
						  NULL}), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: unknown backend \"intl_pt\"; did you "
				"mean \"intel_pt\"? Backends with a PMU: intel_pt, "
				"intel_bts, cs_etm, riscv_ntrace");
	/* A filter within nr_addr_filters is kept for the engine. */
	CHECK_INT(try_build(FIXTURES "intel-client", "intel_pt//",
			    (const char *const[]){"intel_pt.filter=filter main @ "
						  "/bin/ls", NULL}), 0);
}

int main(void)
{
	RUN(unknown_key_suggests_nearest);
	RUN(value_outside_caps_lists_valid_values);
	RUN(absent_sink_lists_sinks_present);
	RUN(buffer_size_must_be_power_of_two);
	RUN(absent_pmu_names_the_pmus_present);
	RUN(other_checks);
	return hwt_test_summary();
}
