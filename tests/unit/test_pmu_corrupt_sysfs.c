/* Malformed or unusual sysfs trees give clean errors naming the file, never
 * a crash; ETMv3/PTM trace units are told apart by ETMIDR. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

static char root[] = "/tmp/hwt_sysfs_XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[1024], dir[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void wipe(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/bus '%s'/devices", root, root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not clean %s\n", root);
}

static int scan(struct hwt_pmu_list **l)
{
	struct hwt_os *os = hwt_os_linux_new(root);
	int ret;

	*l = NULL;
	ret = hwt_pmu_scan(os, l);
	hwt_os_free(os);
	return ret;
}

#define D "bus/event_source/devices/"

static void bad_files_are_named(void)
{
	struct hwt_pmu_list *l;

	wipe();
	put(D "intel_pt/type", "6\n");
	put(D "intel_pt/format/psb_period", "config:24-99\n");
	CHECK_INT(scan(&l), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "sysfs/" D "intel_pt/format/psb_period: cannot "
				"parse format \"config:24-99\": bad bit range");
	CHECK(l == NULL);

	wipe();
	put(D "cs_etm/type", "8\n");
	put(D "cs_etm/sinks/tmc_etr0", "0x1a6509eae\n");
	CHECK_INT(scan(&l), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "sysfs/" D "cs_etm/sinks/tmc_etr0: sink id "
				"0x1a6509eae does not fit 32 bits");

	wipe();
	put(D "cs_etm/type", "8\n");
	put(D "cs_etm/cpu0/trcidr/trcidr0", "garbage\n");
	CHECK_INT(scan(&l), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "sysfs/" D "cs_etm/cpu0/trcidr/trcidr0: expected "
				"a number, found \"garbage\"");

	wipe();
	put(D "intel_bts/type", "");
	CHECK_INT(scan(&l), HWT_ERR_FORMAT);

	wipe();
	put(D "intel_pt/type", "6\n");
	put(D "intel_pt/nr_addr_filters", "two\n");
	CHECK_INT(scan(&l), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "intel_pt/nr_addr_filters: expected a number");
}

/* ETMIDR architecture [11:4]: 0x30 for PTM (OpenCSD's Snowball snapshot,
 * ETMIDR 0x411cf301) and 0x25 for ETMv3.5. */
static void etmv3_and_ptm_units(void)
{
	struct hwt_pmu_list *l;
	const struct hwt_pmu *cs;

	wipe();
	put(D "cs_etm/type", "8\n");
	put(D "cs_etm/cpu0/mgmt/etmidr", "0x411cf301\n");
	put(D "cs_etm/cpu0/mgmt/etmccer", "0x8ea\n");
	put(D "cs_etm/cpu1/mgmt/etmidr", "0x410cf250\n");
	put(D "cs_etm/cpu2/nothing", "\n");
	CHECK_INT(scan(&l), 0);
	cs = l ? hwt_pmu_list_find(l, "cs_etm") : NULL;
	CHECK(cs != NULL);
	if (cs) {
		CHECK_INT(cs->nunits, 3);
		CHECK_INT(hwt_pmu_trace_unit(cs, 0)->kind, HWT_TU_PTM);
		CHECK_INT(hwt_pmu_trace_unit(cs, 1)->kind, HWT_TU_ETMV3);
		CHECK_INT(hwt_pmu_trace_unit(cs, 2)->kind, HWT_TU_UNKNOWN);
		CHECK_INT(cs->nsinks, 0);
		CHECK_INT(cs->nformats, 0);
	}
	hwt_pmu_list_free(l);
}

/* A per-CPU session on PTM units gets none of perf's ETMv4 defaults
 * (contextid, timestamp): the ETMv3 driver refuses options it lacks. */
static void ptm_session_has_no_etmv4_defaults(void)
{
	struct hwt_os *os;
	struct hwt_pmu_list *l = NULL;
	struct hwt_profile *p = hwt_profile_new();
	struct hwt_event_plan plan;

	wipe();
	put(D "cs_etm/type", "8\n");
	put(D "cs_etm/format/contextid", "config:14\n");
	put(D "cs_etm/format/timestamp", "config:28\n");
	put(D "cs_etm/cpu0/mgmt/etmidr", "0x411cf301\n");
	put("devices/system/cpu/online", "0\n");
	os = hwt_os_linux_new(root);
	CHECK_INT(hwt_pmu_scan(os, &l), 0);
	CHECK_INT(hwt_profile_parse_event(p, "cs_etm//"), 0);
	CHECK_INT(hwt_profile_build_attrs(p, os, l, &plan), 0);
	CHECK_U64(plan.aux_attr.config, 0);
	hwt_event_plan_release(&plan);
	hwt_profile_free(p);
	hwt_pmu_list_free(l);
	hwt_os_free(os);
}

/* Unknown AUX PMUs are listed as present but not supported. */
static void spe_is_named_not_supported(void)
{
	struct hwt_pmu_list *l;
	const struct hwt_pmu *spe;

	wipe();
	put(D "arm_spe_0/type", "9\n");
	put(D "arm_spe_0/caps/min_interval", "1024\n");
	put(D "armv8_pmuv3_0/type", "10\n");
	CHECK_INT(scan(&l), 0);
	if (!l)
		return;
	CHECK_INT(l->count, 1);
	spe = hwt_pmu_list_find(l, "arm_spe_0");
	CHECK(spe && spe->kind == HWT_PMU_ARM_SPE && !spe->supported);
	CHECK(spe && spe->type == 9);
	CHECK_STR(hwt_pmu_cap(spe, "min_interval"), "1024");
	CHECK_INT(l->nall, 2);
	hwt_pmu_list_free(l);
}

int main(void)
{
	if (!mkdtemp(root)) {
		fprintf(stderr, "cannot create a temporary directory\n");
		return 1;
	}
	RUN(bad_files_are_named);
	RUN(etmv3_and_ptm_units);
	RUN(spe_is_named_not_supported);
	RUN(ptm_session_has_no_etmv4_defaults);
	wipe();
	rmdir(root);
	return hwt_test_summary();
}
