/* AUX sampling on the command line (docs/record.md): what `-e
 * cycles/period=N/` beside the trace event and `--aux-sample[=SIZE]`
 * mean, as the profile's [sample] keys and session:mode = sample, and
 * the session options a built plan (or a replayed capture) gives them. */
#include <stdio.h>
#include <string.h>

#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"
#include "hwtrace/recorder.h"
#include "hwtrace/sample.h"
#include "hwtrace/session.h"

bool hwt_record_sample_event_named(const char *event)
{
	char name[64];

	if (!event)
		return false;
	/* The name ends at its terms ('/') or its modifiers (':'). */
	size_t len = strcspn(event, "/:");
	if (len >= sizeof(name))
		return false;
	memcpy(name, event, len);
	name[len] = '\0';
	return hwt_sample_event_find(name, NULL, NULL) != NULL;
}

/* One term of "cycles/TERMS/": its [sample] key, or NULL. */
static const char *term_key(const char *term)
{
	static const struct {
		const char *term, *key;
	} terms[] = {
		{"period", "sample:period"},
		{"freq", "sample:freq"},
		{"aux-sample-size", "sample:aux_sample_size"},
	};
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
		if (!strcmp(term, terms[i].term))
			return terms[i].key;
	return NULL;
}

/* "cycles/period=N,aux-sample-size=S/u" into [sample]: the name, then
 * perf's terms; the modifiers are the trace event's. *@has_size: the
 * aux-sample-size term was given. */
static int event_keys(struct hwt_profile *p, const char *event, bool *has_size)
{
	char buf[256];
	int err;

	snprintf(buf, sizeof(buf), "%s", event);
	char *sep = strpbrk(buf, "/:");
	if (!sep || *sep == ':') {
		if (sep)
			*sep = '\0';
		return hwt_profile_set_from(p, "sample:event", buf, "-e");
	}
	*sep = '\0';
	char *terms = sep + 1, *end = strchr(terms, '/');
	if (!end)
		return hwt_error(HWT_ERR_CONFIG, "-e %s: a '/' is missing after "
				 "the terms (e.g. cycles/period=100000/)", event);
	*end = '\0';
	if ((err = hwt_profile_set_from(p, "sample:event", buf, "-e")) < 0)
		return err;
	char *save = NULL;
	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq++ = '\0';
		const char *key = term_key(t);
		if (!key || !eq || !*eq)
			return hwt_error(HWT_ERR_CONFIG, "-e %s: term '%s' is not "
					 "one of period=N, freq=N, "
					 "aux-sample-size=SIZE", event, t);
		if (!strcmp(key, "sample:aux_sample_size"))
			*has_size = true;
		if ((err = hwt_profile_set_from(p, key, eq, "-e")) < 0)
			return err;
	}
	return 0;
}

int hwt_record_sample_profile(struct hwt_profile *p, const char *event,
			      bool aux_sample, const char *size)
{
	bool has_size = false;
	int err;

	if (event && (err = event_keys(p, event, &has_size)) < 0)
		return err;
	if (!aux_sample && !has_size)
		return hwt_error(HWT_ERR_CONFIG, "-e %s: a sampling event beside "
				 "the trace needs --aux-sample[=SIZE] (or its "
				 "aux-sample-size term): each sample then carries "
				 "the trace before it", event ? event : "");
	if (size && *size &&
	    (err = hwt_profile_set_from(p, "sample:aux_sample_size", size,
					"--aux-sample")) < 0)
		return err;
	return hwt_profile_set_from(p, "session:mode", "sample",
				    aux_sample ? "--aux-sample" : "-e");
}

int hwt_record_sample_session(const struct hwt_profile *p,
			      const struct hwt_event_plan *plan,
			      struct hwt_session_opts *so, char *warn,
			      size_t warn_size)
{
	const struct hwt_pmu_format *fmt =
		plan->pmu ? hwt_pmu_format(plan->pmu, "psb_period") : NULL;
	int psb = fmt ? (int)hwt_pmu_format_get(fmt, &plan->aux_attr) : -1;
	const char *ev = hwt_profile_get(p, "sample:event");

	int err = hwt_aux_sample_size_check(plan->sample_attr.aux_sample_size,
					    psb, "--aux-sample", warn, warn_size);
	if (err < 0) {
		warn[0] = '\0';
		return err;
	}
	so->aux_sample = true;
	so->sample_attr = plan->sample_attr;
	so->sample_name = ev ? ev : "cycles";
	return 0;
}

/* The [sample] keys of a replay's sampling event, read back as numbers. */
struct sample_keys {
	uint64_t period, freq, size;
};

static int read_keys(const struct hwt_profile *p, const char *event,
		     struct sample_keys *k)
{
	int err = hwt_profile_get_u64(p, "sample:period", 0, &k->period);
	if (!err)
		err = hwt_profile_get_u64(p, "sample:freq", 0, &k->freq);
	if (!err)
		err = hwt_profile_get_size(p, "sample:aux_sample_size",
					   HWT_AUX_SAMPLE_DEFAULT_SIZE, &k->size);
	if (!err && k->period && k->freq)
		err = hwt_error(HWT_ERR_CONFIG, "-e %s: give period or freq, "
				"not both", event);
	return err;
}

/* The sampling event's attribute in the sample id layout of the replayed
 * capture's trace event @aux_attr, so that its records and the samples
 * read alike. */
static void replay_attr(struct perf_event_attr *a, uint32_t type,
			uint64_t config, const struct sample_keys *k,
			const struct perf_event_attr *aux_attr)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->sample_type = aux_attr->sample_type | PERF_SAMPLE_AUX;
	a->sample_id_all = aux_attr->sample_id_all;
	a->read_format = aux_attr->read_format;
	if (k->freq) {
		a->freq = 1;
		a->sample_freq = k->freq;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	} else {
		a->sample_period = k->period ? k->period : HWT_AUX_SAMPLE_DEFAULT_SIZE;
	}
	a->aux_sample_size = (uint32_t)k->size;
}

int hwt_record_sample_replay(const char *event, bool aux_sample,
			     const char *size,
			     const struct perf_event_attr *aux_attr,
			     struct hwt_session_opts *so, char *warn,
			     size_t warn_size)
{
	struct hwt_profile *p = hwt_profile_new();
	struct sample_keys k = {0};
	uint32_t type = 0;
	uint64_t config = 0;

	warn[0] = '\0';
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!event)
		event = "cycles";
	int err = hwt_record_sample_profile(p, event, aux_sample, size);
	if (!err)
		err = read_keys(p, event, &k);
	/* intel_pt's psb_period format term is config:24-27. */
	bool intel_pt = so->backend &&
			so->backend->auxtrace_type == HWT_AUXTRACE_INTEL_PT;
	if (!err)
		err = hwt_aux_sample_size_check(k.size, intel_pt ?
						(int)((aux_attr->config >> 24) & 0xf) : -1,
						"--aux-sample", warn, warn_size);
	const char *name = hwt_profile_get(p, "sample:event");
	const char *known = NULL;
	if (!err && !(known = hwt_sample_event_find(name, &type, &config)))
		err = hwt_error(HWT_ERR_CONFIG, "-e %s: not a sampling event", name);
	if (err < 0) {
		warn[0] = '\0';
		hwt_profile_free(p);
		return err;
	}
	replay_attr(&so->sample_attr, type, config, &k, aux_attr);
	so->aux_sample = true;
	so->sample_name = known; /* static: the profile is freed here */
	hwt_profile_free(p);
	return 0;
}
