/* Profiles: the INI file (and command-line overrides) that say what to
 * trace and how, and the event plan built from them: the perf_event_attr of
 * every event the capture engine opens, with the CPUs, buffer sizes and
 * capture mode.
 *
 * Sections and keys (docs/configuration.md has the full reference):
 *   [session]   backend, mode (full|snapshot|sample), cpus ("all", "0-3,6")
 *               or per_thread, data_size, aux_size, output, user, kernel
 *   [snapshot]  size, trigger (signal|fifo|timer|exit), fifo, interval_ms
 *   [sample]    event, period, aux_sample_size
 *   [intel_pt], [intel_bts], [cs_etm]
 *               the PMU's format terms (sysfs format/ names) plus sink
 *               (cs_etm) and filter (address filters).
 * Sizes take K, M and G suffixes (powers of 1024). Booleans take
 * 1/0, yes/no, true/false, on/off. */
#ifndef HWTRACE_CONFIG_H
#define HWTRACE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_os;
struct hwt_pmu;
struct hwt_pmu_list;
struct hwt_backend;

/* An opaque set of "section:key = value" entries. */
struct hwt_profile;

enum hwt_mode {
	HWT_MODE_FULL,     /* every byte of trace, AUX mapped read-write */
	HWT_MODE_SNAPSHOT, /* flight recorder: AUX overwrites, copied on demand */
	HWT_MODE_SAMPLE,   /* AUX sampling: trace attached to other samples */
};

enum hwt_snapshot_trigger {
	HWT_TRIGGER_SIGNAL, /* SIGUSR2, as perf record -S */
	HWT_TRIGGER_FIFO,   /* "snapshot" written to a control FIFO */
	HWT_TRIGGER_TIMER,  /* every interval_ms */
	HWT_TRIGGER_EXIT,   /* once, when the traced command exits */
};

/* A new empty profile (every key at its default). NULL on allocation
 * failure. Free with hwt_profile_free. */
HWT_API struct hwt_profile *hwt_profile_new(void);

/* Loads an INI file into a new profile in *out. Errors: HWT_ERR_NOENT
 * (no such file), HWT_ERR_FORMAT (not INI), HWT_ERR_NOMEM. Keys are not
 * validated here; see hwt_profile_build_attrs. @path is copied. */
HWT_API int hwt_profile_load(const char *path, struct hwt_profile **out);

/* Frees a profile and every string it holds; NULL is a no-op. */
HWT_API void hwt_profile_free(struct hwt_profile *profile);

/* Sets "section:key" (or "section.key") to @value, replacing the file's
 * value: command-line overrides. @origin says where it came from for
 * messages ("--set", "-e"); NULL means "--set". Strings are copied.
 * Errors: HWT_ERR_CONFIG (no section), HWT_ERR_NOMEM. */
HWT_API int hwt_profile_set(struct hwt_profile *profile, const char *key,
			    const char *value);
HWT_API int hwt_profile_set_from(struct hwt_profile *profile, const char *key,
				 const char *value, const char *origin);

/* Applies a perf-style event string: "intel_pt/cyc,mtc_period=2/u",
 * "cs_etm/@tmc_etr0,timestamp/k", "intel_bts//". Sets session:backend,
 * the backend section's terms (a bare term means 1, "@name" the sink) and
 * session:user/kernel from the u/k modifiers. Errors: HWT_ERR_CONFIG with
 * the offending part of @event. */
HWT_API int hwt_profile_parse_event(struct hwt_profile *profile,
				    const char *event);

/* The value of "section:key", or NULL when unset. Borrowed from the
 * profile until it changes. */
HWT_API const char *hwt_profile_get(const struct hwt_profile *profile,
				    const char *key);

/* Where "section:key" came from: the INI file's path, "-e", "--set"; NULL
 * when unset. */
HWT_API const char *hwt_profile_origin(const struct hwt_profile *profile,
				       const char *key);

/* Calls @cb for every key set in [@section], in the order they were set;
 * a non-zero return stops the walk and is returned. */
HWT_API int hwt_profile_foreach(const struct hwt_profile *profile,
				const char *section,
				int (*cb)(void *arg, const char *key,
					  const char *value),
				void *arg);

/* Typed readers for backends and the engine. Return @def when unset;
 * HWT_ERR_CONFIG (message names the key and what it expects) when set but
 * malformed. */
HWT_API int hwt_profile_get_u64(const struct hwt_profile *profile,
				const char *key, uint64_t def, uint64_t *out);
HWT_API int hwt_profile_get_bool(const struct hwt_profile *profile,
				 const char *key, bool def, bool *out);
/* A size with K/M/G suffix. */
HWT_API int hwt_profile_get_size(const struct hwt_profile *profile,
				 const char *key, uint64_t def, uint64_t *out);

/* The session facts backends need while configuring: resolved by
 * hwt_profile_build_attrs before any backend's configure() runs. */
HWT_API enum hwt_mode hwt_profile_mode(const struct hwt_profile *profile);
HWT_API bool hwt_profile_per_thread(const struct hwt_profile *profile);
/* The traced CPUs (sorted, borrowed), or 0 and NULL when per-thread. */
HWT_API size_t hwt_profile_cpus(const struct hwt_profile *profile,
				const int **cpus);

/* Parses a CPU list ("0-3,6") into a sorted, duplicate-free array (the
 * caller frees *cpus). Errors: HWT_ERR_CONFIG, HWT_ERR_NOMEM. */
HWT_API int hwt_cpu_list_parse(const char *text, int **cpus, size_t *count);

/* Everything the capture engine needs to open and map the events of a
 * session. Filled by hwt_profile_build_attrs; release with
 * hwt_event_plan_release.
 *
 * Events, in the order to open them per CPU (or once, per thread):
 *  1. aux_attr: the trace PMU event. Group leader when mode is SAMPLE.
 *  2. sample_attr (mode SAMPLE only): the sampling event, opened in the
 *     AUX event's group, carrying PERF_SAMPLE_AUX and aux_sample_size.
 *  3. sideband_attr: a dummy:u software event collecting mmap/comm/task/
 *     switch records (perf's "tracking event").
 * The attrs are built as perf record builds them for a workload it starts:
 * disabled = 1 and enable_on_exec = 1. An engine tracing a running process
 * or the whole system clears enable_on_exec and enables the events itself. */
struct hwt_event_plan {
	const struct hwt_backend *backend; /* static, never freed */
	const struct hwt_pmu *pmu;         /* borrowed from the PMU list */
	struct perf_event_attr aux_attr;
	struct perf_event_attr sideband_attr;
	bool has_sample_attr;
	struct perf_event_attr sample_attr;
	/* Traced CPUs, sorted (owned); NULL and 0 when per_thread. */
	int *cpus;
	size_t ncpus;
	bool per_thread;
	enum hwt_mode mode;
	uint64_t data_pages;     /* data ring pages, excluding the user page */
	uint64_t aux_pages;      /* AUX ring pages, a power of two */
	uint64_t page_size;
	uint64_t snapshot_size;  /* SNAPSHOT: bytes copied per snapshot */
	enum hwt_snapshot_trigger trigger;
	char trigger_fifo[256];  /* TRIGGER_FIFO: the control FIFO's path */
	uint64_t trigger_interval_ms;
	/* cs_etm: the sink selected ("" = the kernel's default, which is the
	 * CPU's TRBE), its id as written into config2, and why. */
	char sink[64];
	uint32_t sink_id;
	bool sink_is_trbe;
	char sink_reason[512];
	/* Address filters as given, checked against nr_addr_filters but not
	 * resolved ("" when none); hwt_addr_filter_resolve turns them into
	 * the string for PERF_EVENT_IOC_SET_FILTER. */
	char filter[512];
	size_t nfilters;
	char output[512];        /* session:output, default "perf.data" */
};

/* Validates @profile against the PMUs of @pmus and builds @plan. Nothing
 * is opened. @os is used for sysfs reads backends need; @plan is
 * overwritten. Each failure's message names the key, what is wrong and how
 * to fix it (an unknown key with the nearest valid one, a value outside the
 * PMU's caps with the valid values, an absent sink with the sinks present,
 * a size that is not a power of two, an absent PMU with the PMUs present).
 * Errors: HWT_ERR_CONFIG, HWT_ERR_NOENT (PMU or sink absent),
 * HWT_ERR_NOSUP, HWT_ERR_NOMEM. */
HWT_API int hwt_profile_build_attrs(struct hwt_profile *profile,
				    const struct hwt_os *os,
				    const struct hwt_pmu_list *pmus,
				    struct hwt_event_plan *plan);

/* Frees what @plan owns and zeroes it; NULL is a no-op. */
HWT_API void hwt_event_plan_release(struct hwt_event_plan *plan);

/* Formats @attr as perf -vv does ("perf_event_attr:" and one line per
 * non-zero field) into @buf. @pmu_name, when not NULL, is shown after the
 * type. Returns the length it needed (like snprintf). */
HWT_API int hwt_attr_format(const struct perf_event_attr *attr,
			    const char *pmu_name, char *buf, size_t size);

/* A sampling event of AUX sampling ([sample] event): cycles,
 * instructions, branches, branch-misses, cache-misses, cpu-clock or
 * task-clock: its perf type and config into *@type and *@config (either
 * may be NULL), and its name (static storage) as the result. NULL for
 * any other name (NULL too). */
HWT_API const char *hwt_sample_event_find(const char *name, uint32_t *type,
					  uint64_t *config);

/* "full", "snapshot" or "sample"; never NULL ("?" for other
 * values). Static storage. */
HWT_API const char *hwt_mode_name(enum hwt_mode mode);

/* --- For backends' configure ops (backend-author API) --- */

/* Renders a bitmap of valid values as perf does: "0-5", "0,3,6,9", for
 * messages such as "Valid values are: 0-5". */
HWT_API void hwt_config_valid_str(uint64_t valid, char *buf, size_t size);

/* The candidate closest to @word by edit distance (a prefix counts as
 * close), or NULL when none is close enough to be a plausible typo: the
 * "did you mean" of a message about an unknown key, backend or symbol. */
HWT_API const char *hwt_config_nearest(const char *word,
				       const char *const *candidates,
				       size_t count);

/* Whether the profile sets [@section] @term (a backend's format term),
 * from its INI file, -e or --set. */
HWT_API bool hwt_config_term_set(const struct hwt_profile *p,
				 const char *section, const char *term);
/* Where [@section] @term was set, for messages: the INI path, "-e",
 * "--set", or "default" when it is not set. The string is the profile's. */
HWT_API const char *hwt_config_term_where(const struct hwt_profile *p,
					  const char *section,
					  const char *term);

#ifdef __cplusplus
}
#endif

#endif
