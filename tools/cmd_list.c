/* hwtrace list: the trace PMUs of this machine, their caps, sinks and
 * per-CPU trace units, or why there are none. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/backend.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

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

static const char *description(const struct hwt_pmu *pmu)
{
	const struct hwt_backend *b = hwt_backend_find(pmu->name);

	if (b && b->pmu_name && !strcmp(b->pmu_name, pmu->name))
		return b->description;
	if (pmu->kind == HWT_PMU_ARM_SPE)
		return "Arm Statistical Profiling Extension";
	return "AUX-area PMU";
}

static void print_formats(const struct hwt_pmu *pmu)
{
	if (!pmu->nformats)
		return;
	printf("  format terms:");
	for (size_t i = 0; i < pmu->nformats; i++) {
		const struct hwt_pmu_format *f = &pmu->formats[i];
		static const char *const words[] = {"config", "config1", "config2",
						    "config3"};

		printf("%s %s=%s:", i && i % 4 == 0 ? "\n   " : "", f->name,
		       words[f->word & 3]);
		for (unsigned int r = 0; r < f->nranges; r++) {
			if (f->ranges[r].lo == f->ranges[r].hi)
				printf("%s%u", r ? "," : "", f->ranges[r].lo);
			else
				printf("%s%u-%u", r ? "," : "", f->ranges[r].lo,
				       f->ranges[r].hi);
		}
	}
	printf("\n");
}

static void print_caps(const struct hwt_pmu *pmu)
{
	if (!pmu->ncaps)
		return;
	printf("  caps:");
	for (size_t i = 0; i < pmu->ncaps; i++)
		printf("%s %s=%s", i && i % 5 == 0 ? "\n   " : "",
		       pmu->caps[i].name, pmu->caps[i].value);
	printf("\n");
}

static void cpu_ranges(const struct hwt_pmu *pmu, bool trbe, char *buf,
		       size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pmu->nunits && pos < size; i++) {
		size_t j = i;

		if (pmu->units[i].trbe != trbe)
			continue;
		while (j + 1 < pmu->nunits && pmu->units[j + 1].trbe == trbe &&
		       pmu->units[j + 1].cpu == pmu->units[j].cpu + 1)
			j++;
		if (j == i)
			pos += (size_t)snprintf(buf + pos, size - pos, "%s%d",
						pos ? "," : "", pmu->units[i].cpu);
		else
			pos += (size_t)snprintf(buf + pos, size - pos, "%s%d-%d",
						pos ? "," : "", pmu->units[i].cpu,
						pmu->units[j].cpu);
		i = j;
	}
}

static void print_coresight(const struct hwt_pmu *pmu)
{
	const struct hwt_pmu_sink *etr = NULL;
	char with[128], without[128];

	printf("  sinks:");
	if (!pmu->nsinks)
		printf(" none");
	for (size_t i = 0; i < pmu->nsinks; i++) {
		printf("%s %s (id 0x%08" PRIx32 ")", i ? "," : "",
		       pmu->sinks[i].name, pmu->sinks[i].id);
		if (!etr && !strncmp(pmu->sinks[i].name, "tmc_etr", 7))
			etr = &pmu->sinks[i];
	}
	printf("\n  trace units:%s\n", pmu->nunits ? "" : " none");
	for (size_t i = 0; i < pmu->nunits; i++) {
		const struct hwt_trace_unit *u = &pmu->units[i];

		printf("    cpu%-3d %-6s", u->cpu, hwt_trace_unit_kind_name(u->kind));
		for (size_t r = 0; r < u->nregs; r++)
			printf(" %s=%#" PRIx64, u->regs[r].name, u->regs[r].value);
		printf("%s\n", u->trbe ? "  TRBE" : "");
	}
	cpu_ranges(pmu, true, with, sizeof(with));
	cpu_ranges(pmu, false, without, sizeof(without));
	if (pmu->nunits && !without[0])
		printf("  sink path: TRBE (every CPU has one; with no sink named the "
		       "kernel uses each CPU's own TRBE)\n");
	else if (etr)
		printf("  sink path: ETR %s (CPU %s %s no TRBE%s%s)\n", etr->name,
		       without, strchr(without, ',') || strchr(without, '-') ?
		       "have" : "has", with[0] ? "; TRBE on CPU " : "", with);
	else if (pmu->nunits)
		printf("  sink path: the kernel's default sink (no TRBE on CPU %s "
		       "and no ETR)\n", without);
}

static void explain_none(const struct hwt_pmu_list *list)
{
	const char *v = list->cpu_vendor;

	printf("No trace PMU on this machine.\n\nWhy:\n");
	if (!strcmp(v, "GenuineIntel"))
		printf("  - no intel_pt or intel_bts PMU although this is an Intel "
		       "CPU: it predates Intel PT (Broadwell), or a hypervisor or "
		       "the kernel configuration hides it\n");
	else
		printf("  - no intel_pt or intel_bts PMU: this CPU's vendor is %s; "
		       "Intel PT and BTS exist only on Intel CPUs\n",
		       v[0] ? v : "unknown");
	if (list->have_coresight_bus)
		printf("  - no cs_etm PMU although /sys/bus/coresight exists: the "
		       "CoreSight ETM drivers (coresight-etm4x) are not loaded\n");
	else
		printf("  - no cs_etm PMU and no /sys/bus/coresight/devices: no "
		       "CoreSight trace units are registered (not an Arm board, "
		       "or its CoreSight drivers are not loaded)\n");
	printf("\nPMUs present (none of them traces):");
	for (size_t i = 0; i < list->nall; i++)
		printf("%s %s", i ? "," : "", list->all[i]);
	printf("%s\n", list->nall ? "" : " none");
	printf("\nWhat still works here:\n"
	       "  - hwtrace decode / info / dump: read captures made on other "
	       "machines\n    (Intel PT, Intel BTS, CoreSight perf.data files, "
	       "OpenCSD snapshot directories)\n"
	       "  - hwtrace record --emulate: the in-process kernel emulator "
	       "replays real trace\n    through the same capture path\n"
	       "  - hwtrace config check --sysfs DIR: check profiles against "
	       "another machine's sysfs\n");
	const struct hwt_backend *swb = hwt_backend_find("sw_branch");
	if (swb)
		printf("  - %s: %s\n", swb->name, swb->description);
}

/* Branch-stack sampling (LBR, BRS, BRBE): not a trace PMU, but the other way
 * this machine records branches. */
static void print_branch_records(const struct hwt_os *os)
{
	struct hwt_branch_hw hw;
	int rc = hwt_branch_hw_probe(os, &hw);
	if (rc == HWT_ERR_NOENT)
		printf("\nBranch records (perf record -b): none (the cpu PMU has "
		       "no caps/branches or events/branch-brs)\n");
	else if (rc < 0)
		printf("\nBranch records: %s\n", hwt_errmsg());
	else {
		char counters[64] = "";
		if (hw.counters)
			snprintf(counters, sizeof(counters),
				 ", %u branch counters of %u bits (-j counter)",
				 hw.counters, hw.counter_width);
		printf("\nBranch records (perf record -b, -j): %s on %s, %u records "
		       "a sample%s; hwtrace record -b samples them, decode and export read "
		       "their captures\n",
		       hwt_branch_hw_name(hw.kind), hw.pmu, hw.depth, counters);
	}
}

int cmd_list(int argc, char **argv)
{
	const char *sysfs = NULL;
	struct hwt_pmu_list *list;
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
	ret = hwt_pmu_scan(os, &list);
	if (ret) {
		hwt_os_free(own);
		return cli_report(ret);
	}
	if (sysfs && !list->nall) {
		/* Every kernel has the software PMU: an empty folder is not a
		 * sysfs tree. */
		fprintf(stderr, "hwtrace: %s/bus/event_source/devices is missing or "
			"empty: is %s a sysfs tree (like /sys)?\n", sysfs, sysfs);
		hwt_pmu_list_free(list);
		hwt_os_free(own);
		return EXIT_RUNTIME;
	}
	if (!list->count) {
		explain_none(list);
	} else {
		printf("Trace PMUs (sysfs at %s):\n", sysfs ? sysfs : "/sys");
		for (size_t i = 0; i < list->count; i++) {
			const struct hwt_pmu *p = &list->pmus[i];

			printf("\n%s: type %" PRIu32 ", %s, %s\n", p->name, p->type,
			       description(p),
			       p->supported ? "supported" :
					      "present but not supported yet");
			print_formats(p);
			print_caps(p);
			if (p->nr_addr_filters >= 0)
				printf("  address filters: %d\n", p->nr_addr_filters);
			if (p->kind == HWT_PMU_INTEL_BTS)
				printf("  records per thread only (the kernel refuses "
				       "per-CPU BTS events)\n");
			if (p->kind == HWT_PMU_CS_ETM)
				print_coresight(p);
		}
	}
	print_branch_records(os);
	printf("\n");
	hwt_backends_print_decoders(stdout, "Decoders in this build:");
	hwt_pmu_list_free(list);
	hwt_os_free(own);
	return EXIT_OK;
}
