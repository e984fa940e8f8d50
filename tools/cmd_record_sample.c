/* hwtrace record --aux-sample: the sampling event of AUX sampling mode
 * (`-e cycles/period=N/`, `--aux-sample[=SIZE]`) into the profile's
 * [sample] section, and the session options it needs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"
#include "hwtrace/sample.h"
#include "hwtrace/session.h"

static const char *const sample_names[] = {
	"cycles", "instructions", "branches", "branch-misses", "cache-misses",
	"cpu-clock", "task-clock",
};

bool cli_sample_event_name(const char *ev)
{
	for (size_t i = 0; i < sizeof(sample_names) / sizeof(*sample_names); i++) {
		size_t n = strlen(sample_names[i]);
		if (!strncmp(ev, sample_names[i], n) &&
		    (ev[n] == 0 || ev[n] == '/' || ev[n] == ':'))
			return true;
	}
	return false;
}

static int set(struct hwt_profile *p, const char *key, const char *value,
	       const char *origin)
{
	return hwt_profile_set_from(p, key, value, origin);
}

/* "cycles/period=N,aux-sample-size=S/u": name, then perf's terms. */
static int parse_terms(struct hwt_profile *p, const char *ev, bool *has_size)
{
	char buf[256], *slash, *terms, *end;
	int ret;

	snprintf(buf, sizeof(buf), "%s", ev);
	slash = strpbrk(buf, "/:");
	if (slash && *slash == ':')
		*slash = 0; /* modifiers: the trace event's decide */
	if (!slash || !*slash) {
		return set(p, "sample:event", buf, "-e");
	}
	*slash = 0;
	terms = slash + 1;
	end = strchr(terms, '/');
	if (!end)
		return hwt_error(HWT_ERR_CONFIG, "-e %s: a '/' is missing after "
				 "the terms (e.g. cycles/period=100000/)", ev);
	*end = 0;
	if ((ret = set(p, "sample:event", buf, "-e")) < 0)
		return ret;
	for (char *t = strtok(terms, ","); t; t = strtok(NULL, ",")) {
		char *eq = strchr(t, '=');
		const char *key = NULL;
		if (eq)
			*eq++ = 0;
		if (!strcmp(t, "period"))
			key = "sample:period";
		else if (!strcmp(t, "freq"))
			key = "sample:freq";
		else if (!strcmp(t, "aux-sample-size"))
			key = "sample:aux_sample_size";
		if (!key || !eq || !*eq)
			return hwt_error(HWT_ERR_CONFIG,
					 "-e %s: term '%s' is not one of period=N, "
					 "freq=N, aux-sample-size=SIZE", ev, t);
		if (!strcmp(key, "sample:aux_sample_size"))
			*has_size = true;
		if ((ret = set(p, key, eq, "-e")) < 0)
			return ret;
	}
	return 0;
}

int cli_sample_profile(struct hwt_profile *p, const char *event, bool aux_sample,
		       const char *size)
{
	bool has_size = false;
	int ret = 0;

	if (event && (ret = parse_terms(p, event, &has_size)) < 0)
		return ret;
	if (!aux_sample && !has_size)
		return hwt_error(HWT_ERR_CONFIG,
				 "-e %s: a sampling event beside the trace needs "
				 "--aux-sample[=SIZE] (or its aux-sample-size term): "
				 "each sample then carries the trace before it", event);
	if (size && *size && (ret = set(p, "sample:aux_sample_size", size,
					"--aux-sample")) < 0)
		return ret;
	return set(p, "session:mode", "sample", aux_sample ? "--aux-sample" : "-e");
}

int cli_sample_session(const struct hwt_profile *p,
		       const struct hwt_event_plan *plan,
		       struct hwt_session_opts *so)
{
	char warn[512];
	int psb = -1;
	const struct hwt_pmu_format *fmt =
		plan->pmu ? hwt_pmu_format(plan->pmu, "psb_period") : NULL;
	const char *ev = hwt_profile_get(p, "sample:event");

	if (fmt)
		psb = (int)hwt_pmu_format_get(fmt, &plan->aux_attr);
	int ret = hwt_aux_sample_size_check(plan->sample_attr.aux_sample_size, psb,
					    "--aux-sample", warn, sizeof(warn));
	if (ret < 0)
		return ret;
	if (warn[0])
		fprintf(stderr, "hwtrace record: warning: %s\n", warn);
	so->aux_sample = true;
	so->sample_attr = plan->sample_attr;
	so->sample_name = ev ? ev : "cycles";
	return 0;
}

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} sample_types[] = {
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	{"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
	{"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	{"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
	{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
};

int cli_sample_replay(const char *event, bool aux_sample, const char *size,
		      const struct perf_event_attr *aux_attr, bool intel_pt,
		      struct hwt_session_opts *so)
{
	struct hwt_profile *p = hwt_profile_new();
	uint64_t period = 0, freq = 0, sz = 0;
	char warn[512];
	int ret;

	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	ret = cli_sample_profile(p, event ? event : "cycles", aux_sample, size);
	if (!ret)
		ret = hwt_profile_get_u64(p, "sample:period", 0, &period);
	if (!ret)
		ret = hwt_profile_get_u64(p, "sample:freq", 0, &freq);
	if (!ret)
		ret = hwt_profile_get_size(p, "sample:aux_sample_size",
					   HWT_AUX_SAMPLE_DEFAULT_SIZE, &sz);
	if (!ret && period && freq)
		ret = hwt_error(HWT_ERR_CONFIG, "-e %s: give period or freq, "
				"not both", event);
	/* intel_pt's psb_period format term is config:24-27. */
	if (!ret)
		ret = hwt_aux_sample_size_check(sz, intel_pt ?
						(int)((aux_attr->config >> 24) & 0xf) : -1,
						"--aux-sample", warn, sizeof(warn));
	const char *name = hwt_profile_get(p, "sample:event");
	struct perf_event_attr *a = &so->sample_attr;
	size_t i = 0;
	while (!ret && i < sizeof(sample_types) / sizeof(*sample_types) &&
	       strcmp(sample_types[i].name, name))
		i++;
	if (!ret && i == sizeof(sample_types) / sizeof(*sample_types))
		ret = hwt_error(HWT_ERR_CONFIG, "-e %s: not a sampling event", name);
	if (ret < 0) {
		hwt_profile_free(p);
		return ret;
	}
	if (warn[0])
		fprintf(stderr, "hwtrace record: warning: %s\n", warn);
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = sample_types[i].type;
	a->config = sample_types[i].config;
	/* The replayed capture's sample id layout, so that its records and
	 * the samples read alike. */
	a->sample_type = aux_attr->sample_type | PERF_SAMPLE_AUX;
	a->sample_id_all = aux_attr->sample_id_all;
	a->read_format = aux_attr->read_format;
	if (freq) {
		a->freq = 1;
		a->sample_freq = freq;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	} else {
		a->sample_period = period ? period : HWT_AUX_SAMPLE_DEFAULT_SIZE;
	}
	a->aux_sample_size = (uint32_t)sz;
	so->aux_sample = true;
	so->sample_name = sample_types[i].name;
	hwt_profile_free(p);
	return 0;
}
