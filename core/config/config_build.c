/* Profile validation and the event plan: every check happens here, before
 * anything is opened, and each message says what to change. The steps
 * live in config_keys.c, config_session.c, config_trace_event.c and
 * config_side_events.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/config_build.h"
#include "core/config/config_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

int hwt_profile_build_attrs(struct hwt_profile *p, const struct hwt_os *os,
			    const struct hwt_pmu_list *pmus,
			    struct hwt_event_plan *plan)
{
	const char *out;
	bool user, kernel;
	int ret;

	if (!p || !os || !pmus || !plan)
		return hwt_error(HWT_ERR_INVAL, "hwt_profile_build_attrs: NULL argument");
	memset(plan, 0, sizeof(*plan));
	free(p->cpus);
	p->cpus = NULL;
	p->ncpus = 0;
	if ((ret = hwt_config_check_keys(p, pmus)) ||
	    (ret = hwt_config_pick_backend(p, pmus, plan)) ||
	    (ret = hwt_config_parse_mode(p, plan)) ||
	    (ret = hwt_config_resolve_cpus(p, pmus, plan)) ||
	    (ret = hwt_config_parse_sizes(p, plan)) ||
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
	if (plan->mode == HWT_MODE_SNAPSHOT && (ret = hwt_config_parse_trigger(p, plan)))
		goto fail;
	if ((ret = hwt_config_parse_filters(p, plan)))
		goto fail;
	hwt_config_common_attr(&plan->aux_attr, !plan->per_thread, user, kernel);
	plan->aux_attr.type = plan->pmu->type;
	if ((ret = hwt_config_apply_terms(p, plan)) ||
	    (ret = hwt_config_choose_sink(p, plan)))
		goto fail;
	if (plan->backend->record && plan->backend->record->configure &&
	    (ret = plan->backend->record->configure(os, plan->pmu, p,
						     &plan->aux_attr)))
		goto fail;
	if (plan->mode == HWT_MODE_SAMPLE) {
		if ((ret = hwt_config_build_sample(p, plan, user, kernel)))
			goto fail;
		/* The AUX event leads the group and is enabled by it. */
	}
	hwt_config_sideband_attr(plan);
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
