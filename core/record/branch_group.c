/* A branch-record recording's event group (-e '{A,B,...}', the profile's
 * [branch] group): the leader's attribute from the sampling's, the
 * members' counting attributes beside it, and the GROUP_DESC feature
 * perf record writes for it (tools/perf/util/header.c, write_group_desc:
 * a u32 count of groups, then per group its name as a perf header
 * string, u32 the leader's index among the attributes and u32 its member
 * count, leader included). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record/recorder_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define NAME_ALIGN 64u

int hwt_record_branch_group_of(const struct hwt_branch_request *rq,
			       const char *group, const struct hwt_branch_hw *hw,
			       uint64_t mode, struct branch_group_plan *plan)
{
	char what[4200];
	const char *spec = group;
	struct hwt_profile *p = NULL;
	memset(plan, 0, sizeof(*plan));
	snprintf(what, sizeof(what), "-e");
	if (!spec && rq->profile) {
		int err = hwt_profile_load(rq->profile, &p);
		if (err < 0)
			return err;
		spec = hwt_profile_get(p, "branch:group");
		if (spec)
			snprintf(what, sizeof(what), "[branch] group = (%s):",
				 hwt_profile_origin(p, "branch:group"));
	}
	int err = 0;
	if (spec) {
		char full[4400];
		if ((err = hwt_branch_group_parse(spec, what, &plan->g)) == 0) {
			snprintf(full, sizeof(full), "%s %s", what, spec);
			err = hwt_branch_group_check(&plan->g, hw, mode, full);
		}
		if (!err && plan->g.n - 1 > HWT_SESSION_MAX_BRANCH_MEMBERS)
			err = hwt_error(HWT_ERR_CONFIG, "%s %s: at most %d members "
					"after the leader", what, spec,
					HWT_SESSION_MAX_BRANCH_MEMBERS);
		plan->active = !err;
	}
	hwt_profile_free(p);
	return err;
}

void hwt_record_branch_group_attrs(struct branch_group_plan *plan,
				   uint64_t mode, struct perf_event_attr *leader)
{
	const struct hwt_branch_group *g = &plan->g;
	leader->type = g->m[0].type;
	leader->config = g->m[0].config;
	leader->branch_sample_type = hwt_branch_group_member_mode(g, 0, mode);
	for (unsigned i = 1; i < g->n; i++) {
		struct perf_event_attr *a = &plan->members[i - 1];
		memset(a, 0, sizeof(*a));
		a->size = sizeof(*a);
		a->type = g->m[i].type;
		a->config = g->m[i].config;
		a->branch_sample_type = hwt_branch_group_member_mode(g, i, mode);
		/* It counts where its leader does; the sample id layout of
		 * its leader as the session opens it (TID, TIME, CPU and
		 * IDENTIFIER added), so that readers find every event's id
		 * in one place. */
		a->sample_type = (leader->sample_type &
				  ~(uint64_t)PERF_SAMPLE_BRANCH_STACK) |
				 PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
		a->sample_id_all = 1;
		a->exclude_user = leader->exclude_user;
		a->exclude_kernel = leader->exclude_kernel;
		a->exclude_hv = leader->exclude_hv;
		a->inherit = leader->inherit;
		plan->names[i - 1] = g->m[i].name;
	}
}

int hwt_record_branch_group_desc(const struct branch_group_plan *plan,
				 size_t leader_index, struct hwt_pd_writer *w)
{
	/* perf names a group given without a name this way. */
	static const char name[] = "{anon_group}";
	uint8_t buf[4 + 4 + NAME_ALIGN + 8];
	uint32_t one = 1, len = NAME_ALIGN, leader = (uint32_t)leader_index,
		 nr = plan->g.n;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &one, 4);
	memcpy(buf + 4, &len, 4);
	memcpy(buf + 8, name, sizeof(name));
	memcpy(buf + 8 + NAME_ALIGN, &leader, 4);
	memcpy(buf + 12 + NAME_ALIGN, &nr, 4);
	return hwt_pd_writer_copy_feature(w, HWT_PD_FEAT_GROUP_DESC, buf,
					  sizeof(buf));
}
