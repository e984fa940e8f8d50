/* A CoreSight PMU's per-CPU trace units: their ID and configuration
 * registers from sysfs, and which architecture they implement. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmu/pmu_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

static int add_reg(struct hwt_trace_unit *u, size_t *cap, const char *name,
		   uint64_t value)
{
	if (u->nregs == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		void *p = realloc(u->regs, ncap * sizeof(*u->regs));
		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		u->regs = p;
		*cap = ncap;
	}
	snprintf(u->regs[u->nregs].name, sizeof(u->regs[0].name), "%s", name);
	u->regs[u->nregs++].value = value;
	return 0;
}

static int scan_regs(const struct hwt_os *os, const char *dir,
		     struct hwt_trace_unit *u, size_t *cap)
{
	struct names n;
	int ret = hwt_pmu_list_dir(os, dir, 0, &n);

	for (size_t i = 0; !ret && i < n.count; i++) {
		char file[400];
		uint64_t v;

		snprintf(file, sizeof(file), "%s/%s", dir, n.v[i]);
		ret = hwt_pmu_read_u64(os, file, &v);
		if (!ret)
			ret = add_reg(u, cap, n.v[i], v);
	}
	free(n.v);
	return ret;
}

/* ETE reports TRCDEVARCH.ARCHVER >= 5 with ARCHPART 0xA13 (ETMv4 is
 * version 4); ETMv3 and PTM have mgmt/etmidr instead of trcidr/, whose
 * architecture field [11:4] is 0x2x for ETMv3 and 0x3x for PTM (PFT). */
static enum hwt_trace_unit_kind unit_kind(const struct hwt_trace_unit *u)
{
	uint64_t v;

	if (hwt_trace_unit_reg(u, "trcdevarch", &v) && (v & 0xfff) == 0xa13 &&
	    ((v >> 12) & 0xf) >= 5)
		return HWT_TU_ETE;
	if (hwt_trace_unit_reg(u, "trcidr0", &v))
		return HWT_TU_ETMV4;
	if (hwt_trace_unit_reg(u, "etmidr", &v))
		return ((v >> 8) & 0xf) == 3 ? HWT_TU_PTM : HWT_TU_ETMV3;
	return HWT_TU_UNKNOWN;
}

/* "trcidr2" before "trcidr10": names compare by their number part. */
static int cmp_regs(const void *a, const void *b)
{
	const char *x = ((const struct hwt_trace_reg *)a)->name;
	const char *y = ((const struct hwt_trace_reg *)b)->name;
	size_t px = strcspn(x, "0123456789"), py = strcspn(y, "0123456789");

	if (px == py && !strncmp(x, y, px) && x[px] && y[py]) {
		long nx = strtol(x + px, NULL, 10), ny = strtol(y + py, NULL, 10);

		if (nx != ny)
			return (nx > ny) - (nx < ny);
	}
	return strcmp(x, y);
}

static int cmp_units(const void *a, const void *b)
{
	const struct hwt_trace_unit *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int hwt_pmu_scan_units(const struct hwt_os *os, struct hwt_pmu *pmu)
{
	char path[256];
	struct names n, cs;
	size_t ncpu = 0;
	int ret;

	snprintf(path, sizeof(path), DEVICES "/%s", pmu->name);
	ret = hwt_pmu_list_dir(os, path, 1, &n);
	if (ret)
		return ret;
	/* Each CPU with a TRBE has bus/coresight/devices/trbe<cpu>. */
	ret = hwt_pmu_list_dir(os, "bus/coresight/devices", 1, &cs);
	if (ret) {
		free(n.v);
		return ret;
	}
	for (size_t i = 0; i < n.count; i++)
		if (!strncmp(n.v[i], "cpu", 3) && n.v[i][3] >= '0' && n.v[i][3] <= '9')
			ncpu++;
	pmu->units = ncpu ? calloc(ncpu, sizeof(*pmu->units)) : NULL;
	if (ncpu && !pmu->units) {
		free(n.v);
		free(cs.v);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; !ret && i < n.count; i++) {
		struct hwt_trace_unit *u;
		char dir[400], trbe[128];
		size_t cap = 0;
		char *end;
		long cpu;

		if (strncmp(n.v[i], "cpu", 3) || n.v[i][3] < '0' || n.v[i][3] > '9')
			continue;
		cpu = strtol(n.v[i] + 3, &end, 10);
		if (*end || cpu < 0 || cpu > 65535)
			continue;
		u = &pmu->units[pmu->nunits++];
		u->cpu = (int)cpu;
		snprintf(dir, sizeof(dir), "%s/%s/trcidr", path, n.v[i]);
		ret = scan_regs(os, dir, u, &cap);
		if (!ret) {
			snprintf(dir, sizeof(dir), "%s/%s/mgmt", path, n.v[i]);
			ret = scan_regs(os, dir, u, &cap);
		}
		u->kind = unit_kind(u);
		if (u->nregs > 1)
			qsort(u->regs, u->nregs, sizeof(*u->regs), cmp_regs);
		snprintf(trbe, sizeof(trbe), "trbe%d", u->cpu);
		for (size_t k = 0; k < cs.count; k++)
			if (!strcmp(cs.v[k], trbe))
				u->trbe = true;
	}
	free(cs.v);
	free(n.v);
	if (!ret && pmu->nunits > 1)
		qsort(pmu->units, pmu->nunits, sizeof(*pmu->units), cmp_units);
	return ret;
}
