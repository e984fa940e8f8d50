/* hwtrace config check: validate a profile and print the perf_event_attr of
 * every event it would open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/profile_check.h"
#include "hwtrace/profile_request.h"

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

static int check(int argc, char **argv)
{
	const char **events = calloc((size_t)argc + 1, sizeof(char *));
	const char **sets = calloc((size_t)argc + 1, sizeof(char *));
	struct hwt_profile_request rq = {.size = sizeof(rq), .events = events,
					 .sets = sets};
	struct hwt_profile_check *checked = NULL;
	int err, status = EXIT_RUNTIME;

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
			rq.sysfs = argv[++i];
		else if (!strncmp(a, "--sysfs=", 8))
			rq.sysfs = a + 8;
		else if (!strcmp(a, "-e") || !strcmp(a, "--event"))
			events[rq.nevents++] = argv[++i];
		else if (!strcmp(a, "--filter"))
			rq.filter = argv[++i];
		else if (!strcmp(a, "--set"))
			sets[rq.nsets++] = argv[++i];
		else if (!strncmp(a, "--set=", 6))
			sets[rq.nsets++] = a + 6;
		else if (a[0] == '-') {
			status = cli_usage_error("config", "unknown option '%s'", a);
			goto out;
		} else if (!rq.file)
			rq.file = a;
		else {
			status = cli_usage_error("config", "more than one profile "
						 "('%s' and '%s')", rq.file, a);
			goto out;
		}
	}
	if (hwt_profile_request_validate(&rq)) {
		status = cli_usage_error("config", "%s", hwt_errmsg());
		goto out;
	}
	err = hwt_profile_request_check(&rq, &checked);
	if (err) {
		status = cli_report(err);
		goto out;
	}
	if (hwt_profile_check_print(stdout, checked, rq.file, rq.sysfs))
		hwt_error_clear(); /* stdout's own error shows at exit */
	hwt_profile_check_free(checked);
	status = EXIT_OK;
out:
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
