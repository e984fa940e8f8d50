/* The CoreSight part of `hwtrace list` (hwtrace/trace_hw.h): the sinks of
 * a cs_etm PMU, each CPU's trace unit with its ID registers, and the path
 * its trace takes to memory (each CPU's TRBE, an ETR, or the kernel's
 * default sink). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace_hw_print.h"
#include "hwtrace/pmu.h"

/* The CPUs whose units have (@trbe) or lack a TRBE, as "0-3,6". */
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

static void print_units(FILE *out, const struct hwt_pmu *pmu)
{
	fprintf(out, "\n  trace units:%s\n", pmu->nunits ? "" : " none");
	for (size_t i = 0; i < pmu->nunits; i++) {
		const struct hwt_trace_unit *u = &pmu->units[i];

		fprintf(out, "    cpu%-3d %-6s", u->cpu,
			hwt_trace_unit_kind_name(u->kind));
		for (size_t r = 0; r < u->nregs; r++)
			fprintf(out, " %s=%#" PRIx64, u->regs[r].name,
				u->regs[r].value);
		fprintf(out, "%s\n", u->trbe ? "  TRBE" : "");
	}
}

void hwt_trace_hw_print_coresight(FILE *out, const struct hwt_pmu *pmu)
{
	const struct hwt_pmu_sink *etr = NULL;
	char with[128], without[128];

	fprintf(out, "  sinks:");
	if (!pmu->nsinks)
		fprintf(out, " none");
	for (size_t i = 0; i < pmu->nsinks; i++) {
		fprintf(out, "%s %s (id 0x%08" PRIx32 ")", i ? "," : "",
			pmu->sinks[i].name, pmu->sinks[i].id);
		if (!etr && !strncmp(pmu->sinks[i].name, "tmc_etr", 7))
			etr = &pmu->sinks[i];
	}
	print_units(out, pmu);
	cpu_ranges(pmu, true, with, sizeof(with));
	cpu_ranges(pmu, false, without, sizeof(without));
	if (pmu->nunits && !without[0])
		fprintf(out, "  sink path: TRBE (every CPU has one; with no sink "
			"named the kernel uses each CPU's own TRBE)\n");
	else if (etr)
		fprintf(out, "  sink path: ETR %s (CPU %s %s no TRBE%s%s)\n",
			etr->name, without,
			strchr(without, ',') || strchr(without, '-') ? "have" : "has",
			with[0] ? "; TRBE on CPU " : "", with);
	else if (pmu->nunits)
		fprintf(out, "  sink path: the kernel's default sink (no TRBE on "
			"CPU %s and no ETR)\n", without);
}
