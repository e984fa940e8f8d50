/* Questions asked of a scanned PMU list: a PMU by name, its format
 * terms, caps, sinks and trace units. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/pmu.h"

const struct hwt_pmu *hwt_pmu_list_find(const struct hwt_pmu_list *list,
					const char *name)
{
	for (size_t i = 0; list && i < list->count; i++)
		if (!strcmp(list->pmus[i].name, name))
			return &list->pmus[i];
	return NULL;
}

const struct hwt_pmu_format *hwt_pmu_format(const struct hwt_pmu *pmu,
					    const char *term)
{
	for (size_t i = 0; i < pmu->nformats; i++)
		if (!strcmp(pmu->formats[i].name, term))
			return &pmu->formats[i];
	return NULL;
}

const char *hwt_pmu_cap(const struct hwt_pmu *pmu, const char *name)
{
	for (size_t i = 0; i < pmu->ncaps; i++)
		if (!strcmp(pmu->caps[i].name, name))
			return pmu->caps[i].value;
	return NULL;
}

bool hwt_pmu_cap_u64(const struct hwt_pmu *pmu, const char *name,
		     uint64_t *value)
{
	const char *s = hwt_pmu_cap(pmu, name);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*value = strtoull(s, &end, 16);
	return !errno && *end == '\0';
}

const struct hwt_pmu_sink *hwt_pmu_sink(const struct hwt_pmu *pmu,
					const char *name)
{
	for (size_t i = 0; i < pmu->nsinks; i++)
		if (!strcmp(pmu->sinks[i].name, name))
			return &pmu->sinks[i];
	return NULL;
}

const struct hwt_trace_unit *hwt_pmu_trace_unit(const struct hwt_pmu *pmu,
						int cpu)
{
	for (size_t i = 0; i < pmu->nunits; i++)
		if (pmu->units[i].cpu == cpu)
			return &pmu->units[i];
	return NULL;
}

bool hwt_trace_unit_reg(const struct hwt_trace_unit *unit, const char *name,
			uint64_t *value)
{
	for (size_t i = 0; i < unit->nregs; i++)
		if (!strcmp(unit->regs[i].name, name)) {
			*value = unit->regs[i].value;
			return true;
		}
	return false;
}

const char *hwt_trace_unit_kind_name(enum hwt_trace_unit_kind kind)
{
	switch (kind) {
	case HWT_TU_ETMV3: return "ETMv3";
	case HWT_TU_PTM: return "PTM";
	case HWT_TU_ETMV4: return "ETMv4";
	case HWT_TU_ETE: return "ETE";
	case HWT_TU_UNKNOWN: break;
	}
	return "unknown";
}
