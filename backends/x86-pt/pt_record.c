/* intel_pt configure: perf's defaults and caps checks. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backends/x86-pt/pt_record.h"
#include "backends/x86-pt/pt_meta.h"
#include "hwtrace/config.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

/* The set bit of @bits nearest to @target from below, else the lowest
 * above it (perf's intel_pt_pick_bit). */
static int pick_bit(uint64_t bits, int target)
{
	int pick = -1;

	for (int pos = 0; bits; bits >>= 1, pos++) {
		if (bits & 1) {
			if (pos <= target || pick < 0)
				pick = pos;
			if (pos >= target)
				break;
		}
	}
	return pick;
}

static bool user_set(const struct hwt_profile *p, const char *term)
{
	return hwt_config_term_set(p, "intel_pt", term);
}

static const char *origin(const struct hwt_profile *p, const char *term)
{
	return hwt_config_term_where(p, "intel_pt", term);
}

/* A cap that perf treats as present when its file is missing. */
static uint64_t cap_or(const struct hwt_pmu *pmu, const char *name,
		       uint64_t def)
{
	uint64_t v;

	return hwt_pmu_cap_u64(pmu, name, &v) ? v : def;
}

static int set_default(const struct hwt_pmu *pmu,
		       const struct hwt_profile *p, const char *term,
		       uint64_t value, struct perf_event_attr *attr)
{
	const struct hwt_pmu_format *fmt = hwt_pmu_format(pmu, term);

	if (!fmt || user_set(p, term))
		return 0;
	return hwt_pmu_format_set(fmt, value, attr);
}

static uint64_t term(const struct hwt_pmu *pmu, const char *name,
		     const struct perf_event_attr *attr)
{
	const struct hwt_pmu_format *fmt = hwt_pmu_format(pmu, name);

	return fmt ? hwt_pmu_format_get(fmt, attr) : 0;
}

/* perf's intel_pt_val_config_term: @caps is a bitmap of valid values,
 * empty when @supported reads 0; 0 is always valid. */
static int check_value(const struct hwt_pmu *pmu, const struct hwt_profile *p,
		       const char *caps, const char *name,
		       const char *supported, const struct perf_event_attr *attr)
{
	uint64_t valid = cap_or(pmu, caps, 0), v = term(pmu, name, attr);
	char list[256];

	if (supported && !cap_or(pmu, supported, 1))
		valid = 0;
	valid |= 1;
	if (v < 64 && (valid >> v & 1))
		return 0;
	hwt_config_valid_str(valid, list, sizeof(list));
	return hwt_error(HWT_ERR_CONFIG,
			 "%s: [intel_pt] %s = %" PRIu64 ": Invalid %s for "
			 "intel_pt. Valid values are: %s",
			 origin(p, name), name, v, name, list);
}

/* A feature term that needs a cap reading 1. */
static int check_feature(const struct hwt_pmu *pmu,
			 const struct hwt_profile *p, const char *name,
			 const char *cap, const struct perf_event_attr *attr)
{
	if (!term(pmu, name, attr) || cap_or(pmu, cap, 0))
		return 0;
	return hwt_error(HWT_ERR_CONFIG,
			 "%s: [intel_pt] %s: this CPU does not support it "
			 "(sysfs/bus/event_source/devices/intel_pt/caps/%s is "
			 "%s); remove %s",
			 origin(p, name), name, cap,
			 hwt_pmu_cap(pmu, cap) ? hwt_pmu_cap(pmu, cap) : "absent",
			 name);
}

int hwt_pt_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct hwt_profile *p, struct perf_event_attr *attr)
{
	uint64_t mtc = cap_or(pmu, "mtc", 1), mtc_periods = 0, psb_periods = 0;
	int ret;

	/* intel_pt_default_config: tsc, then mtc with mtc_period 3 (or the
	 * nearest valid value), psb_period 3 when PSB periods are
	 * configurable, then pt and branch when the kernel knows them. */
	if ((ret = set_default(pmu, p, "tsc", 1, attr)))
		return ret;
	if (mtc)
		mtc_periods = cap_or(pmu, "mtc_periods", 0);
	if (mtc && mtc_periods) {
		if ((ret = set_default(pmu, p, "mtc", 1, attr)) ||
		    (ret = set_default(pmu, p, "mtc_period",
				       (uint64_t)pick_bit(mtc_periods, 3), attr)))
			return ret;
	}
	if (cap_or(pmu, "psb_cyc", 1) && mtc_periods)
		psb_periods = cap_or(pmu, "psb_periods", 0);
	/* In sample mode perf wants a PSB in every sample: period 0 (2 KiB). */
	if (hwt_profile_mode(p) == HWT_MODE_SAMPLE)
		ret = set_default(pmu, p, "psb_period", 0, attr);
	else if (psb_periods)
		ret = set_default(pmu, p, "psb_period",
				  (uint64_t)pick_bit(psb_periods, 3), attr);
	if (ret)
		return ret;
	if (hwt_pmu_format(pmu, "pt") && hwt_pmu_format(pmu, "branch") &&
	    ((ret = set_default(pmu, p, "pt", 1, attr)) ||
	     (ret = set_default(pmu, p, "branch", 1, attr))))
		return ret;

	/* intel_pt_validate_config, and the kernel's pt_event_valid(). */
	if (hwt_pmu_format(pmu, "pt") && !term(pmu, "pt", attr))
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [intel_pt] pt = 0 makes no sense (perf forces "
				 "pt=1: without it branch tracing cannot be turned "
				 "off); remove pt", origin(p, "pt"));
	if ((ret = check_value(pmu, p, "cycle_thresholds", "cyc_thresh",
			       "psb_cyc", attr)) ||
	    (ret = check_value(pmu, p, "mtc_periods", "mtc_period", "mtc",
			       attr)) ||
	    (ret = check_value(pmu, p, "psb_periods", "psb_period", "psb_cyc",
			       attr)) ||
	    (ret = check_feature(pmu, p, "cyc", "psb_cyc", attr)) ||
	    (ret = check_feature(pmu, p, "mtc", "mtc", attr)) ||
	    (ret = check_feature(pmu, p, "ptw", "ptwrite", attr)) ||
	    (ret = check_feature(pmu, p, "fup_on_ptw", "ptwrite", attr)) ||
	    (ret = check_feature(pmu, p, "pwr_evt", "power_event_trace", attr)) ||
	    (ret = check_feature(pmu, p, "event", "event_trace", attr)) ||
	    (ret = check_feature(pmu, p, "notnt", "tnt_disable", attr)))
		return ret;
	if (term(pmu, "fup_on_ptw", attr) && !term(pmu, "ptw", attr))
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [intel_pt] fup_on_ptw needs ptw (a FUP follows "
				 "a PTWRITE packet); add ptw = 1 or remove "
				 "fup_on_ptw", origin(p, "fup_on_ptw"));
	(void)os;
	return 0;
}

const struct hwt_record_ops hwt_pt_record_ops = {
	.configure = hwt_pt_configure,
	.info = hwt_pt_info,
	.find_snapshot = hwt_pt_find_snapshot,
};
