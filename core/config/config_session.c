/* Profile validation of [session] and [snapshot]: the backend, mode,
 * CPUs, buffer sizes and snapshot trigger of the event plan. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config/config_build.h"
#include "core/config/config_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

static void pmu_names(const struct hwt_pmu_list *pmus, char *buf, size_t size)
{
	size_t pos = 0;

	snprintf(buf, size, "none");
	for (size_t i = 0; i < pmus->count && pos < size; i++)
		pos += (size_t)snprintf(buf + pos, size - pos, "%s%s",
					i ? ", " : "", pmus->pmus[i].name);
}

int hwt_config_pick_backend(struct hwt_profile *p,
			    const struct hwt_pmu_list *pmus,
			    struct hwt_event_plan *plan)
{
	static const char *const order[] = {"intel_pt", "cs_etm", "intel_bts"};
	static const char *const names[] = {"intel_pt", "intel_bts", "cs_etm",
					    "riscv_ntrace"};
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
				 "configure it; profiles drive intel_pt, intel_bts, "
				 "cs_etm and riscv_ntrace",
				 hwt_config_where(p, "session:backend"), name);
	if (!plan->backend) {
		const char *near = hwt_config_nearest(name, names, ARRAY_LEN(names));

		if (near)
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: unknown backend \"%s\"; did you mean "
					 "\"%s\"? Backends with a PMU: intel_pt, "
					 "intel_bts, cs_etm, riscv_ntrace",
					 hwt_config_where(p, "session:backend"), name,
					 near);
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: unknown backend \"%s\". Backends with a "
				 "PMU: intel_pt, intel_bts, cs_etm, riscv_ntrace",
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

int hwt_config_resolve_cpus(struct hwt_profile *p,
			    const struct hwt_pmu_list *pmus,
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

int hwt_config_parse_mode(struct hwt_profile *p, struct hwt_event_plan *plan)
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

int hwt_config_parse_sizes(struct hwt_profile *p, struct hwt_event_plan *plan)
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

int hwt_config_parse_trigger(struct hwt_profile *p, struct hwt_event_plan *plan)
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
				 "fifo, timer or exit (symbol:, latency: and "
				 "signal: triggers are sw_branch's: hwtrace record "
				 "-e sw_branch -c FILE)",
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
