/* Branch-stack sampling's event: a profile's [branch] section and
 * perf record's -b, -j, -c and -F as a perf_event_attr, checked against
 * the branch records the PMU offers (config_branch.c). */
#include <stdio.h>
#include <string.h>

#include "hwtrace/brstack.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"

/* perf record's default frequency (tools/perf: record.freq = 4000). */
#define PERF_DEFAULT_FREQ 4000u

int hwt_branch_sampling_from_profile(const struct hwt_profile *p,
				     struct hwt_branch_sampling *out)
{
	const char *filter = hwt_profile_get(p, "branch:filter");
	if (filter) {
		char what[4200];
		snprintf(what, sizeof(what), "[branch] filter = (%s):",
			 hwt_profile_origin(p, "branch:filter"));
		int err = hwt_branch_filter_parse(filter, what, &out->mode);
		if (err < 0)
			return err;
	}
	int err = hwt_profile_get_u64(p, "branch:period", out->period, &out->period);
	if (err < 0)
		return err;
	err = hwt_profile_get_u64(p, "branch:freq", out->freq, &out->freq);
	if (err < 0)
		return err;
	if (hwt_profile_get(p, "branch:period") && hwt_profile_get(p, "branch:freq"))
		return hwt_error(HWT_ERR_CONFIG, "[branch] period and freq (%s): "
				 "give one of them, a sample every PERIOD events "
				 "or FREQ samples a second",
				 hwt_profile_origin(p, "branch:period"));
	return 0;
}

int hwt_branch_sampling_of(const char *profile, bool any, const char *filter,
			   uint64_t period, uint64_t freq,
			   struct hwt_branch_sampling *out)
{
	memset(out, 0, sizeof(*out));
	out->config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	if (profile) {
		struct hwt_profile *p;
		int err = hwt_profile_load(profile, &p);
		if (err < 0)
			return err;
		err = hwt_branch_sampling_from_profile(p, out);
		hwt_profile_free(p);
		if (err < 0)
			return err;
	}
	if (any)
		out->mode = PERF_SAMPLE_BRANCH_ANY;
	if (filter) {
		int err = hwt_branch_filter_parse(filter, "-j", &out->mode);
		if (err < 0)
			return err;
	}
	/* A period or a frequency of the command line replaces both of
	 * the profile's: the two are one choice. */
	if (period || freq) {
		out->period = period;
		out->freq = freq;
	}
	return 0;
}

#define PRIV_BITS                                                           \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |              \
	 PERF_SAMPLE_BRANCH_HV)

int hwt_branch_attr_build(const struct hwt_branch_sampling *bs,
			  const struct hwt_branch_hw *hw, const char *event,
			  struct perf_event_attr *attr)
{
	if (bs->period && bs->freq)
		return hwt_error(HWT_ERR_CONFIG, "%s: a period (-c %llu) and a "
				 "frequency (-F %llu): give one of them", event,
				 (unsigned long long)bs->period,
				 (unsigned long long)bs->freq);
	uint64_t mode = bs->mode ? bs->mode : PERF_SAMPLE_BRANCH_ANY;
	int err = hwt_branch_filter_check(hw, mode, event);
	if (err < 0)
		return err;
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = bs->config;
	attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK;
	attr->branch_sample_type = mode;
	/* The event counts where the filter records (perf takes that from
	 * the event's modifier, cycles:u; one -j here says both). */
	if (mode & PRIV_BITS) {
		attr->exclude_user = !(mode & PERF_SAMPLE_BRANCH_USER);
		attr->exclude_kernel = !(mode & PERF_SAMPLE_BRANCH_KERNEL);
		attr->exclude_hv = !(mode & PERF_SAMPLE_BRANCH_HV);
	}
	if (bs->period) {
		attr->sample_period = bs->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = bs->freq ? bs->freq : PERF_DEFAULT_FREQ;
	}
	attr->sample_id_all = 1;
	attr->disabled = 1;
	return 0;
}
