/* The text of `hwtrace list` (hwtrace/trace_hw.h): each trace PMU with
 * its format terms and caps, or why there is none and what still works;
 * then the branch records and the decoders of this build. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace_hw_print.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/trace_hw.h"

/* The registered backend's description of a PMU it drives. */
static const char *description(const struct hwt_pmu *pmu)
{
	const struct hwt_backend *b = hwt_backend_find(pmu->name);

	if (b && b->pmu_name && !strcmp(b->pmu_name, pmu->name))
		return b->description;
	if (pmu->kind == HWT_PMU_ARM_SPE)
		return "Arm Statistical Profiling Extension";
	return "AUX-area PMU";
}

/* "name=config:0-3,8", four to a line. */
static void print_formats(FILE *out, const struct hwt_pmu *pmu)
{
	static const char *const words[] = {"config", "config1", "config2",
					    "config3"};

	if (!pmu->nformats)
		return;
	fprintf(out, "  format terms:");
	for (size_t i = 0; i < pmu->nformats; i++) {
		const struct hwt_pmu_format *f = &pmu->formats[i];

		fprintf(out, "%s %s=%s:", i && i % 4 == 0 ? "\n   " : "",
			f->name, words[f->word & 3]);
		for (unsigned int r = 0; r < f->nranges; r++) {
			if (f->ranges[r].lo == f->ranges[r].hi)
				fprintf(out, "%s%u", r ? "," : "", f->ranges[r].lo);
			else
				fprintf(out, "%s%u-%u", r ? "," : "",
					f->ranges[r].lo, f->ranges[r].hi);
		}
	}
	fprintf(out, "\n");
}

/* "name=value", five to a line. */
static void print_caps(FILE *out, const struct hwt_pmu *pmu)
{
	if (!pmu->ncaps)
		return;
	fprintf(out, "  caps:");
	for (size_t i = 0; i < pmu->ncaps; i++)
		fprintf(out, "%s %s=%s", i && i % 5 == 0 ? "\n   " : "",
			pmu->caps[i].name, pmu->caps[i].value);
	fprintf(out, "\n");
}

static void print_pmu(FILE *out, const struct hwt_pmu *p)
{
	fprintf(out, "\n%s: type %" PRIu32 ", %s, %s\n", p->name, p->type,
		description(p),
		p->supported ? "supported" : "present but not supported yet");
	print_formats(out, p);
	print_caps(out, p);
	if (p->nr_addr_filters >= 0)
		fprintf(out, "  address filters: %d\n", p->nr_addr_filters);
	if (p->kind == HWT_PMU_INTEL_BTS)
		fprintf(out, "  records per thread only (the kernel refuses "
			"per-CPU BTS events)\n");
	if (p->kind == HWT_PMU_CS_ETM)
		hwt_trace_hw_print_coresight(out, p);
}

/* No trace PMU: why (by the CPU vendor and the CoreSight bus), which PMUs
 * there are, and what works without one. */
static void explain_none(FILE *out, const struct hwt_pmu_list *list)
{
	const char *v = list->cpu_vendor;
	const struct hwt_backend *swb = hwt_backend_find("sw_branch");

	fprintf(out, "No trace PMU on this machine.\n\nWhy:\n");
	if (!strcmp(v, "GenuineIntel"))
		fprintf(out, "  - no intel_pt or intel_bts PMU although this is an "
			"Intel CPU: it predates Intel PT (Broadwell), or a "
			"hypervisor or the kernel configuration hides it\n");
	else
		fprintf(out, "  - no intel_pt or intel_bts PMU: this CPU's vendor "
			"is %s; Intel PT and BTS exist only on Intel CPUs\n",
			v[0] ? v : "unknown");
	if (list->have_coresight_bus)
		fprintf(out, "  - no cs_etm PMU although /sys/bus/coresight exists: "
			"the CoreSight ETM drivers (coresight-etm4x) are not "
			"loaded\n");
	else
		fprintf(out, "  - no cs_etm PMU and no /sys/bus/coresight/devices: "
			"no CoreSight trace units are registered (not an Arm "
			"board, or its CoreSight drivers are not loaded)\n");
	fprintf(out, "\nPMUs present (none of them traces):");
	for (size_t i = 0; i < list->nall; i++)
		fprintf(out, "%s %s", i ? "," : "", list->all[i]);
	fprintf(out, "%s\n", list->nall ? "" : " none");
	fprintf(out, "\nWhat still works here:\n"
		"  - hwtrace decode / info / dump: read captures made on other "
		"machines\n    (Intel PT, Intel BTS, CoreSight perf.data files, "
		"OpenCSD snapshot directories)\n"
		"  - hwtrace record --emulate: the in-process kernel emulator "
		"replays real trace\n    through the same capture path\n"
		"  - hwtrace config check --sysfs DIR: check profiles against "
		"another machine's sysfs\n");
	if (swb)
		fprintf(out, "  - %s: %s\n", swb->name, swb->description);
}

/* Branch-stack sampling (LBR, BRS, BRBE): not a trace PMU, but the other
 * way this machine records branches. */
static void print_branch_records(FILE *out, const struct hwt_trace_hw *hw)
{
	const struct hwt_branch_hw *b = &hw->branch;
	char counters[64] = "";

	if (hw->branch_status == HWT_ERR_NOENT) {
		fprintf(out, "\nBranch records (perf record -b): none (the cpu PMU "
			"has no caps/branches or events/branch-brs)\n");
		return;
	}
	if (hw->branch_status < 0) {
		fprintf(out, "\nBranch records: %s\n", hw->branch_error);
		return;
	}
	if (b->counters)
		snprintf(counters, sizeof(counters),
			 ", %u branch counters of %u bits (-j counter)",
			 b->counters, b->counter_width);
	fprintf(out, "\nBranch records (perf record -b, -j): %s on %s, %u records "
		"a sample%s; hwtrace record -b samples them, decode and export "
		"read their captures\n", hwt_branch_hw_name(b->kind), b->pmu,
		b->depth, counters);
}

int hwt_trace_hw_print(FILE *out, const struct hwt_trace_hw *hw,
		       const char *sysfs)
{
	const struct hwt_pmu_list *list = hw->pmus;

	if (!list->count) {
		explain_none(out, list);
	} else {
		fprintf(out, "Trace PMUs (sysfs at %s):\n", sysfs);
		for (size_t i = 0; i < list->count; i++)
			print_pmu(out, &list->pmus[i]);
	}
	print_branch_records(out, hw);
	fprintf(out, "\n");
	hwt_backends_print_decoders(out, "Decoders in this build:");
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the list of PMUs failed");
	return 0;
}
