/* The attrs a profile turns into, compared with the attrs Linux perf builds
 * for the same event on the same machine. Expected values come from perf's
 * documented defaults and the fixtures' format files, worked out by hand in
 * the comments, and from a real perf.data: the quipper capture of
 * `perf record -e intel_pt//` on a Skylake laptop, whose intel_pt attr is
 * type 6, config 50390529 (0x300e601), sample_type 65671 (0x10087),
 * read_format 4, disabled, inherit, enable_on_exec, sample_id_all,
 * exclude_guest (testdata perf-data/quipper/...pb_text). */
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"
#define CONFIGS HWT_SOURCE_DIR "/configs/"

/* PERF_SAMPLE_IP|TID|TIME|CPU|IDENTIFIER */
#define ST_PER_CPU 0x10087ull
/* PERF_SAMPLE_IP|TID|TIME|IDENTIFIER */
#define ST_PER_THREAD 0x10007ull

struct env {
	struct hwt_os *os;
	struct hwt_pmu_list *pmus;
	struct hwt_profile *profile;
	struct hwt_event_plan plan;
};

static int build(struct env *e, const char *fixture, const char *file,
		 const char *event)
{
	int ret;

	memset(e, 0, sizeof(*e));
	e->os = hwt_os_linux_new(fixture);
	CHECK_INT(hwt_pmu_scan(e->os, &e->pmus), 0);
	if (file) {
		CHECK_INT(hwt_profile_load(file, &e->profile), 0);
	} else {
		e->profile = hwt_profile_new();
	}
	if (!e->profile)
		return -1;
	if (event)
		CHECK_INT(hwt_profile_parse_event(e->profile, event), 0);
	ret = hwt_profile_build_attrs(e->profile, e->os, e->pmus, &e->plan);
	if (ret)
		fprintf(stderr, "build: %s\n", hwt_errmsg());
	return ret;
}

static void done(struct env *e)
{
	hwt_event_plan_release(&e->plan);
	hwt_profile_free(e->profile);
	hwt_pmu_list_free(e->pmus);
	hwt_os_free(e->os);
}

/* The fields perf record sets on every AUX event it opens for a workload. */
static void check_perf_common(const struct perf_event_attr *a, uint64_t st)
{
	CHECK_U64(a->sample_period, 1);
	CHECK_INT(a->freq, 0);
	CHECK_U64(a->sample_type, st);
	CHECK_U64(a->read_format, PERF_FORMAT_ID);
	CHECK_INT(a->disabled, 1);
	CHECK_INT(a->inherit, 1);
	CHECK_INT(a->enable_on_exec, 1);
	CHECK_INT(a->sample_id_all, 1);
	CHECK_INT(a->exclude_guest, 1);
	CHECK_INT(a->size, sizeof(struct perf_event_attr));
}

/* intel_pt_default_config on the fixture's caps: tsc (bit 10 = 0x400);
 * caps/mtc = 1 and mtc_periods 0x249 -> mtc (bit 9 = 0x200) and
 * mtc_period = 3 (valid, bits 14-17: 0xc000); psb_cyc = 1 and psb_periods
 * 0x3f -> psb_period = 3 (bits 24-27: 0x3000000); format/pt and
 * format/branch exist -> pt (bit 0) and branch (bit 13 = 0x2000). Sum
 * 0x300e601, the config perf wrote in the quipper capture. */
static void intel_pt_default_matches_perf(void)
{
	struct env e;

	if (build(&e, FIXTURES "intel-client", NULL, "intel_pt//") == 0) {
		CHECK_STR(e.plan.backend->name, "intel_pt");
		CHECK_INT(e.plan.aux_attr.type, 6);
		CHECK_U64(e.plan.aux_attr.config, 0x300e601);
		CHECK_U64(e.plan.aux_attr.config1, 0);
		CHECK_U64(e.plan.aux_attr.config2, 0);
		check_perf_common(&e.plan.aux_attr, ST_PER_CPU);
		CHECK_INT(e.plan.aux_attr.exclude_user, 0);
		CHECK_INT(e.plan.aux_attr.exclude_kernel, 0);
		CHECK_INT(e.plan.aux_attr.exclude_hv, 0);
		CHECK_INT(e.plan.ncpus, 4);
		CHECK_INT(e.plan.cpus[3], 3);
		CHECK_INT(e.plan.mode, HWT_MODE_FULL);
		/* perf's privileged default AUX area is 4 MiB. */
		CHECK_U64(e.plan.aux_pages * e.plan.page_size, 4u << 20);
		CHECK_STR(e.plan.output, "perf.data");
	}
	done(&e);
}

/* The u modifier: exclude_kernel and exclude_hv, as perf's
 * perf_event_attr example in perf-intel-pt.txt shows for intel_pt//u. */
static void intel_pt_user_only(void)
{
	struct env e;

	if (build(&e, FIXTURES "intel-client", NULL, "intel_pt//u") == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0x300e601);
		CHECK_INT(e.plan.aux_attr.exclude_kernel, 1);
		CHECK_INT(e.plan.aux_attr.exclude_hv, 1);
		CHECK_INT(e.plan.aux_attr.exclude_user, 0);
	}
	done(&e);
	if (build(&e, FIXTURES "intel-client", NULL, "intel_pt//k") == 0) {
		CHECK_INT(e.plan.aux_attr.exclude_kernel, 0);
		CHECK_INT(e.plan.aux_attr.exclude_user, 1);
		CHECK_INT(e.plan.aux_attr.exclude_hv, 1);
	}
	done(&e);
}

/* perf-intel-pt.txt: "-e intel_pt/tsc=1,noretcomp=0/" is the legacy
 * default; terms a user gives replace the defaults, the rest stay:
 * cyc (bit 1 = 0x2) added, noretcomp=1 (bit 11 = 0x800), mtc_period=6
 * (6 << 14 = 0x18000 replaces 0xc000), branch=0 removes 0x2000. Bit by
 * bit: pt 0x1 + cyc 0x2 + mtc 0x200 + tsc 0x400 + noretcomp 0x800 +
 * mtc_period 0x18000 + psb_period 0x3000000 = 0x3018e03. */
static void intel_pt_terms_override_defaults(void)
{
	struct env e;

	if (build(&e, FIXTURES "intel-client", NULL,
		  "intel_pt/cyc,noretcomp=1,mtc_period=6,branch=0/u") == 0)
		CHECK_U64(e.plan.aux_attr.config, 0x3018e03);
	done(&e);
	/* tsc=0 and mtc=0: 0x300e601 - 0x400 - 0x200 = 0x300e001 (mtc_period
	 * stays at its default: perf's default string sets it too). */
	if (build(&e, FIXTURES "intel-client", NULL, "intel_pt/tsc=0,mtc=0/") == 0)
		CHECK_U64(e.plan.aux_attr.config, 0x300e001);
	done(&e);
}

static void intel_pt_shipped_profiles(void)
{
	struct env e;

	if (build(&e, FIXTURES "intel-client", CONFIGS "intel_pt_full.ini",
		  NULL) == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0x300e601);
		check_perf_common(&e.plan.aux_attr, ST_PER_CPU);
		CHECK_U64(e.plan.data_pages * e.plan.page_size, 512u << 10);
	}
	done(&e);
	if (build(&e, FIXTURES "intel-client", CONFIGS "intel_pt_snapshot.ini",
		  NULL) == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0x300e601);
		CHECK_INT(e.plan.aux_attr.exclude_kernel, 1);
		CHECK_INT(e.plan.mode, HWT_MODE_SNAPSHOT);
		CHECK_U64(e.plan.snapshot_size, 4u << 20);
		CHECK_INT(e.plan.trigger, HWT_TRIGGER_SIGNAL);
	}
	done(&e);
}

/* perf-intel-pt.txt: with AUX sampling psb_period defaults to 0 so each
 * sample holds a PSB: 0x300e601 - 0x3000000 = 0xe601. The sampling event
 * carries PERF_SAMPLE_AUX (1 << 20) and perf's 4 KiB default sample. */
static void intel_pt_sample_mode(void)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	e.os = hwt_os_linux_new(FIXTURES "intel-client");
	CHECK_INT(hwt_pmu_scan(e.os, &e.pmus), 0);
	e.profile = hwt_profile_new();
	CHECK_INT(hwt_profile_parse_event(e.profile, "intel_pt//u"), 0);
	CHECK_INT(hwt_profile_set(e.profile, "session.mode", "sample"), 0);
	CHECK_INT(hwt_profile_set(e.profile, "sample.event", "branch-misses"), 0);
	if (hwt_profile_build_attrs(e.profile, e.os, e.pmus, &e.plan) == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0xe601);
		CHECK(e.plan.has_sample_attr);
		CHECK_INT(e.plan.sample_attr.type, PERF_TYPE_HARDWARE);
		CHECK_U64(e.plan.sample_attr.config, PERF_COUNT_HW_BRANCH_MISSES);
		CHECK_U64(e.plan.sample_attr.sample_type, ST_PER_CPU | PERF_SAMPLE_AUX);
		CHECK_INT(e.plan.sample_attr.aux_sample_size, 4096);
		CHECK_INT(e.plan.sample_attr.freq, 1);
		CHECK_U64(e.plan.sample_attr.sample_freq, 4000);
		CHECK_INT(e.plan.sample_attr.exclude_kernel, 1);
	} else {
		HWT_FAIL("sample mode: %s", hwt_errmsg());
	}
	done(&e);
}

/* intel_bts: type only, per thread (no CPU in sample_type), u bits. */
static void intel_bts_profile(void)
{
	struct env e;

	if (build(&e, FIXTURES "intel-client", CONFIGS "intel_bts.ini", NULL) == 0) {
		CHECK_INT(e.plan.aux_attr.type, 7);
		CHECK_U64(e.plan.aux_attr.config, 0);
		check_perf_common(&e.plan.aux_attr, ST_PER_THREAD);
		CHECK_INT(e.plan.aux_attr.exclude_kernel, 1);
		CHECK_INT(e.plan.aux_attr.exclude_hv, 1);
		CHECK(e.plan.per_thread);
		CHECK_INT(e.plan.ncpus, 0);
		CHECK(e.plan.cpus == NULL);
		CHECK_U64(e.plan.sideband_attr.sample_type, ST_PER_THREAD);
	}
	done(&e);
}

/* perf record -e cs_etm/@tmc_etr0/ per CPU on Juno: cs_etm_set_sink_attr
 * puts sinks/tmc_etr0 (0xa6509eae) in config2; cs_etm_recording_options
 * adds the "contextid" format bits (config:14 = 0x4000, TRCIDR2.CIDSIZE of
 * 0x20001088 is 4) and timestamp (config:28 = 0x10000000, TRCIDR0.TSSIZE of
 * 0x08000ca1 is 8). config = 0x10004000. */
static void cs_etm_etr_matches_perf(void)
{
	struct env e;

	if (build(&e, FIXTURES "juno", NULL, "cs_etm/@tmc_etr0/") == 0) {
		CHECK_INT(e.plan.aux_attr.type, 8);
		CHECK_U64(e.plan.aux_attr.config, 0x10004000);
		CHECK_U64(e.plan.aux_attr.config2, 0xa6509eae);
		check_perf_common(&e.plan.aux_attr, ST_PER_CPU);
		CHECK_STR(e.plan.sink, "tmc_etr0");
		CHECK_U64(e.plan.sink_id, 0xa6509eae);
		CHECK(!e.plan.sink_is_trbe);
		CHECK_INT(e.plan.ncpus, 6);
	}
	done(&e);
	if (build(&e, FIXTURES "juno", CONFIGS "cs_etm_etr.ini", NULL) == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0x10004000);
		CHECK_U64(e.plan.aux_attr.config2, 0xa6509eae);
	}
	done(&e);
}

/* No sink named on Juno: no CPU has a TRBE, so hwtrace picks the ETR and
 * says why. Per thread, perf adds neither contextid nor timestamp. */
static void cs_etm_default_sink_is_etr_without_trbe(void)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	e.os = hwt_os_linux_new(FIXTURES "juno");
	CHECK_INT(hwt_pmu_scan(e.os, &e.pmus), 0);
	e.profile = hwt_profile_new();
	CHECK_INT(hwt_profile_parse_event(e.profile, "cs_etm//u"), 0);
	CHECK_INT(hwt_profile_set(e.profile, "session.per_thread", "yes"), 0);
	if (hwt_profile_build_attrs(e.profile, e.os, e.pmus, &e.plan) == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0);
		CHECK_U64(e.plan.aux_attr.config2, 0xa6509eae);
		CHECK_STR(e.plan.sink, "tmc_etr0");
		CHECK_STR(e.plan.sink_reason, "CPU 0,1,2,3,4,5 have no TRBE, so "
					      "trace goes through the ETR tmc_etr0");
		CHECK_U64(e.plan.aux_attr.sample_type, ST_PER_THREAD);
	} else {
		HWT_FAIL("per-thread cs_etm: %s", hwt_errmsg());
	}
	done(&e);
}

/* Armv9 with ETE and TRBE on every CPU: no sink id (the kernel uses the
 * per-CPU TRBE); contextid is config:15 there (VHE), supported because
 * TRCIDR2 0xd0001088 has VMIDOPT 2 and VMIDSIZE 4; timestamp 0x10000000;
 * the profile's retstack (config:29) is allowed by TRCIDR0.RETSTACK
 * (0x2801cea1 bit 9). 0x8000 + 0x10000000 + 0x20000000 = 0x30008000. */
static void cs_etm_trbe_profile(void)
{
	struct env e;

	if (build(&e, FIXTURES "armv9-ete-trbe", CONFIGS "cs_etm_trbe.ini",
		  NULL) == 0) {
		CHECK_U64(e.plan.aux_attr.config, 0x30008000);
		CHECK_U64(e.plan.aux_attr.config2, 0);
		CHECK(e.plan.sink_is_trbe);
		CHECK_STR(e.plan.sink, "");
		CHECK_INT(e.plan.ncpus, 2);
	}
	done(&e);
	/* cs_etm// with nothing else: perf's per-CPU defaults only. */
	if (build(&e, FIXTURES "armv9-ete-trbe", NULL, "cs_etm//") == 0)
		CHECK_U64(e.plan.aux_attr.config, 0x10008000);
	done(&e);
}

/* The tracking event: perf's dummy:u with sample_period 1, plus the
 * sideband flags DESIGN.md lists. */
static void sideband_is_dummy_u(void)
{
	struct env e;

	if (build(&e, FIXTURES "intel-client", NULL, "intel_pt//") == 0) {
		const struct perf_event_attr *s = &e.plan.sideband_attr;

		CHECK_INT(s->type, PERF_TYPE_SOFTWARE);
		CHECK_U64(s->config, PERF_COUNT_SW_DUMMY);
		CHECK_U64(s->sample_period, 1);
		CHECK_U64(s->sample_type, ST_PER_CPU);
		CHECK_INT(s->exclude_kernel, 1);
		CHECK_INT(s->exclude_hv, 1);
		CHECK_INT(s->mmap, 1);
		CHECK_INT(s->mmap2, 1);
		CHECK_INT(s->comm, 1);
		CHECK_INT(s->task, 1);
		CHECK_INT(s->context_switch, 1);
		CHECK_INT(s->sample_id_all, 1);
	}
	done(&e);
}

/* perf -vv's layout: "  name<pad to 32> value". */
static void attr_is_printed_in_perf_style(void)
{
	struct perf_event_attr a;
	char buf[2048];

	memset(&a, 0, sizeof(a));
	a.type = 6;
	a.size = 112;
	a.config = 0x400;
	a.sample_period = 1;
	a.sample_type = 0x10087;
	a.read_format = PERF_FORMAT_ID;
	a.disabled = 1;
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.enable_on_exec = 1;
	a.sample_id_all = 1;
	hwt_attr_format(&a, NULL, buf, sizeof(buf));
	/* The example in perf-intel-pt.txt, line by line. */
	CHECK_STR(buf,
		  "perf_event_attr:\n"
		  "  type                             6\n"
		  "  size                             112\n"
		  "  config                           0x400\n"
		  "  { sample_period, sample_freq }   1\n"
		  "  sample_type                      IP|TID|TIME|CPU|IDENTIFIER\n"
		  "  read_format                      ID\n"
		  "  disabled                         1\n"
		  "  inherit                          1\n"
		  "  exclude_kernel                   1\n"
		  "  exclude_hv                       1\n"
		  "  enable_on_exec                   1\n"
		  "  sample_id_all                    1\n");
	a.config2 = 0xa6509eae;
	hwt_attr_format(&a, "cs_etm", buf, sizeof(buf));
	CHECK_CONTAINS(buf, "  type                             6 (cs_etm)\n");
	CHECK_CONTAINS(buf, "  { bp_len, config2 }              0xa6509eae\n");
	/* Truncation reports the length needed. */
	CHECK(hwt_attr_format(&a, NULL, buf, 10) > 10);
	CHECK_INT(strlen(buf), 9);
}

int main(void)
{
	RUN(intel_pt_default_matches_perf);
	RUN(intel_pt_user_only);
	RUN(intel_pt_terms_override_defaults);
	RUN(intel_pt_shipped_profiles);
	RUN(intel_pt_sample_mode);
	RUN(intel_bts_profile);
	RUN(cs_etm_etr_matches_perf);
	RUN(cs_etm_default_sink_is_etr_without_trbe);
	RUN(cs_etm_trbe_profile);
	RUN(sideband_is_dummy_u);
	RUN(attr_is_printed_in_perf_style);
	return hwt_test_summary();
}
