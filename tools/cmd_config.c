/* hwtrace config check: validate a profile and print the perf_event_attr of
 * every event it would open. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/addrfilter.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace config check [FILE] [--sysfs DIR] [-e EVENT]\n"
		"                            [--set SECTION.KEY=VALUE]... [--filter F]\n\n"
		"Validate a profile against this machine's trace PMUs (or the sysfs\n"
		"tree DIR) and print, in perf's 'perf_event_attr:' style, every\n"
		"event it would open. Nothing is opened.\n\n"
		"  FILE          an INI profile (see configs/ and docs/configuration.md)\n"
		"  -e EVENT      a perf event string, e.g. intel_pt/cyc,mtc_period=2/u\n"
		"                or cs_etm/@tmc_etr0/; overrides FILE\n"
		"  --set K=V     override one key, e.g. --set session.aux_size=8M\n"
		"  --filter F    the trace PMU's address filters, e.g.\n"
		"                'filter main @ ./prog'; printed resolved as the\n"
		"                kernel takes them\n"
		"  --sysfs DIR   read DIR instead of /sys\n"
		"  -h, --help    show this help\n\n"
		"Exit status: 0 valid, 1 the profile is invalid or cannot be read,\n"
		"2 usage error.\n");
}

static void print_cpus(const struct hwt_event_plan *plan)
{
	for (size_t i = 0; i < plan->ncpus; i++) {
		size_t j = i;

		while (j + 1 < plan->ncpus && plan->cpus[j + 1] == plan->cpus[j] + 1)
			j++;
		if (j == i)
			printf("%s%d", i ? "," : "", plan->cpus[i]);
		else
			printf("%s%d-%d", i ? "," : "", plan->cpus[i], plan->cpus[j]);
		i = j;
	}
}

static void print_attr(const char *title, const struct perf_event_attr *a,
		       const char *pmu)
{
	char buf[4096];

	hwt_attr_format(a, pmu, buf, sizeof(buf));
	printf("\n%s\n%s", title, buf);
}

static void print_plan(const struct hwt_event_plan *plan, const char *file,
		       const char *resolved)
{
	static const char *const triggers[] = {"signal (SIGUSR2)", "fifo",
					       "timer", "exit"};
	char title[128];

	if (file)
		printf("profile: %s\n", file);
	printf("backend: %s (PMU type %" PRIu32 "), mode %s\n",
	       plan->backend->name, plan->pmu->type, hwt_mode_name(plan->mode));
	if (plan->per_thread) {
		printf("tracing: per thread\n");
	} else {
		printf("tracing: CPUs ");
		print_cpus(plan);
		printf("\n");
	}
	printf("buffers: data %" PRIu64 " pages, AUX %" PRIu64 " pages of %" PRIu64
	       " bytes\n", plan->data_pages, plan->aux_pages, plan->page_size);
	if (plan->mode == HWT_MODE_SNAPSHOT) {
		printf("snapshot: %" PRIu64 " bytes on %s", plan->snapshot_size,
		       triggers[plan->trigger]);
		if (plan->trigger == HWT_TRIGGER_FIFO)
			printf(" %s", plan->trigger_fifo);
		if (plan->trigger == HWT_TRIGGER_TIMER)
			printf(" every %" PRIu64 " ms", plan->trigger_interval_ms);
		printf("\n");
	}
	if (plan->sink[0])
		printf("sink: %s (id 0x%08" PRIx32 "): %s\n", plan->sink,
		       plan->sink_id, plan->sink_reason);
	else if (plan->sink_reason[0])
		printf("sink: %s\n", plan->sink_reason);
	if (plan->filter[0])
		printf("address filters (%zu): %s\n  as the kernel takes them: %s\n",
		       plan->nfilters, plan->filter, resolved);
	printf("output: %s (hwtrace record -c writes it unless -o is given)\n",
	       plan->output);
	snprintf(title, sizeof(title), "event 1: %s (AUX trace%s)",
		 plan->pmu->name,
		 plan->mode == HWT_MODE_SAMPLE ? ", group leader" : "");
	print_attr(title, &plan->aux_attr, plan->pmu->name);
	if (plan->has_sample_attr)
		print_attr("event 2: sampling event (in the AUX event's group)",
			   &plan->sample_attr, NULL);
	snprintf(title, sizeof(title), "event %d: dummy:u (sideband)",
		 plan->has_sample_attr ? 3 : 2);
	print_attr(title, &plan->sideband_attr, NULL);
}

static int check(int argc, char **argv)
{
	const char *file = NULL, *sysfs = NULL, *filter = NULL;
	char resolved[4096];
	const char **events = calloc((size_t)argc + 1, sizeof(char *));
	const char **sets = calloc((size_t)argc + 1, sizeof(char *));
	size_t nevents = 0, nsets = 0;
	struct hwt_profile *profile = NULL;
	struct hwt_pmu_list *pmus = NULL;
	struct hwt_event_plan plan;
	struct hwt_os *own = NULL;
	const struct hwt_os *os;
	int ret, status = EXIT_RUNTIME;

	if (!events || !sets) {
		free(events);
		free(sets);
		return cli_report(HWT_ERR_NOMEM);
	}
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if ((!strcmp(a, "--sysfs") || !strcmp(a, "-e") ||
		     !strcmp(a, "--filter") ||
		     !strcmp(a, "--event") || !strcmp(a, "--set")) && i + 1 >= argc) {
			status = cli_usage_error("config", "%s needs a value", a);
			goto out;
		}
		if (!strcmp(a, "--sysfs"))
			sysfs = argv[++i];
		else if (!strncmp(a, "--sysfs=", 8))
			sysfs = a + 8;
		else if (!strcmp(a, "-e") || !strcmp(a, "--event"))
			events[nevents++] = argv[++i];
		else if (!strcmp(a, "--filter"))
			filter = argv[++i];
		else if (!strcmp(a, "--set"))
			sets[nsets++] = argv[++i];
		else if (!strncmp(a, "--set=", 6))
			sets[nsets++] = a + 6;
		else if (a[0] == '-') {
			status = cli_usage_error("config", "unknown option '%s'", a);
			goto out;
		} else if (!file)
			file = a;
		else {
			status = cli_usage_error("config", "more than one profile "
						 "('%s' and '%s')", file, a);
			goto out;
		}
	}
	if (!file && !nevents && !nsets && !filter) {
		status = cli_usage_error("config", "check needs a profile FILE, -e EVENT or "
					 "--set KEY=VALUE");
		goto out;
	}
	if (sysfs && (status = cli_path_check("config", "--sysfs", sysfs, true)))
		goto out;
	if ((status = cli_filter_check("config", filter)))
		goto out;
	for (size_t i = 0; i < nsets; i++)
		if (!strchr(sets[i], '=')) {
			status = cli_usage_error("config", "--set %s: expected "
						 "SECTION.KEY=VALUE", sets[i]);
			goto out;
		}
	ret = file ? hwt_profile_load(file, &profile) :
		     ((profile = hwt_profile_new()) ? 0 : HWT_ERR_NOMEM);
	for (size_t i = 0; !ret && i < nevents; i++)
		ret = hwt_profile_parse_event(profile, events[i]);
	for (size_t i = 0; !ret && i < nsets; i++) {
		char key[256];
		const char *eq = strchr(sets[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - sets[i]), sets[i]);
		ret = hwt_profile_set_from(profile, key, eq + 1, "--set");
	}
	if (!ret && filter) {
		char key[96];
		const char *be = hwt_profile_get(profile, "session:backend");

		snprintf(key, sizeof(key), "%s:filter", be ? be : "intel_pt");
		ret = hwt_profile_set_from(profile, key, filter, "--filter");
	}
	if (ret) {
		status = cli_report(ret);
		goto out;
	}
	own = sysfs ? hwt_os_linux_new(sysfs) : NULL;
	if (sysfs && !own) {
		status = cli_report(HWT_ERR_NOMEM);
		goto out;
	}
	os = own ? own : hwt_os_linux();
	ret = hwt_pmu_scan(os, &pmus);
	if (!ret)
		ret = hwt_profile_build_attrs(profile, os, pmus, &plan);
	if (ret) {
		status = cli_report(ret);
		goto out;
	}
	ret = hwt_addr_filter_resolve(plan.filter, NULL, resolved,
				      sizeof(resolved), NULL);
	if (ret) {
		hwt_event_plan_release(&plan);
		status = cli_report(ret);
		goto out;
	}
	print_plan(&plan, file, resolved);
	if (plan.backend && plan.backend->pmu_name) {
		char why[256];
		/* resume:/pause: triggers (hwtrace/auxaction.h). */
		hwt_aux_action_supported(plan.backend->pmu_name, NULL, why,
					 sizeof(why));
		printf("AUX pause/resume (record --trigger resume:/pause:): %s\n",
		       why);
	}
	if (sysfs)
		printf("\nOK: the profile is valid for the machine whose sysfs "
		       "tree is %s (not checked against this one)\n", sysfs);
	else
		printf("\nOK: the profile is valid for this machine\n");
	hwt_event_plan_release(&plan);
	status = EXIT_OK;
out:
	hwt_pmu_list_free(pmus);
	hwt_profile_free(profile);
	hwt_os_free(own);
	free(events);
	free(sets);
	return status;
}

int cmd_config(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "check"))
		return cli_usage_error("config", "unknown subcommand '%s' (known: "
				       "check)", argv[1]);
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	return check(argc, argv);
}
