/* Branch-stack sampling filters: perf record -j's names (tools/perf/util/
 * parse-branch-options.c) into branch_sample_type, and what the CPU's
 * PMU offers for them in sysfs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

static const struct {
	const char *name;
	uint64_t bit;
} filters[] = {
	{"u", PERF_SAMPLE_BRANCH_USER},
	{"k", PERF_SAMPLE_BRANCH_KERNEL},
	{"hv", PERF_SAMPLE_BRANCH_HV},
	{"any", PERF_SAMPLE_BRANCH_ANY},
	{"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
	{"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN},
	{"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
	{"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
	{"in_tx", PERF_SAMPLE_BRANCH_IN_TX},
	{"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
	{"cond", PERF_SAMPLE_BRANCH_COND},
	{"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP},
	{"call", PERF_SAMPLE_BRANCH_CALL},
	{"no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS},
	{"no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES},
	{"save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE},
	{"stack", PERF_SAMPLE_BRANCH_CALL_STACK},
	{"hw_index", PERF_SAMPLE_BRANCH_HW_INDEX},
	{"priv", HWT_SAMPLE_BRANCH_PRIV_SAVE},
	{"counter", HWT_SAMPLE_BRANCH_COUNTERS},
};

#define ONLY_PRIV \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

int hwt_branch_filter_parse(const char *spec, const char *what,
			    uint64_t *mode)
{
	*mode = 0;
	const char *s = spec ? spec : "";
	for (;;) {
		size_t n = strcspn(s, ",");
		size_t i = 0;
		while (i < sizeof(filters) / sizeof(*filters) &&
		       (strlen(filters[i].name) != n ||
			strncasecmp(s, filters[i].name, n)))
			i++;
		if (i == sizeof(filters) / sizeof(*filters)) {
			*mode = 0;
			return hwt_error(HWT_ERR_CONFIG, "%s %s: unknown branch "
					 "filter %.*s, check man page",
					 what, spec ? spec : "", (int)n, s);
		}
		*mode |= filters[i].bit;
		if (!s[n])
			break;
		s += n + 1;
	}
	/* As perf: privilege levels alone mean every branch (and then
	 * the event's exclude_* bits say whose). */
	if (!(*mode & ~ONLY_PRIV))
		*mode = PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/* The value of a cap or event file of the CPU's PMU, or NULL. */
static const char *cpu_file(const struct hwt_os *os, const char *pmu,
			    const char *file, char *buf, size_t size)
{
	char path[256];
	snprintf(path, sizeof(path), "bus/event_source/devices/%s/%s", pmu, file);
	return hwt_os_sysfs_read(os, path, buf, size) >= 0 ? buf : NULL;
}

/* Whether @pmu's LBR is Arch LBR. The kernel says so in /proc/cpuinfo
 * (flag arch_lbr), which an emulated machine's sysfs does not carry; it
 * also names the PMU after the CPU in caps/pmu_name, and these names
 * (arch/x86/events/intel/core.c) are of CPUs whose LBR is Arch LBR
 * (Sapphire Rapids and Emerald Rapids; Alder Lake and Raptor Lake, both
 * core types; Meteor Lake; Sierra Forest and Grand Ridge, whose PMU the
 * kernel names after their Crestmont cores). Another Arch LBR PMU is taken for a legacy
 * LBR: only the emulator's samples (hw_idx, types) depend on it. */
static bool arch_lbr_pmu(const struct hwt_os *os, const char *pmu)
{
	static const char *const names[] = {"sapphire_rapids",
					    "alderlake_hybrid",
					    "meteorlake_hybrid", "crestmont"};
	char buf[64];
	if (!cpu_file(os, pmu, "caps/pmu_name", buf, sizeof(buf)))
		return false;
	buf[strcspn(buf, "\n")] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(buf, names[i]))
			return true;
	return false;
}

const char *hwt_branch_hw_name(enum hwt_branch_hw_kind kind)
{
	switch (kind) {
	case HWT_BRANCH_HW_BRS: return "AMD BRS";
	case HWT_BRANCH_HW_BRBE: return "Arm BRBE";
	default: return "LBR";
	}
}

/* Arm's PMUs (armv8_pmuv3_0, armv9_...): BRBE where one has a depth. */
struct arm_find {
	const struct hwt_os *os;
	struct hwt_branch_hw *out;
	int err;
};

static int arm_pmu(void *arg, const char *name, int is_dir)
{
	struct arm_find *f = arg;
	char buf[64];
	(void)is_dir;
	if (strncmp(name, "armv8_", 6) && strncmp(name, "armv9_", 6))
		return 0;
	if (!cpu_file(f->os, name, "caps/branches", buf, sizeof(buf)))
		return 0;
	char *end;
	unsigned long d = strtoul(buf, &end, 10);
	/* BRBIDR0_EL1.NUMREC: 8, 16, 32 or 64 records. */
	if (*end || (d != 8 && d != 16 && d != 32 && d != 64)) {
		f->err = hwt_error(HWT_ERR_FORMAT, "bus/event_source/devices/%s/"
				   "caps/branches: \"%s\" is not a BRBE depth "
				   "(8, 16, 32 or 64)", name, buf);
		return 1;
	}
	f->out->depth = (unsigned)d;
	f->out->kind = HWT_BRANCH_HW_BRBE;
	snprintf(f->out->pmu, sizeof(f->out->pmu), "%s", name);
	return 1;
}

/* caps/branch_counter_nr and caps/branch_counter_width (Linux 6.8, Intel's
 * LBR event logging): both or neither, and the counters must fit the
 * record's one 64-bit word. */
static int probe_counters(const struct hwt_os *os, const char *pmu,
			  struct hwt_branch_hw *out)
{
	char nr[64], width[64];
	bool has_nr = cpu_file(os, pmu, "caps/branch_counter_nr", nr, sizeof(nr));
	bool has_width = cpu_file(os, pmu, "caps/branch_counter_width", width,
				  sizeof(width));
	if (!has_nr)
		return 0;
	char *end_nr, *end_width = NULL;
	unsigned long n = strtoul(nr, &end_nr, 10);
	unsigned long w = has_width ? strtoul(width, &end_width, 10) : 0;
	if (*end_nr || !has_width || *end_width || !n || !w || n * w > 64)
		return hwt_error(HWT_ERR_FORMAT, "bus/event_source/devices/%s/"
				 "caps/branch_counter_nr \"%s\" and "
				 "branch_counter_width \"%s\": not counters "
				 "that fit a 64-bit word (both files, each at "
				 "least 1)", pmu, nr, has_width ? width : "(none)");
	out->counters = (unsigned)n;
	out->counter_width = (unsigned)w;
	return 0;
}

int hwt_branch_hw_probe(const struct hwt_os *os, struct hwt_branch_hw *out)
{
	char buf[64];
	memset(out, 0, sizeof(*out));
	/* Intel LBR and Arch LBR, AMD LBRv2: the depth in caps/branches;
	 * AMD BRS (Zen 3): its event, and its 16 entries. */
	static const char *const pmus[] = {"cpu", "cpu_core", "cpu_atom"};
	for (size_t i = 0; i < sizeof(pmus) / sizeof(*pmus) && !out->depth; i++) {
		if (cpu_file(os, pmus[i], "caps/branches", buf, sizeof(buf))) {
			char *end;
			unsigned long d = strtoul(buf, &end, 10);
			if (*end || !d || d > 256)
				return hwt_error(HWT_ERR_FORMAT,
						 "bus/event_source/devices/%s/caps/branches: "
						 "\"%s\" is not a branch record depth",
						 pmus[i], buf);
			out->depth = (unsigned)d;
			out->kind = HWT_BRANCH_HW_LBR;
			snprintf(out->pmu, sizeof(out->pmu), "%s", pmus[i]);
			int err = probe_counters(os, pmus[i], out);
			if (err)
				return err;
			out->arch_lbr = arch_lbr_pmu(os, pmus[i]);
		} else if (cpu_file(os, pmus[i], "events/branch-brs", buf,
				    sizeof(buf))) {
			out->depth = 16;
			out->kind = HWT_BRANCH_HW_BRS;
			snprintf(out->pmu, sizeof(out->pmu), "%s", pmus[i]);
		}
	}
	if (!out->depth) {
		struct arm_find f = {os, out, 0};
		os->ops->sysfs_list(os->ctx, "bus/event_source/devices", arm_pmu,
				    &f);
		if (f.err)
			return f.err;
	}
	return out->depth ? 0 : HWT_ERR_NOENT;
}

int hwt_branch_filter_check(const struct hwt_branch_hw *hw, uint64_t mode,
			    const char *event)
{
	if (!hw || !hw->depth)
		return hwt_error(HWT_ERR_NOSUP, "%s: PMU Hardware or event type "
				 "doesn't support branch stack sampling. (no "
				 "caps/branches or events/branch-brs in sysfs: "
				 "this CPU, or this VM, has no branch records; "
				 "sw_branch or a trace PMU records branches "
				 "instead)", event);
	if ((mode & HWT_SAMPLE_BRANCH_COUNTERS) && !hw->counters)
		return hwt_error(HWT_ERR_NOSUP, "%s: the branch counters (-j "
				 "counter) are not supported here: %s has no "
				 "caps/branch_counter_nr (Intel LBR from Linux "
				 "6.8 only)", event, hw->pmu);
	/* The kernel's amd_brs_setup_filter: no filtering at all. */
	if (hw->kind == HWT_BRANCH_HW_BRS &&
	    (mode & ~(uint64_t)ONLY_PRIV) != PERF_SAMPLE_BRANCH_ANY)
		return hwt_error(HWT_ERR_NOSUP, "%s: AMD BRS can only capture "
				 "all branches: use -j any (with u or k), no "
				 "other filter or flag", event);
	return 0;
}
