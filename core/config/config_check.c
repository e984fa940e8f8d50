/* hwt_profile_check (hwtrace/profile_check.h): a profile's event plan on
 * one sysfs tree, its filters resolved and its PMU's pause/resume support,
 * for `hwtrace config check`. Nothing is opened. */
#include <stdlib.h>

#include "hwtrace/addrfilter.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/profile_check.h"

int hwt_profile_check(struct hwt_profile *profile, const struct hwt_os *os,
		      struct hwt_profile_check **out)
{
	struct hwt_profile_check *c = calloc(1, sizeof(*c));
	int err;

	*out = NULL;
	if (!c)
		return hwt_error(HWT_ERR_NOMEM, "no memory for the profile check");
	err = hwt_pmu_scan(os, &c->pmus);
	if (!err)
		err = hwt_profile_build_attrs(profile, os, c->pmus, &c->plan);
	if (!err)
		err = hwt_addr_filter_resolve(c->plan.filter, NULL,
					      c->resolved_filter,
					      sizeof(c->resolved_filter), NULL);
	if (err) {
		/* The plan starts zeroed: releasing a part-built one is safe. */
		hwt_profile_check_free(c);
		return err;
	}
	if (c->plan.backend && c->plan.backend->pmu_name) {
		c->have_aux_action = true;
		hwt_aux_action_supported(c->plan.backend->pmu_name, NULL,
					 c->aux_action, sizeof(c->aux_action));
	}
	*out = c;
	return 0;
}

void hwt_profile_check_free(struct hwt_profile_check *check)
{
	if (!check)
		return;
	hwt_event_plan_release(&check->plan);
	hwt_pmu_list_free(check->pmus);
	free(check);
}
