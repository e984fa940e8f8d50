/* The plan's other events: the attributes all events share, the AUX
 * sampling event of sample mode, and the sideband (dummy) event. */
#include <inttypes.h>
#include <string.h>

#include "core/config/config_build.h"
#include "core/config/config_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

void hwt_config_common_attr(struct perf_event_attr *a, bool per_cpu, bool user,
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

const char *hwt_sample_event_find(const char *name, uint32_t *type,
				  uint64_t *config)
{
	for (size_t i = 0; name && i < ARRAY_LEN(sample_events); i++) {
		if (strcmp(sample_events[i].name, name))
			continue;
		if (type)
			*type = sample_events[i].type;
		if (config)
			*config = sample_events[i].config;
		return sample_events[i].name;
	}
	return NULL;
}

int hwt_config_build_sample(struct hwt_profile *p, struct hwt_event_plan *plan,
			    bool user, bool kernel)
{
	const char *ev = hwt_profile_get(p, "sample:event");
	struct perf_event_attr *a = &plan->sample_attr;
	uint64_t period, size, freq;
	uint32_t type;
	uint64_t config;
	int ret;

	if (!plan->backend->aux_sampling)
		return hwt_error(HWT_ERR_NOSUP,
				 "%s: [session] mode = sample: %s cannot serve "
				 "AUX samples; use full or snapshot",
				 hwt_config_where(p, "session:mode"),
				 plan->pmu->name);
	if (!ev)
		ev = "cycles";
	if (!hwt_sample_event_find(ev, &type, &config))
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
	hwt_config_common_attr(a, !plan->per_thread, user, kernel);
	a->type = type;
	a->config = config;
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

void hwt_config_sideband_attr(struct hwt_event_plan *plan)
{
	struct perf_event_attr *a = &plan->sideband_attr;

	hwt_config_common_attr(a, !plan->per_thread, true, false);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->context_switch = 1;
}
