/* The trace (AUX) event of the plan: address filters, the backend
 * section's format terms, and the CoreSight sink. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/config_build.h"
#include "core/config/config_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

/* Address filters as perf's --filter takes them: separated by commas or
 * newlines, each "filter|start|stop|tracestop ADDR[/SIZE] [@FILE]". The
 * symbols are resolved when recording (hwtrace/addrfilter.h). */
int hwt_config_parse_filters(struct hwt_profile *p, struct hwt_event_plan *plan)
{
	char key[96], buf[512];
	const char *text;
	size_t n = 0;

	snprintf(key, sizeof(key), "%s:filter", plan->pmu->name);
	text = hwt_profile_get(p, key);
	if (!text || !*text)
		return 0;
	if (strlen(text) >= sizeof(buf))
		return hwt_error(HWT_ERR_CONFIG, "%s: [%s] filter is longer than "
				 "%zu characters", hwt_config_where(p, key),
				 plan->pmu->name, sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *save = NULL, *f = strtok_r(buf, ",\n", &save); f;
	     f = strtok_r(NULL, ",\n", &save)) {
		char action[16], where[256];

		if (sscanf(f, " %15s %255s", action, where) != 2 ||
		    (strcmp(action, "filter") && strcmp(action, "start") &&
		     strcmp(action, "stop") && strcmp(action, "tracestop")))
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: [%s] filter \"%s\": each filter is "
					 "\"filter|start|stop|tracestop ADDR[/SIZE] "
					 "[@FILE]\", e.g. filter main @ /bin/ls",
					 hwt_config_where(p, key), plan->pmu->name, f);
		n++;
	}
	if (plan->pmu->nr_addr_filters <= 0)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [%s] filter: %s has no address filters "
				 "(nr_addr_filters is %s); remove the filter",
				 hwt_config_where(p, key), plan->pmu->name,
				 plan->pmu->name,
				 plan->pmu->nr_addr_filters < 0 ? "absent" : "0");
	if (n > (size_t)plan->pmu->nr_addr_filters)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [%s] filter has %zu address filters but %s "
				 "supports %d (nr_addr_filters); remove %zu",
				 hwt_config_where(p, key), plan->pmu->name, n,
				 plan->pmu->name, plan->pmu->nr_addr_filters,
				 n - (size_t)plan->pmu->nr_addr_filters);
	snprintf(plan->filter, sizeof(plan->filter), "%s", text);
	plan->nfilters = n;
	return 0;
}

struct term_ctx {
	const struct hwt_profile *p;
	const struct hwt_pmu *pmu;
	struct perf_event_attr *attr;
};

static int apply_term(void *arg, const char *key, const char *value)
{
	struct term_ctx *c = arg;
	const struct hwt_pmu_format *fmt;
	char full[128];
	uint64_t v;
	int ret;

	if (hwt_config_is_extra_key(key))
		return 0;
	snprintf(full, sizeof(full), "%s:%s", c->pmu->name, key);
	fmt = hwt_pmu_format(c->pmu, key);
	if (!fmt)
		return hwt_error(HWT_ERR_NOSUP,
				 "%s: [%s] %s: this machine's %s has no format "
				 "term %s (its kernel is older or the hardware "
				 "lacks it); remove the key",
				 hwt_config_where(c->p, full), c->pmu->name, key,
				 c->pmu->name, key);
	ret = hwt_profile_get_u64(c->p, full, 0, &v);
	if (ret)
		return ret;
	ret = hwt_pmu_format_set(fmt, v, c->attr);
	if (ret) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
		return hwt_error(ret, "%s: [%s] %s = %s: %s",
				 hwt_config_where(c->p, full), c->pmu->name, key,
				 value, msg);
	}
	return 0;
}

int hwt_config_apply_terms(struct hwt_profile *p, struct hwt_event_plan *plan)
{
	struct term_ctx tc;

	tc.p = p;
	tc.pmu = plan->pmu;
	tc.attr = &plan->aux_attr;
	return hwt_profile_foreach(p, plan->pmu->name, apply_term, &tc);
}

static void unit_cpus(const struct hwt_pmu *pmu, const int *cpus, size_t n,
		      bool want_trbe, char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && pos < size; i++) {
		const struct hwt_trace_unit *u = hwt_pmu_trace_unit(pmu, cpus[i]);

		if ((u && u->trbe) == want_trbe)
			pos += (size_t)snprintf(buf + pos, size - pos, "%s%d",
						pos ? "," : "", cpus[i]);
	}
}

/* CoreSight sink choice: the one named, else every traced CPU's TRBE, else
 * an ETR (system memory), else an ETF. */
int hwt_config_choose_sink(struct hwt_profile *p, struct hwt_event_plan *plan)
{
	const struct hwt_pmu *pmu = plan->pmu;
	const struct hwt_pmu_format *fmt;
	const struct hwt_pmu_sink *sink = NULL;
	int *all = NULL;
	const int *cpus = plan->cpus;
	size_t ncpus = plan->ncpus;
	char key[96], missing[200];
	const char *name;
	bool every_trbe;

	snprintf(key, sizeof(key), "%s:sink", pmu->name);
	name = hwt_profile_get(p, key);
	if (!pmu->nsinks && !name)
		return 0;
	if (name && *name == '@')
		name++;
	if (name && *name) {
		char list[768];
		size_t pos = 0;

		sink = hwt_pmu_sink(pmu, name);
		if (!sink) {
			snprintf(list, sizeof(list), "none");
			for (size_t i = 0; i < pmu->nsinks && pos < sizeof(list); i++)
				pos += (size_t)snprintf(list + pos, sizeof(list) - pos,
							"%s%s", i ? ", " : "",
							pmu->sinks[i].name);
			return hwt_error(HWT_ERR_NOENT,
					 "%s: [%s] sink = %s: no such sink on this "
					 "machine (sysfs/bus/event_source/devices/"
					 "%s/sinks/%s); sinks here: %s",
					 hwt_config_where(p, key), pmu->name, name,
					 pmu->name, name, list);
		}
		snprintf(plan->sink_reason, sizeof(plan->sink_reason),
			 "named in the profile (%s)", hwt_config_where(p, key));
	} else {
		if (plan->per_thread) {
			all = malloc((pmu->nunits + 1) * sizeof(int));
			if (!all)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			for (size_t i = 0; i < pmu->nunits; i++)
				all[i] = pmu->units[i].cpu;
			cpus = all;
			ncpus = pmu->nunits;
		}
		unit_cpus(pmu, cpus, ncpus, false, missing, sizeof(missing));
		every_trbe = ncpus && !missing[0];
		free(all);
		if (every_trbe) {
			plan->sink_is_trbe = true;
			snprintf(plan->sink_reason, sizeof(plan->sink_reason),
				 "every traced CPU has a TRBE; with no sink named "
				 "the kernel uses each CPU's own TRBE");
			return 0;
		}
		for (size_t i = 0; i < pmu->nsinks && !sink; i++)
			if (!strncmp(pmu->sinks[i].name, "tmc_etr", 7))
				sink = &pmu->sinks[i];
		for (size_t i = 0; i < pmu->nsinks && !sink; i++)
			if (!strncmp(pmu->sinks[i].name, "tmc_etf", 7))
				sink = &pmu->sinks[i];
		if (!sink) {
			snprintf(plan->sink_reason, sizeof(plan->sink_reason),
				 "no TRBE on CPU %s and no ETR or ETF sink: "
				 "the kernel picks its default sink", missing);
			return 0;
		}
		snprintf(plan->sink_reason, sizeof(plan->sink_reason),
			 "CPU %s ha%s no TRBE, so trace goes through the %s %s",
			 missing, strchr(missing, ',') ? "ve" : "s",
			 strncmp(sink->name, "tmc_etr", 7) ? "ETF" : "ETR",
			 sink->name);
	}
	snprintf(plan->sink, sizeof(plan->sink), "%s", sink->name);
	plan->sink_id = sink->id;
	plan->sink_is_trbe = !strncmp(sink->name, "trbe", 4);
	fmt = hwt_pmu_format(pmu, "sinkid");
	if (fmt)
		return hwt_pmu_format_set(fmt, sink->id, &plan->aux_attr);
	/* Kernels before the sinkid format term took the id in config2. */
	plan->aux_attr.config2 = (plan->aux_attr.config2 & ~0xffffffffull) |
				 sink->id;
	return 0;
}
