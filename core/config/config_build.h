/* The steps of hwt_profile_build_attrs (config_build.c), each in the file
 * of its job. Each returns 0 or a negative hwt_err whose message names
 * the INI key to change. */
#ifndef HWT_CORE_CONFIG_BUILD_H
#define HWT_CORE_CONFIG_BUILD_H

#include <stdbool.h>

#include "core/config/config_internal.h"
#include "hwtrace/config.h"
#include "hwtrace/pmu.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* config_keys.c: every section and key of @p is known. */
int hwt_config_check_keys(const struct hwt_profile *p,
			  const struct hwt_pmu_list *pmus);
/* Keys of a backend section that are not format terms (sink, filter). */
int hwt_config_is_extra_key(const char *key);

/* config_session.c: [session] and [snapshot], in this order. */
int hwt_config_pick_backend(struct hwt_profile *p,
			    const struct hwt_pmu_list *pmus,
			    struct hwt_event_plan *plan);
int hwt_config_parse_mode(struct hwt_profile *p, struct hwt_event_plan *plan);
int hwt_config_resolve_cpus(struct hwt_profile *p,
			    const struct hwt_pmu_list *pmus,
			    struct hwt_event_plan *plan);
int hwt_config_parse_sizes(struct hwt_profile *p, struct hwt_event_plan *plan);
int hwt_config_parse_trigger(struct hwt_profile *p, struct hwt_event_plan *plan);

/* config_trace_event.c: the AUX event's address filters, format terms
 * (into plan->aux_attr) and CoreSight sink. */
int hwt_config_parse_filters(struct hwt_profile *p, struct hwt_event_plan *plan);
int hwt_config_apply_terms(struct hwt_profile *p, struct hwt_event_plan *plan);
int hwt_config_choose_sink(struct hwt_profile *p, struct hwt_event_plan *plan);

/* config_side_events.c: what every event of the plan has, as perf sets
 * it; the sample-mode sampling event; the sideband event. */
void hwt_config_common_attr(struct perf_event_attr *a, bool per_cpu,
			    bool user, bool kernel);
int hwt_config_build_sample(struct hwt_profile *p, struct hwt_event_plan *plan,
			    bool user, bool kernel);
void hwt_config_sideband_attr(struct hwt_event_plan *plan);

#endif
