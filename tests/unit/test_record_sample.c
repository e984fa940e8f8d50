/* What AUX sampling's options mean (hwtrace/recorder.h): which -e values
 * name a sampling event; `-e cycles/period=N,aux-sample-size=S/` and
 * `--aux-sample[=SIZE]` as the profile's [sample] keys with their
 * origins and session:mode = sample; the refusals, each naming the
 * event; a replay's sampling attribute, checked field by field against
 * the perf_event_attr the kernel's uapi header defines (type and config
 * of each event, PERF_SAMPLE_AUX added to the capture's sample_type, and
 * PERF_SAMPLE_PERIOD with freq as perf record adds it); and the PSB
 * warning of a small window on an intel_pt capture, as perf's rule says:
 * 2^(psb_period + 11) bytes between PSBs, plus 256. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

static void sampling_event_names(void)
{
	CHECK(hwt_record_sample_event_named("cycles"));
	CHECK(hwt_record_sample_event_named("branch-misses:u"));
	CHECK(hwt_record_sample_event_named("instructions/period=1000/"));
	CHECK(hwt_record_sample_event_named("task-clock"));
	CHECK(!hwt_record_sample_event_named("intel_pt//u"));
	CHECK(!hwt_record_sample_event_named("cyclesx"));
	CHECK(!hwt_record_sample_event_named("/period=1/"));
	CHECK(!hwt_record_sample_event_named(NULL));
	uint32_t type = 0;
	uint64_t config = 0;
	CHECK_STR(hwt_sample_event_find("cache-misses", &type, &config),
		  "cache-misses");
	CHECK_INT(type, PERF_TYPE_HARDWARE);
	CHECK_U64(config, PERF_COUNT_HW_CACHE_MISSES);
	CHECK_STR(hwt_sample_event_find("cpu-clock", &type, &config), "cpu-clock");
	CHECK_INT(type, PERF_TYPE_SOFTWARE);
	CHECK_U64(config, PERF_COUNT_SW_CPU_CLOCK);
	CHECK(hwt_sample_event_find("page-faults", NULL, NULL) == NULL);
}

static void options_as_sample_keys(void)
{
	struct hwt_profile *p = hwt_profile_new();
	CHECK_INT(hwt_record_sample_profile(p, "cycles/period=100000,"
					    "aux-sample-size=8192/u", false, NULL), 0);
	CHECK_STR(hwt_profile_get(p, "sample:event"), "cycles");
	CHECK_STR(hwt_profile_get(p, "sample:period"), "100000");
	CHECK_STR(hwt_profile_origin(p, "sample:period"), "-e");
	CHECK_STR(hwt_profile_get(p, "sample:aux_sample_size"), "8192");
	CHECK_STR(hwt_profile_get(p, "session:mode"), "sample");
	CHECK_STR(hwt_profile_origin(p, "session:mode"), "-e");
	hwt_profile_free(p);

	/* --aux-sample=SIZE overrides the term; the modifiers are not the
	 * sampling event's. */
	p = hwt_profile_new();
	CHECK_INT(hwt_record_sample_profile(p, "branches:u", true, "16K"), 0);
	CHECK_STR(hwt_profile_get(p, "sample:event"), "branches");
	CHECK_STR(hwt_profile_get(p, "sample:aux_sample_size"), "16K");
	CHECK_STR(hwt_profile_origin(p, "sample:aux_sample_size"), "--aux-sample");
	CHECK_STR(hwt_profile_origin(p, "session:mode"), "--aux-sample");
	CHECK(hwt_profile_get(p, "sample:period") == NULL);
	hwt_profile_free(p);

	/* --aux-sample alone: the profile's event (none here). */
	p = hwt_profile_new();
	CHECK_INT(hwt_record_sample_profile(p, NULL, true, ""), 0);
	CHECK(hwt_profile_get(p, "sample:event") == NULL);
	CHECK(hwt_profile_get(p, "sample:aux_sample_size") == NULL);
	CHECK_STR(hwt_profile_get(p, "session:mode"), "sample");
	hwt_profile_free(p);
}

static void refusals_name_the_event(void)
{
	struct hwt_profile *p = hwt_profile_new();
	CHECK_INT(hwt_record_sample_profile(p, "cycles", false, NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e cycles: a sampling event beside the trace "
		  "needs --aux-sample[=SIZE] (or its aux-sample-size term): "
		  "each sample then carries the trace before it");
	CHECK_INT(hwt_record_sample_profile(p, "cycles/period=5", true, NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e cycles/period=5: a '/' is missing after the "
		  "terms (e.g. cycles/period=100000/)");
	CHECK_INT(hwt_record_sample_profile(p, "cycles/umask=3/", true, NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e cycles/umask=3/: term 'umask' is not one of "
		  "period=N, freq=N, aux-sample-size=SIZE");
	CHECK_INT(hwt_record_sample_profile(p, "cycles/period=/", true, NULL),
		  HWT_ERR_CONFIG);
	hwt_profile_free(p);
}

/* The trace event of a replayed capture: its sample id layout. */
static struct perf_event_attr capture_attr(uint64_t config)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.config = config;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	a.sample_id_all = 1;
	a.read_format = PERF_FORMAT_ID;
	return a;
}

static void replay_attribute(void)
{
	struct perf_event_attr aux = capture_attr(0);
	struct hwt_session_opts so = {.backend = hwt_backend_find("intel_bts")};
	char warn[512] = "x";

	CHECK_INT(hwt_record_sample_replay("branch-misses/freq=1000/", true,
					   "2048", &aux, &so, warn, sizeof(warn)), 0);
	const struct perf_event_attr *a = &so.sample_attr;
	CHECK(so.aux_sample);
	CHECK_STR(so.sample_name, "branch-misses");
	CHECK_INT(a->size, sizeof(*a));
	CHECK_INT(a->type, PERF_TYPE_HARDWARE);
	CHECK_U64(a->config, PERF_COUNT_HW_BRANCH_MISSES);
	CHECK_U64(a->sample_type, aux.sample_type | PERF_SAMPLE_AUX |
				  PERF_SAMPLE_PERIOD);
	CHECK_INT(a->freq, 1);
	CHECK_U64(a->sample_freq, 1000);
	CHECK_INT(a->aux_sample_size, 2048);
	CHECK_INT(a->sample_id_all, 1);
	CHECK_U64(a->read_format, PERF_FORMAT_ID);
	CHECK_STR(warn, "");

	/* A period, the default size, and the default event. */
	memset(&so.sample_attr, 0, sizeof(so.sample_attr));
	CHECK_INT(hwt_record_sample_replay("task-clock/period=777/", true, NULL,
					   &aux, &so, warn, sizeof(warn)), 0);
	CHECK_INT(a->type, PERF_TYPE_SOFTWARE);
	CHECK_U64(a->config, PERF_COUNT_SW_TASK_CLOCK);
	CHECK_INT(a->freq, 0);
	CHECK_U64(a->sample_period, 777);
	CHECK_U64(a->sample_type, aux.sample_type | PERF_SAMPLE_AUX);
	CHECK_INT(a->aux_sample_size, 4096);
	CHECK_INT(hwt_record_sample_replay(NULL, true, NULL, &aux, &so, warn,
					   sizeof(warn)), 0);
	CHECK_STR(so.sample_name, "cycles");
	CHECK_U64(a->config, PERF_COUNT_HW_CPU_CYCLES);

	CHECK_INT(hwt_record_sample_replay("cycles/period=10,freq=10/", true,
					   NULL, &aux, &so, warn, sizeof(warn)),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e cycles/period=10,freq=10/: give period or "
		  "freq, not both");
	CHECK_INT(hwt_record_sample_replay("cycles", true, "70000", &aux, &so,
					   warn, sizeof(warn)), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "AUX sample size 70000 is out of range");
}

/* intel_pt's psb_period is config bits 24-27: 2^(psb_period + 11) bytes
 * between PSBs; a window of at most that plus 256 may hold none. */
static void psb_warning_on_intel_pt(void)
{
	struct perf_event_attr aux = capture_attr(3ull << 24); /* 16384 bytes */
	struct hwt_session_opts so = {.backend = hwt_backend_find("intel_pt")};
	char warn[512];

	CHECK(so.backend != NULL);
	CHECK_INT(hwt_record_sample_replay("cycles", true, "16640", &aux, &so,
					   warn, sizeof(warn)), 0);
	CHECK_CONTAINS(warn, "--aux-sample: AUX sample size 16640 may be too "
		       "small for the PSB period (16384 bytes, psb_period=3)");
	CHECK_INT(hwt_record_sample_replay("cycles", true, "16641", &aux, &so,
					   warn, sizeof(warn)), 0);
	CHECK_STR(warn, "");
	/* Not intel_pt: those bits are not a PSB period. */
	so.backend = hwt_backend_find("intel_bts");
	CHECK_INT(hwt_record_sample_replay("cycles", true, "64", &aux, &so,
					   warn, sizeof(warn)), 0);
	CHECK_STR(warn, "");
}

/* A built plan's sampling event into the session options. */
static void session_from_plan(void)
{
	struct hwt_profile *p = hwt_profile_new();
	struct hwt_event_plan plan;
	struct hwt_session_opts so = {0};
	char warn[512];

	memset(&plan, 0, sizeof(plan));
	plan.sample_attr.type = PERF_TYPE_HARDWARE;
	plan.sample_attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	plan.sample_attr.aux_sample_size = 4096;
	CHECK_INT(hwt_profile_set_from(p, "sample:event", "instructions", "-e"), 0);
	CHECK_INT(hwt_record_sample_session(p, &plan, &so, warn, sizeof(warn)), 0);
	CHECK(so.aux_sample);
	CHECK_STR(so.sample_name, "instructions");
	CHECK_U64(so.sample_attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	CHECK_INT(so.sample_attr.aux_sample_size, 4096);
	CHECK_STR(warn, "");
	hwt_profile_free(p);

	/* No event in the profile: cycles, the build's default. */
	p = hwt_profile_new();
	so = (struct hwt_session_opts){0};
	CHECK_INT(hwt_record_sample_session(p, &plan, &so, warn, sizeof(warn)), 0);
	CHECK_STR(so.sample_name, "cycles");
	plan.sample_attr.aux_sample_size = 0;
	so = (struct hwt_session_opts){0};
	CHECK_INT(hwt_record_sample_session(p, &plan, &so, warn, sizeof(warn)),
		  HWT_ERR_CONFIG);
	CHECK(!so.aux_sample);
	hwt_profile_free(p);
}

int main(void)
{
	RUN(sampling_event_names);
	RUN(options_as_sample_keys);
	RUN(refusals_name_the_event);
	RUN(replay_attribute);
	RUN(psb_warning_on_intel_pt);
	RUN(session_from_plan);
	return hwt_test_summary();
}
