/* Discovery of trace PMUs under /sys/bus/event_source/devices through the OS
 * seam: each PMU's type, format terms, caps and sinks. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmu/pmu_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "hwtrace/backend.h"

static int collect(void *arg, const char *name, int is_dir)
{
	struct names *n = arg;

	if (n->only_dirs && !is_dir)
		return 0;
	if (strlen(name) >= HWT_PMU_NAME_MAX)
		return 0;
	if (n->count == n->cap) {
		size_t ncap = n->cap ? n->cap * 2 : 16;
		void *p = realloc(n->v, ncap * sizeof(*n->v));
		if (!p)
			return -ENOMEM;
		n->v = p;
		n->cap = ncap;
	}
	snprintf(n->v[n->count++], HWT_PMU_NAME_MAX, "%s", name);
	return 0;
}

/* Lists @path; a missing folder is an empty list. */
int hwt_pmu_list_dir(const struct hwt_os *os, const char *path, int only_dirs,
		     struct names *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->only_dirs = only_dirs;
	ret = os->ops->sysfs_list(os->ctx, path, collect, out);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return 0;
	if (ret == -ENOMEM)
		return hwt_error(HWT_ERR_NOMEM, "out of memory listing sysfs/%s",
				 path);
	if (ret < 0)
		return hwt_error(HWT_ERR_IO, "cannot list sysfs/%s: %s", path,
				 strerror(-ret));
	return 0;
}

static enum hwt_pmu_kind kind_of(const char *name)
{
	if (!strcmp(name, "intel_pt"))
		return HWT_PMU_INTEL_PT;
	if (!strcmp(name, "intel_bts"))
		return HWT_PMU_INTEL_BTS;
	if (!strcmp(name, "cs_etm"))
		return HWT_PMU_CS_ETM;
	if (!strncmp(name, "arm_spe", 7))
		return HWT_PMU_ARM_SPE;
	return HWT_PMU_OTHER_AUX;
}

static int backend_supports(const char *pmu_name);

/* AUX-area PMUs that hwtrace names, and those of registered backends;
 * everything else under devices/ is a counting PMU and not listed. */
static int is_trace_pmu(const char *name)
{
	return backend_supports(name) ||
	       !strcmp(name, "intel_pt") || !strcmp(name, "intel_bts") ||
	       !strcmp(name, "cs_etm") || !strncmp(name, "arm_spe", 7) ||
	       !strncmp(name, "hisi_ptt", 8) || !strcmp(name, "cpum_sf");
}

int hwt_pmu_read_u64(const struct hwt_os *os, const char *path, uint64_t *v)
{
	return hwt_os_sysfs_read_u64(os, path, v);
}

static int scan_formats(const struct hwt_os *os, struct hwt_pmu *pmu)
{
	char path[256], buf[128];
	struct names n;
	int ret;

	snprintf(path, sizeof(path), DEVICES "/%s/format", pmu->name);
	ret = hwt_pmu_list_dir(os, path, 0, &n);
	if (ret)
		return ret;
	pmu->formats = n.count ? calloc(n.count, sizeof(*pmu->formats)) : NULL;
	if (n.count && !pmu->formats) {
		free(n.v);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n.count; i++) {
		struct hwt_pmu_format *f = &pmu->formats[pmu->nformats];
		char file[320];

		snprintf(file, sizeof(file), "%s/%s", path, n.v[i]);
		ret = hwt_os_sysfs_read(os, file, buf, sizeof(buf));
		if (ret < 0)
			break;
		snprintf(f->name, sizeof(f->name), "%s", n.v[i]);
		snprintf(file, sizeof(file), "sysfs/%s/%s", path, n.v[i]);
		ret = hwt_pmu_format_parse(buf, file, f);
		if (ret)
			break;
		pmu->nformats++;
	}
	free(n.v);
	return ret < 0 ? ret : 0;
}

static int scan_caps(const struct hwt_os *os, struct hwt_pmu *pmu)
{
	char path[256];
	struct names n;
	int ret;

	snprintf(path, sizeof(path), DEVICES "/%s/caps", pmu->name);
	ret = hwt_pmu_list_dir(os, path, 0, &n);
	if (ret)
		return ret;
	pmu->caps = n.count ? calloc(n.count, sizeof(*pmu->caps)) : NULL;
	if (n.count && !pmu->caps) {
		free(n.v);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n.count; i++) {
		struct hwt_pmu_cap *c = &pmu->caps[pmu->ncaps];
		char file[320];

		snprintf(file, sizeof(file), "%s/%s", path, n.v[i]);
		ret = hwt_os_sysfs_read(os, file, c->value, sizeof(c->value));
		if (ret < 0)
			break;
		snprintf(c->name, sizeof(c->name), "%s", n.v[i]);
		pmu->ncaps++;
	}
	free(n.v);
	return ret < 0 ? ret : 0;
}

static int scan_sinks(const struct hwt_os *os, struct hwt_pmu *pmu)
{
	char path[256];
	struct names n;
	int ret = 0;

	snprintf(path, sizeof(path), DEVICES "/%s/sinks", pmu->name);
	ret = hwt_pmu_list_dir(os, path, 0, &n);
	if (ret)
		return ret;
	pmu->sinks = n.count ? calloc(n.count, sizeof(*pmu->sinks)) : NULL;
	if (n.count && !pmu->sinks) {
		free(n.v);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n.count; i++) {
		char file[320];
		uint64_t id;

		snprintf(file, sizeof(file), "%s/%s", path, n.v[i]);
		ret = hwt_pmu_read_u64(os, file, &id);
		if (ret)
			break;
		if (id > UINT32_MAX) {
			ret = hwt_error(HWT_ERR_FORMAT, "sysfs/%s: sink id 0x%" PRIx64
					" does not fit 32 bits", file, id);
			break;
		}
		snprintf(pmu->sinks[pmu->nsinks].name, HWT_PMU_NAME_MAX, "%s",
			 n.v[i]);
		pmu->sinks[pmu->nsinks++].id = (uint32_t)id;
	}
	free(n.v);
	return ret;
}

static int backend_supports(const char *pmu_name)
{
	const struct hwt_backend *b;

	for (size_t i = 0; (b = hwt_backend_at(i)); i++)
		if (b->pmu_name && !strcmp(b->pmu_name, pmu_name))
			return 1;
	return 0;
}

static int scan_one(const struct hwt_os *os, const char *name,
		    struct hwt_pmu *pmu)
{
	char path[256];
	uint64_t v;
	int ret;

	snprintf(pmu->name, sizeof(pmu->name), "%s", name);
	pmu->kind = kind_of(name);
	/* A PMU of a registered backend (in-tree or out-of-tree) is driven
	 * by it, whatever its name. */
	pmu->supported = pmu->kind != HWT_PMU_ARM_SPE && backend_supports(name);
	pmu->nr_addr_filters = -1;
	snprintf(path, sizeof(path), DEVICES "/%s/type", name);
	ret = hwt_pmu_read_u64(os, path, &v);
	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return hwt_error(HWT_ERR_FORMAT, "sysfs/%s: type %" PRIu64
				 " does not fit 32 bits", path, v);
	pmu->type = (uint32_t)v;
	snprintf(path, sizeof(path), DEVICES "/%s/nr_addr_filters", name);
	ret = hwt_pmu_read_u64(os, path, &v);
	if (ret == 0)
		pmu->nr_addr_filters = v > 64 ? 64 : (int)v;
	else if (ret != HWT_ERR_NOENT)
		return ret;
	hwt_error_clear();
	if ((ret = scan_formats(os, pmu)) || (ret = scan_caps(os, pmu)))
		return ret;
	if (pmu->kind == HWT_PMU_CS_ETM &&
	    ((ret = scan_sinks(os, pmu)) || (ret = hwt_pmu_scan_units(os, pmu))))
		return ret;
	return 0;
}

static void read_vendor(const struct hwt_os *os, struct hwt_pmu_list *list)
{
	char *buf = malloc(65536);
	const char *keys[] = {"vendor_id", "CPU implementer"};

	if (!buf)
		return;
	if (hwt_os_procfs_read(os, "cpuinfo", buf, 65536) > 0) {
		for (size_t k = 0; k < 2 && !list->cpu_vendor[0]; k++) {
			char *p = strstr(buf, keys[k]);
			char *colon = p ? strchr(p, ':') : NULL;

			if (!colon)
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			size_t len = strcspn(colon, "\n");
			if (len >= sizeof(list->cpu_vendor))
				len = sizeof(list->cpu_vendor) - 1;
			memcpy(list->cpu_vendor, colon, len);
			list->cpu_vendor[len] = '\0';
			if (k == 1 && !strcmp(list->cpu_vendor, "0x41"))
				snprintf(list->cpu_vendor, sizeof(list->cpu_vendor),
					 "Arm (implementer 0x41)");
		}
	}
	free(buf);
	hwt_error_clear();
}

int hwt_pmu_scan(const struct hwt_os *os, struct hwt_pmu_list **out)
{
	struct hwt_pmu_list *list;
	struct names n, cs;
	int ret;

	if (!os || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_pmu_scan: NULL argument");
	list = calloc(1, sizeof(*list));
	if (!list)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	ret = hwt_pmu_list_dir(os, DEVICES, 1, &n);
	if (ret) {
		free(list);
		return ret;
	}
	list->all = n.v;
	list->nall = n.count;
	for (size_t i = 0; i < n.count; i++)
		if (is_trace_pmu(n.v[i]))
			list->count++;
	list->pmus = list->count ? calloc(list->count, sizeof(*list->pmus)) : NULL;
	if (list->count && !list->pmus) {
		hwt_pmu_list_free(list);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	list->count = 0;
	for (size_t i = 0; i < n.count; i++) {
		if (!is_trace_pmu(n.v[i]))
			continue;
		ret = scan_one(os, n.v[i], &list->pmus[list->count++]);
		if (ret) {
			hwt_pmu_list_free(list);
			return ret;
		}
	}
	memset(&cs, 0, sizeof(cs));
	list->have_coresight_bus = os->ops->sysfs_list(os->ctx,
						       "bus/coresight/devices",
						       collect, &cs) == 0;
	free(cs.v);
	if (hwt_os_sysfs_read(os, "devices/system/cpu/online", list->cpus_online,
			      sizeof(list->cpus_online)) < 0)
		list->cpus_online[0] = '\0';
	read_vendor(os, list);
	hwt_error_clear();
	*out = list;
	return 0;
}

void hwt_pmu_list_free(struct hwt_pmu_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->count; i++) {
		struct hwt_pmu *p = &list->pmus[i];

		free(p->formats);
		free(p->caps);
		free(p->sinks);
		for (size_t u = 0; u < p->nunits; u++)
			free(p->units[u].regs);
		free(p->units);
	}
	free(list->pmus);
	free(list->all);
	free(list);
}
