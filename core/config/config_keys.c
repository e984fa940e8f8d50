/* Profile validation, first step: every section and key must be known
 * (a backend section also takes the format terms of this machine's PMU);
 * an unknown one is named with its nearest valid spelling. */
#include <stdio.h>
#include <string.h>

#include "core/config/config_build.h"
#include "core/config/config_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

static const char *const sections[] = {
	"session", "snapshot", "sample", "intel_pt", "intel_bts", "cs_etm",
	"rvtrace", "branch",
};

static const char *const session_keys[] = {
	"backend", "mode", "cpus", "per_thread", "data_size", "aux_size",
	"output", "user", "kernel",
};
static const char *const snapshot_keys[] = {
	"size", "trigger", "fifo", "interval_ms", "trigger_count",
};
/* Branch-stack sampling (config_branch_attr.c). */
static const char *const branch_keys[] = {"filter", "period", "freq", "group"};
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
/* The RISC-V trace framework series' driver has the one format term;
 * the rest say how the trace encoder is set up (the decoder's options,
 * docs/riscv.md). */
static const char *const rvtrace_keys[] = {
	"event", "xlen", "callstack", "src", "ts", "extaddr",
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
	{"rvtrace", rvtrace_keys, ARRAY_LEN(rvtrace_keys)},
	{"branch", branch_keys, ARRAY_LEN(branch_keys)},
};

/* Keys of a backend section that are not format terms (the rvtrace
 * encoder settings are read by the backend's configure). */
int hwt_config_is_extra_key(const char *key)
{
	static const char *const extra[] = {
		"sink", "filter", "xlen", "callstack", "src", "ts", "extaddr",
	};

	for (size_t i = 0; i < ARRAY_LEN(extra); i++)
		if (!strcmp(key, extra[i]))
			return 1;
	return 0;
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

int hwt_config_check_keys(const struct hwt_profile *p,
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
