/* hwtrace list: the trace PMUs of this machine, their caps, sinks and
 * per-CPU trace units, or why there are none. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/trace_hw.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace list [--sysfs DIR]\n\n"
		"Show the trace PMUs of this machine (intel_pt, intel_bts, cs_etm,\n"
		"and AUX PMUs hwtrace names but cannot drive yet) with their format\n"
		"terms, caps, CoreSight sinks and per-CPU trace units. When there\n"
		"are none, say why and what still works here.\n\n"
		"  --sysfs DIR  read DIR instead of /sys (e.g. a fixture tree)\n"
		"  -h, --help   show this help\n");
}

int cmd_list(int argc, char **argv)
{
	const char *sysfs = NULL;
	struct hwt_trace_hw *hw;
	struct hwt_os *own = NULL;
	const struct hwt_os *os;
	int ret;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sysfs") && i + 1 < argc)
			sysfs = argv[++i];
		else if (!strncmp(argv[i], "--sysfs=", 8))
			sysfs = argv[i] + 8;
		else if (!strcmp(argv[i], "--sysfs"))
			return cli_usage_error("list", "--sysfs needs a directory");
		else
			return cli_usage_error("list", "unexpected argument '%s'",
					       argv[i]);
	}
	if (sysfs) {
		own = hwt_os_linux_new(sysfs);
		if (!own)
			return cli_report(HWT_ERR_NOMEM);
		os = own;
	} else {
		os = hwt_os_linux();
	}
	ret = hwt_trace_hw_scan(os, &hw);
	if (ret) {
		hwt_os_free(own);
		return cli_report(ret);
	}
	if (sysfs && !hw->pmus->nall) {
		/* Every kernel has the software PMU: an empty folder is not a
		 * sysfs tree. */
		fprintf(stderr, "hwtrace: %s/bus/event_source/devices is missing or "
			"empty: is %s a sysfs tree (like /sys)?\n", sysfs, sysfs);
		hwt_trace_hw_free(hw);
		hwt_os_free(own);
		return EXIT_RUNTIME;
	}
	if (hwt_trace_hw_print(stdout, hw, sysfs ? sysfs : "/sys"))
		hwt_error_clear(); /* stdout's own error shows at exit */
	hwt_trace_hw_free(hw);
	hwt_os_free(own);
	return EXIT_OK;
}
