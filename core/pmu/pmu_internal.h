/* What the PMU scan's parts share (pmu_scan.c, pmu_units.c): sysfs
 * listing and number reading through the OS seam. */
#ifndef HWT_CORE_PMU_INTERNAL_H
#define HWT_CORE_PMU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

#define DEVICES "bus/event_source/devices"

struct names {
	size_t count, cap;
	char (*v)[HWT_PMU_NAME_MAX];
	int only_dirs;
};

/* Lists sysfs @path (folders only when @only_dirs) into @out, which the
 * caller frees (out->v); a missing folder is an empty list. */
int hwt_pmu_list_dir(const struct hwt_os *os, const char *path, int only_dirs,
		     struct names *out);
/* Reads a number from sysfs @path; 0 or a negative hwt_err. */
int hwt_pmu_read_u64(const struct hwt_os *os, const char *path, uint64_t *v);
/* Fills pmu->units from the PMU's cpuN folders and the CoreSight devices
 * of sysfs. */
int hwt_pmu_scan_units(const struct hwt_os *os, struct hwt_pmu *pmu);

#endif
