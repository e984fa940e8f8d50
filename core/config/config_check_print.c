/* The text of `hwtrace config check` (hwtrace/profile_check.h): the plan
 * a profile builds, in lines a user reads before recording, and each
 * event's attribute in perf -vv's "perf_event_attr:" style. */
#include <inttypes.h>
#include <stdio.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/profile_check.h"

/* The traced CPUs as "0-3,6". */
static void print_cpus(FILE *out, const struct hwt_event_plan *plan)
{
	for (size_t i = 0; i < plan->ncpus; i++) {
		size_t j = i;

		while (j + 1 < plan->ncpus && plan->cpus[j + 1] == plan->cpus[j] + 1)
			j++;
		if (j == i)
			fprintf(out, "%s%d", i ? "," : "", plan->cpus[i]);
		else
			fprintf(out, "%s%d-%d", i ? "," : "", plan->cpus[i],
				plan->cpus[j]);
		i = j;
	}
}

static void print_attr(FILE *out, const char *title,
		       const struct perf_event_attr *a, const char *pmu)
{
	char buf[4096];

	hwt_attr_format(a, pmu, buf, sizeof(buf));
	fprintf(out, "\n%s\n%s", title, buf);
}

/* Mode, CPUs, buffers, snapshot trigger, sink, filters and output. */
static void print_session(FILE *out, const struct hwt_profile_check *c)
{
	static const char *const triggers[] = {"signal (SIGUSR2)", "fifo",
					       "timer", "exit"};
	const struct hwt_event_plan *plan = &c->plan;

	fprintf(out, "backend: %s (PMU type %" PRIu32 "), mode %s\n",
		plan->backend->name, plan->pmu->type, hwt_mode_name(plan->mode));
	if (plan->per_thread) {
		fprintf(out, "tracing: per thread\n");
	} else {
		fprintf(out, "tracing: CPUs ");
		print_cpus(out, plan);
		fprintf(out, "\n");
	}
	fprintf(out, "buffers: data %" PRIu64 " pages, AUX %" PRIu64 " pages of %"
		PRIu64 " bytes\n", plan->data_pages, plan->aux_pages,
		plan->page_size);
	if (plan->mode == HWT_MODE_SNAPSHOT) {
		fprintf(out, "snapshot: %" PRIu64 " bytes on %s",
			plan->snapshot_size, triggers[plan->trigger]);
		if (plan->trigger == HWT_TRIGGER_FIFO)
			fprintf(out, " %s", plan->trigger_fifo);
		if (plan->trigger == HWT_TRIGGER_TIMER)
			fprintf(out, " every %" PRIu64 " ms",
				plan->trigger_interval_ms);
		fprintf(out, "\n");
	}
	if (plan->sink[0])
		fprintf(out, "sink: %s (id 0x%08" PRIx32 "): %s\n", plan->sink,
			plan->sink_id, plan->sink_reason);
	else if (plan->sink_reason[0])
		fprintf(out, "sink: %s\n", plan->sink_reason);
	if (plan->filter[0])
		fprintf(out, "address filters (%zu): %s\n  as the kernel takes "
			"them: %s\n", plan->nfilters, plan->filter,
			c->resolved_filter);
	fprintf(out, "output: %s (hwtrace record -c writes it unless -o is "
		"given)\n", plan->output);
}

/* The events in the order they are opened: trace, sampling, sideband. */
static void print_events(FILE *out, const struct hwt_event_plan *plan)
{
	char title[128];

	snprintf(title, sizeof(title), "event 1: %s (AUX trace%s)",
		 plan->pmu->name,
		 plan->mode == HWT_MODE_SAMPLE ? ", group leader" : "");
	print_attr(out, title, &plan->aux_attr, plan->pmu->name);
	if (plan->has_sample_attr)
		print_attr(out, "event 2: sampling event (in the AUX event's group)",
			   &plan->sample_attr, NULL);
	snprintf(title, sizeof(title), "event %d: dummy:u (sideband)",
		 plan->has_sample_attr ? 3 : 2);
	print_attr(out, title, &plan->sideband_attr, NULL);
}

int hwt_profile_check_print(FILE *out, const struct hwt_profile_check *check,
			    const char *file, const char *sysfs)
{
	if (file)
		fprintf(out, "profile: %s\n", file);
	print_session(out, check);
	print_events(out, &check->plan);
	if (check->have_aux_action)
		fprintf(out, "AUX pause/resume (record --trigger resume:/pause:): "
			"%s\n", check->aux_action);
	if (sysfs)
		fprintf(out, "\nOK: the profile is valid for the machine whose "
			"sysfs tree is %s (not checked against this one)\n", sysfs);
	else
		fprintf(out, "\nOK: the profile is valid for this machine\n");
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the profile check failed");
	return 0;
}
