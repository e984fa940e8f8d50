/* Profile validation and the event plan: every check happens here, before
 * anything is opened, and each message says what to change. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const sections[] = {
	"session", "snapshot", "sample", "intel_pt", "intel_bts", "cs_etm",
};

static const char *const session_keys[] = {
	"backend", "mode", "cpus", "per_thread", "data_size", "aux_size",
	"output", "user", "kernel",
};
static const char *const snapshot_keys[] = {
	"size", "trigger", "fifo", "interval_ms",
};
static const char *const sample_keys[] = {
	"event", "period", "aux_sample_size", "freq",
};
/* The kernels' format terms (arch/x86/events/intel/pt.c,
 * drivers/hwtracing/coresight/coresight-etm-perf.c), valid in a profile
 * even when this machine's PMU is absent or older; the keys that are not
 * format terms come last. */
static const char *const intel_pt_keys[] = {
	"pt", "cyc", "pwr_evt", "fup_on_ptw", "mtc", "tsc", "noretcomp", "ptw",
	"branch", "event", "notnt", "mtc_period", "cyc_thresh", "psb_period",
	"filter",
};
static const char *const intel_bts_keys[] = {"filter"};
static const char *const cs_etm_keys[] = {
	"cycacc", "contextid", "contextid1", "contextid2", "timestamp",
	"retstack", "branch_broadcast", "preset", "configid", "sinkid",
	"cc_threshold", "sink", "filter",
};

struct key_set {
	const char *section;
	const char *const *keys;
	size_t count;
};

static const struct key_set key_sets[] = {
	{"session", session_keys, ARRAY_LEN(session_keys)},
	{"snapshot", snapshot_keys, ARRAY_LEN(snapshot_keys)},
	{"sample", sample_keys, ARRAY_LEN(sample_keys)},
	{"intel_pt", intel_pt_keys, ARRAY_LEN(intel_pt_keys)},
	{"intel_bts", intel_bts_keys, ARRAY_LEN(intel_bts_keys)},
	{"cs_etm", cs_etm_keys, ARRAY_LEN(cs_etm_keys)},
};

/* Keys of a backend section that are not format terms. */
static int is_extra_key(const char *key)
{
	return !strcmp(key, "sink") || !strcmp(key, "filter");
}

static void join(char *buf, size_t size, const char *const *v, size_t n)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && pos < size; i++)
		pos += (size_t)snprintf(buf + pos, size - pos, "%s%s",
					i ? ", " : "", v[i]);
}

/* The valid keys of @set, plus the format terms of @pmu this machine has. */
static size_t valid_keys(const struct key_set *set, const struct hwt_pmu *pmu,
			 const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < set->count && n < max; i++)
		out[n++] = set->keys[i];
	for (size_t f = 0; pmu && f < pmu->nformats && n < max; f++) {
		size_t i;

		for (i = 0; i < n; i++)
			if (!strcmp(out[i], pmu->formats[f].name))
				break;
		if (i == n)
			out[n++] = pmu->formats[f].name;
	}
	return n;
}

static int check_keys(const struct hwt_profile *p,
		      const struct hwt_pmu_list *pmus)
{
	for (size_t i = 0; i < p->count; i++) {
		const char *full = p->entries[i].key;
		const char *colon = strchr(full, ':');
		char section[64], list[1024];
		const struct key_set *set = NULL;
		const char *keys[96], *near;
		size_t n;

		snprintf(section, sizeof(section), "%.*s", (int)(colon - full),
			 full);
		for (size_t s = 0; s < ARRAY_LEN(key_sets); s++)
			if (!strcmp(key_sets[s].section, section))
				set = &key_sets[s];
		if (!set) {
			join(list, sizeof(list), sections, ARRAY_LEN(sections));
			near = hwt_config_nearest(section, sections,
						  ARRAY_LEN(sections));
			if (near)
				return hwt_error(HWT_ERR_CONFIG,
						 "%s: unknown section [%s]; did you "
						 "mean [%s]? Sections are: %s",
						 p->entries[i].origin, section, near,
						 list);
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: unknown section [%s]. Sections are: %s",
					 p->entries[i].origin, section, list);
		}
		n = valid_keys(set, hwt_pmu_list_find(pmus, section), keys,
			       ARRAY_LEN(keys));
		for (size_t k = 0; k < n; k++)
			if (!strcmp(keys[k], colon + 1))
				goto next;
		join(list, sizeof(list), keys, n);
		near = hwt_config_nearest(colon + 1, keys, n);
		if (near)
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: unknown key \"%s\" in [%s]; did you "
					 "mean \"%s\"? Valid keys: %s",
					 p->entries[i].origin, colon + 1, section,
					 near, list);
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: unknown key \"%s\" in [%s]. Valid keys: %s",
				 p->entries[i].origin, colon + 1, section, list);
next:;
	}
	return 0;
}

static void pmu_names(const struct hwt_pmu_list *pmus, char *buf, size_t size)
{
	size_t pos = 0;

	snprintf(buf, size, "none");
	for (size_t i = 0; i < pmus->count && pos < size; i++)
		pos += (size_t)snprintf(buf + pos, size - pos, "%s%s",
					i ? ", " : "", pmus->pmus[i].name);
}

static int pick_backend(struct hwt_profile *p, const struct hwt_pmu_list *pmus,
			struct hwt_event_plan *plan)
{
	static const char *const order[] = {"intel_pt", "cs_etm", "intel_bts"};
	static const char *const names[] = {"intel_pt", "intel_bts", "cs_etm"};
	const char *name = hwt_profile_get(p, "session:backend");
	char have[256];

	pmu_names(pmus, have, sizeof(have));
	if (!name) {
		for (size_t i = 0; i < ARRAY_LEN(order) && !name; i++)
			if (hwt_pmu_list_find(pmus, order[i]))
				name = order[i];
		if (!name)
			return hwt_error(HWT_ERR_NOENT,
					 "no backend chosen and this machine has no "
					 "trace PMU hwtrace can drive (trace PMUs "
					 "here: %s); set [session] backend or run "
					 "'hwtrace list' to see why", have);
	}
	plan->backend = hwt_backend_find(name);
	if (plan->backend && !plan->backend->pmu_name)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: backend %s has no PMU, so a profile cannot "
				 "configure it; profiles drive intel_pt, intel_bts "
				 "and cs_etm",
				 hwt_config_where(p, "session:backend"), name);
	if (!plan->backend) {
		const char *near = hwt_config_nearest(name, names, ARRAY_LEN(names));

		if (near)
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: unknown backend \"%s\"; did you mean "
					 "\"%s\"? Backends with a PMU: intel_pt, "
					 "intel_bts, cs_etm",
					 hwt_config_where(p, "session:backend"), name,
					 near);
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: unknown backend \"%s\". Backends with a "
				 "PMU: intel_pt, intel_bts, cs_etm",
				 hwt_config_where(p, "session:backend"), name);
	}
	plan->pmu = hwt_pmu_list_find(pmus, plan->backend->pmu_name);
	if (!plan->pmu)
		return hwt_error(HWT_ERR_NOENT,
				 "PMU %s is not present on this machine (no "
				 "sysfs/bus/event_source/devices/%s); trace PMUs "
				 "here: %s. Pick one of those, or decode captures "
				 "from another machine with 'hwtrace decode'",
				 plan->backend->pmu_name, plan->backend->pmu_name,
				 have);
	return 0;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void size_str(uint64_t v, char *buf, size_t size)
{
	if (v >= (1ull << 30) && !(v & ((1ull << 30) - 1)))
		snprintf(buf, size, "%" PRIu64 "G", v >> 30);
	else if (v >= (1ull << 20) && !(v & ((1ull << 20) - 1)))
		snprintf(buf, size, "%" PRIu64 "M", v >> 20);
	else if (v >= (1ull << 10) && !(v & ((1ull << 10) - 1)))
		snprintf(buf, size, "%" PRIu64 "K", v >> 10);
	else
		snprintf(buf, size, "%" PRIu64, v);
}

static int check_pow2(const struct hwt_profile *p, const char *key,
		      uint64_t v, uint64_t min)
{
	char lo[32], hi[32], m[32];
	uint64_t below = 1;

	if (is_pow2(v) && v >= min)
		return 0;
	size_str(min, m, sizeof(m));
	if (v < min)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [%.*s] %s = %s is too small; the smallest "
				 "is %s", hwt_config_where(p, key),
				 (int)(strchr(key, ':') - key), key,
				 strchr(key, ':') + 1, hwt_profile_get(p, key), m);
	while (below <= v / 2)
		below <<= 1;
	size_str(below, lo, sizeof(lo));
	size_str(below * 2, hi, sizeof(hi));
	return hwt_error(HWT_ERR_CONFIG,
			 "%s: [%.*s] %s = %s is not a power of two; use %s or %s "
			 "(the kernel maps these buffers as 2^n pages)",
			 hwt_config_where(p, key), (int)(strchr(key, ':') - key),
			 key, strchr(key, ':') + 1, hwt_profile_get(p, key), lo, hi);
}

static int resolve_cpus(struct hwt_profile *p, const struct hwt_pmu_list *pmus,
			struct hwt_event_plan *plan)
{
	const char *text = hwt_profile_get(p, "session:cpus");
	int *online = NULL;
	size_t nonline = 0;
	bool per_thread;
	int ret;

	ret = hwt_profile_get_bool(p, "session:per_thread", false, &per_thread);
	if (ret)
		return ret;
	if (per_thread && text)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [session] sets both per_thread and cpus; "
				 "trace either per thread or on CPUs: remove one",
				 hwt_config_where(p, "session:cpus"));
	p->per_thread = per_thread;
	plan->per_thread = per_thread;
	if (per_thread)
		return 0;
	if (pmus->cpus_online[0]) {
		ret = hwt_cpu_list_parse(pmus->cpus_online, &online, &nonline);
		if (ret)
			return hwt_error(HWT_ERR_FORMAT,
					 "sysfs/devices/system/cpu/online holds "
					 "\"%s\", not a CPU list", pmus->cpus_online);
	}
	if (!text || !strcasecmp(text, "all")) {
		if (!online)
			return hwt_error(HWT_ERR_CONFIG,
					 "cannot tell which CPUs are online (no "
					 "sysfs/devices/system/cpu/online); set "
					 "[session] cpus, e.g. cpus = 0-3");
		plan->cpus = online;
		plan->ncpus = nonline;
	} else {
		ret = hwt_cpu_list_parse(text, &plan->cpus, &plan->ncpus);
		if (ret) {
			free(online);
			return hwt_error(HWT_ERR_CONFIG, "%s: [session] cpus: %s",
					 hwt_config_where(p, "session:cpus"),
					 hwt_errmsg());
		}
		for (size_t i = 0; online && i < plan->ncpus; i++) {
			bool found = false;

			for (size_t j = 0; j < nonline; j++)
				found |= online[j] == plan->cpus[i];
			if (!found) {
				int cpu = plan->cpus[i];

				free(online);
				return hwt_error(HWT_ERR_CONFIG,
						 "%s: [session] cpus names CPU %d, "
						 "which is not online here (online: "
						 "%s)", hwt_config_where(p, "session:cpus"),
						 cpu, pmus->cpus_online);
			}
		}
		free(online);
	}
	p->cpus = malloc(plan->ncpus * sizeof(int) + 1);
	if (!p->cpus)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	memcpy(p->cpus, plan->cpus, plan->ncpus * sizeof(int));
	p->ncpus = plan->ncpus;
	return 0;
}

static int parse_mode(struct hwt_profile *p, struct hwt_event_plan *plan)
{
	const char *m = hwt_profile_get(p, "session:mode");

	plan->mode = HWT_MODE_FULL;
	if (!m || !strcmp(m, "full"))
		;
	else if (!strcmp(m, "snapshot"))
		plan->mode = HWT_MODE_SNAPSHOT;
	else if (!strcmp(m, "sample"))
		plan->mode = HWT_MODE_SAMPLE;
	else
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [session] mode = %s is not a mode; use full, "
				 "snapshot or sample",
				 hwt_config_where(p, "session:mode"), m);
	p->mode = plan->mode;
	return 0;
}

static int parse_sizes(struct hwt_profile *p, struct hwt_event_plan *plan)
{
	uint64_t data, aux, snap, min_aux;
	long ps = sysconf(_SC_PAGESIZE);
	int ret;

	plan->page_size = ps > 0 ? (uint64_t)ps : 4096;
	/* perf's smallest AUX areas: 2 pages in full-trace mode, 1 page in
	 * snapshot and sample mode (perf-intel-pt.txt). */
	min_aux = plan->mode == HWT_MODE_FULL ? 2 * plan->page_size
					      : plan->page_size;
	if ((ret = hwt_profile_get_size(p, "session:data_size", 512 << 10, &data)) ||
	    (ret = hwt_profile_get_size(p, "session:aux_size", 4 << 20, &aux)) ||
	    (ret = check_pow2(p, "session:data_size", data, plan->page_size)) ||
	    (ret = check_pow2(p, "session:aux_size", aux, min_aux)))
		return ret;
	plan->data_pages = data / plan->page_size;
	plan->aux_pages = aux / plan->page_size;
	if (plan->mode != HWT_MODE_SNAPSHOT)
		return 0;
	ret = hwt_profile_get_size(p, "snapshot:size", aux, &snap);
	if (ret)
		return ret;
	if (snap > aux || !snap)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [snapshot] size = %s must be between 1 and "
				 "the AUX area size %" PRIu64 " ([session] aux_size)",
				 hwt_config_where(p, "snapshot:size"),
				 hwt_profile_get(p, "snapshot:size"), aux);
	plan->snapshot_size = snap;
	return 0;
}

static int parse_trigger(struct hwt_profile *p, struct hwt_event_plan *plan)
{
	const char *t = hwt_profile_get(p, "snapshot:trigger");
	const char *fifo = hwt_profile_get(p, "snapshot:fifo");
	int ret;

	plan->trigger = HWT_TRIGGER_SIGNAL;
	if (!t || !strcmp(t, "signal"))
		;
	else if (!strcmp(t, "fifo"))
		plan->trigger = HWT_TRIGGER_FIFO;
	else if (!strcmp(t, "timer"))
		plan->trigger = HWT_TRIGGER_TIMER;
	else if (!strcmp(t, "exit"))
		plan->trigger = HWT_TRIGGER_EXIT;
	else
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [snapshot] trigger = %s; use signal (SIGUSR2), "
				 "fifo, timer or exit",
				 hwt_config_where(p, "snapshot:trigger"), t);
	if (plan->trigger == HWT_TRIGGER_FIFO) {
		if (!fifo || !*fifo)
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: [snapshot] trigger = fifo needs "
					 "[snapshot] fifo = PATH",
					 hwt_config_where(p, "snapshot:trigger"));
		snprintf(plan->trigger_fifo, sizeof(plan->trigger_fifo), "%s", fifo);
	}
	ret = hwt_profile_get_u64(p, "snapshot:interval_ms", 1000,
				  &plan->trigger_interval_ms);
	if (ret)
		return ret;
	if (plan->trigger == HWT_TRIGGER_TIMER && !plan->trigger_interval_ms)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [snapshot] interval_ms must be at least 1",
				 hwt_config_where(p, "snapshot:interval_ms"));
	return 0;
}

/* Address filters as perf's --filter takes them: comma-separated, each
 * "filter|start|stop|tracestop ADDR[/SIZE] [@FILE]". */
static int parse_filters(struct hwt_profile *p, struct hwt_event_plan *plan)
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
	for (char *save = NULL, *f = strtok_r(buf, ",", &save); f;
	     f = strtok_r(NULL, ",", &save)) {
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

	if (is_extra_key(key))
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
static int choose_sink(struct hwt_profile *p, struct hwt_event_plan *plan)
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

static void common_attr(struct perf_event_attr *a, bool per_cpu, bool user,
			bool kernel)
{
	a->size = sizeof(*a);
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_IDENTIFIER;
	if (per_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	a->read_format = PERF_FORMAT_ID;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->sample_id_all = 1;
	/* perf sets exclude_guest unless G or H is asked for. */
	a->exclude_guest = 1;
	/* perf's u and k modifiers also exclude the hypervisor. */
	if (!user || !kernel) {
		a->exclude_user = !user;
		a->exclude_kernel = !kernel;
		a->exclude_hv = 1;
	}
}

struct sample_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct sample_event sample_events[] = {
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	{"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	{"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
	{"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	{"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
	{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
};

static int build_sample(struct hwt_profile *p, struct hwt_event_plan *plan,
			bool user, bool kernel)
{
	const char *ev = hwt_profile_get(p, "sample:event");
	const struct sample_event *se = NULL;
	struct perf_event_attr *a = &plan->sample_attr;
	uint64_t period, size, freq;
	int ret;

	if (!plan->backend->aux_sampling)
		return hwt_error(HWT_ERR_NOSUP,
				 "%s: [session] mode = sample: %s cannot serve "
				 "AUX samples; use full or snapshot",
				 hwt_config_where(p, "session:mode"),
				 plan->pmu->name);
	if (!ev)
		ev = "cycles";
	for (size_t i = 0; i < ARRAY_LEN(sample_events); i++)
		if (!strcmp(sample_events[i].name, ev))
			se = &sample_events[i];
	if (!se)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [sample] event = %s; use cycles, "
				 "instructions, branches, branch-misses, "
				 "cache-misses, cpu-clock or task-clock",
				 hwt_config_where(p, "sample:event"), ev);
	if ((ret = hwt_profile_get_u64(p, "sample:freq", 0, &freq)))
		return ret;
	if ((ret = hwt_profile_get_u64(p, "sample:period", 0, &period)) ||
	    (ret = hwt_profile_get_size(p, "sample:aux_sample_size", 4096, &size)))
		return ret;
	/* perf refuses samples above 60 KiB: a sample record is at most
	 * 64 KiB with its headers. */
	if (!size || size > 60 * 1024)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [sample] aux_sample_size = %" PRIu64 " must "
				 "be between 1 and 61440 (60K)",
				 hwt_config_where(p, "sample:aux_sample_size"), size);
	common_attr(a, !plan->per_thread, user, kernel);
	a->type = se->type;
	a->config = se->config;
	if (period && freq)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [sample] period and freq are both set; "
				 "give one of them",
				 hwt_config_where(p, "sample:freq"));
	if (period) {
		a->sample_period = period;
	} else if (freq) {
		a->freq = 1;
		a->sample_freq = freq;
	} else {
		a->freq = 1;
		a->sample_freq = 4000; /* perf record's default -F */
	}
	a->sample_type |= PERF_SAMPLE_AUX;
	a->aux_sample_size = (uint32_t)size;
	a->disabled = 0;
	a->enable_on_exec = 0;
	plan->has_sample_attr = true;
	return 0;
}

static void sideband_attr(struct hwt_event_plan *plan)
{
	struct perf_event_attr *a = &plan->sideband_attr;

	common_attr(a, !plan->per_thread, true, false);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->context_switch = 1;
}

int hwt_profile_build_attrs(struct hwt_profile *p, const struct hwt_os *os,
			    const struct hwt_pmu_list *pmus,
			    struct hwt_event_plan *plan)
{
	const char *out;
	bool user, kernel;
	struct term_ctx tc;
	int ret;

	if (!p || !os || !pmus || !plan)
		return hwt_error(HWT_ERR_INVAL, "hwt_profile_build_attrs: NULL argument");
	memset(plan, 0, sizeof(*plan));
	free(p->cpus);
	p->cpus = NULL;
	p->ncpus = 0;
	if ((ret = check_keys(p, pmus)) || (ret = pick_backend(p, pmus, plan)) ||
	    (ret = parse_mode(p, plan)) || (ret = resolve_cpus(p, pmus, plan)) ||
	    (ret = parse_sizes(p, plan)) ||
	    (ret = hwt_profile_get_bool(p, "session:user", true, &user)) ||
	    (ret = hwt_profile_get_bool(p, "session:kernel", true, &kernel)))
		goto fail;
	if (!user && !kernel) {
		ret = hwt_error(HWT_ERR_CONFIG,
				"%s: [session] user = no and kernel = no leave "
				"nothing to trace; enable one",
				hwt_config_where(p, "session:user"));
		goto fail;
	}
	if (plan->mode == HWT_MODE_SNAPSHOT && (ret = parse_trigger(p, plan)))
		goto fail;
	if ((ret = parse_filters(p, plan)))
		goto fail;
	common_attr(&plan->aux_attr, !plan->per_thread, user, kernel);
	plan->aux_attr.type = plan->pmu->type;
	tc.p = p;
	tc.pmu = plan->pmu;
	tc.attr = &plan->aux_attr;
	if ((ret = hwt_profile_foreach(p, plan->pmu->name, apply_term, &tc)) ||
	    (ret = choose_sink(p, plan)))
		goto fail;
	if (plan->backend->record && plan->backend->record->configure &&
	    (ret = plan->backend->record->configure(os, plan->pmu, p,
						     &plan->aux_attr)))
		goto fail;
	if (plan->mode == HWT_MODE_SAMPLE) {
		if ((ret = build_sample(p, plan, user, kernel)))
			goto fail;
		/* The AUX event leads the group and is enabled by it. */
	}
	sideband_attr(plan);
	out = hwt_profile_get(p, "session:output");
	snprintf(plan->output, sizeof(plan->output), "%s",
		 out && *out ? out : "perf.data");
	return 0;
fail:
	hwt_event_plan_release(plan);
	return ret;
}

void hwt_event_plan_release(struct hwt_event_plan *plan)
{
	if (!plan)
		return;
	free(plan->cpus);
	memset(plan, 0, sizeof(*plan));
}
