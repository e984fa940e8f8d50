/* cs_etm configure: perf's per-CPU defaults and TRCIDR checks. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backends/arm-cs/cs_record.h"
#include "backends/arm-cs/cs_info.h"
#include "hwtrace/config.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

/* Option bits of attr.config (include/linux/coresight-pmu.h). */
#define ETM_OPT_BRANCH_BROADCAST 8
#define ETM_OPT_CYCACC 12
#define ETM_OPT_CTXTID 14
#define ETM_OPT_CTXTID2 15
#define ETM_OPT_TS 28
#define ETM_OPT_RETSTK 29

/* TRCIDR0 fields (Arm ETM architecture v4 / ETE): TRCBB [5], TRCCCI [7],
 * RETSTACK [9], TSSIZE [28:24]. TRCIDR2: CIDSIZE [9:5], VMIDSIZE [14:10],
 * VMIDOPT [30:29]. */
#define FIELD(v, hi, lo) (((v) >> (lo)) & ((1ull << ((hi) - (lo) + 1)) - 1))

struct check {
	const char *term;
	const char *reg;
	const char *what;
	bool (*ok)(uint64_t reg);
};

static bool has_bb(uint64_t r) { return FIELD(r, 5, 5); }
static bool has_cci(uint64_t r) { return FIELD(r, 7, 7); }
static bool has_retstack(uint64_t r) { return FIELD(r, 9, 9); }
static bool has_ts(uint64_t r) { return FIELD(r, 28, 24) != 0; }
/* perf: CONTEXTIDR_EL1 tracing needs a 32-bit context ID. */
static bool has_ctxid1(uint64_t r) { return FIELD(r, 9, 5) == 4; }
/* perf: CONTEXTIDR_EL2 in the VMID needs VMIDOPT and a VMID of 32 bits
 * or more. */
static bool has_ctxid2(uint64_t r)
{
	return FIELD(r, 30, 29) != 0 && FIELD(r, 14, 10) >= 4;
}

static const struct check checks[] = {
	{"branch_broadcast", "trcidr0", "branch broadcasting (TRCIDR0.TRCBB)",
	 has_bb},
	{"cycacc", "trcidr0", "cycle counting (TRCIDR0.TRCCCI)", has_cci},
	{"retstack", "trcidr0", "return stack (TRCIDR0.RETSTACK)",
	 has_retstack},
	{"timestamp", "trcidr0", "global timestamps (TRCIDR0.TSSIZE)", has_ts},
	{"contextid1", "trcidr2", "32-bit context IDs (TRCIDR2.CIDSIZE)",
	 has_ctxid1},
	{"contextid2", "trcidr2",
	 "CONTEXTIDR_EL2 in the VMID (TRCIDR2.VMIDOPT, VMIDSIZE)", has_ctxid2},
};

static bool user_set(const struct hwt_profile *p, const char *term)
{
	return hwt_config_term_set(p, "cs_etm", term);
}

static const char *origin(const struct hwt_profile *p, const char *term)
{
	return hwt_config_term_where(p, "cs_etm", term);
}

/* Checks one option bit against every traced CPU's trace unit. ETMv3 and
 * PTM units have no TRCIDR registers; the kernel ignores the ETMv4 options
 * there, so they are not checked. */
static int check_units(const struct hwt_pmu *pmu, const struct hwt_profile *p,
		       const int *cpus, size_t ncpus, const struct check *c,
		       bool is_default)
{
	for (size_t i = 0; i < ncpus; i++) {
		const struct hwt_trace_unit *u = hwt_pmu_trace_unit(pmu, cpus[i]);
		uint64_t reg;

		if (!u)
			return hwt_error(HWT_ERR_NOENT,
					 "cs_etm: CPU %d has no trace unit (no "
					 "sysfs/bus/event_source/devices/cs_etm/"
					 "cpu%d); leave it out of [session] cpus",
					 cpus[i], cpus[i]);
		if (u->kind != HWT_TU_ETMV4 && u->kind != HWT_TU_ETE)
			continue;
		if (!hwt_trace_unit_reg(u, c->reg, &reg))
			return hwt_error(HWT_ERR_NOENT,
					 "cs_etm: the %s of CPU %d has no %s "
					 "(sysfs/bus/event_source/devices/cs_etm/"
					 "cpu%d/trcidr/%s)",
					 hwt_trace_unit_kind_name(u->kind), cpus[i],
					 c->reg, cpus[i], c->reg);
		if (c->ok(reg))
			continue;
		if (is_default)
			return hwt_error(HWT_ERR_NOSUP,
					 "cs_etm: per-CPU tracing turns on %s (as perf "
					 "does), but the %s of CPU %d has no %s (%s = "
					 "%#" PRIx64 "); set [cs_etm] %s = 0 or trace "
					 "per thread",
					 c->term, hwt_trace_unit_kind_name(u->kind),
					 cpus[i], c->what, c->reg, reg, c->term);
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: [cs_etm] %s: the %s of CPU %d has no %s "
				 "(%s = %#" PRIx64 "); remove %s",
				 origin(p, c->term), c->term,
				 hwt_trace_unit_kind_name(u->kind), cpus[i], c->what,
				 c->reg, reg, c->term);
	}
	return 0;
}

static const struct check *find_check(const char *term)
{
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (!strcmp(checks[i].term, term))
			return &checks[i];
	return NULL;
}

int hwt_cs_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct hwt_profile *p, struct perf_event_attr *attr)
{
	int all[1024];
	const int *cpus;
	size_t ncpus = hwt_profile_cpus(p, &cpus);
	bool per_cpu = !hwt_profile_per_thread(p);
	int ret;

	(void)os;
	if (!per_cpu) {
		/* Per thread, the trace may run on any CPU with a unit. */
		ncpus = 0;
		for (size_t i = 0; i < pmu->nunits && ncpus < 1024; i++)
			all[ncpus++] = pmu->units[i].cpu;
		cpus = all;
	}
	/* perf record, per CPU: contextid (the PMU's "contextid" alias, which
	 * names contextid1 or contextid2 by the kernel's exception level) and
	 * timestamp, unless the user chose. perf sets them for ETMv4 and ETE
	 * only; the ETMv3 driver refuses options it does not know. */
	bool defaults = per_cpu;

	for (size_t i = 0; defaults && i < ncpus; i++) {
		const struct hwt_trace_unit *u = hwt_pmu_trace_unit(pmu, cpus[i]);

		if (u && u->kind != HWT_TU_ETMV4 && u->kind != HWT_TU_ETE)
			defaults = false;
	}
	if (defaults && !user_set(p, "contextid") && !user_set(p, "contextid1") &&
	    !user_set(p, "contextid2")) {
		const struct hwt_pmu_format *alias = hwt_pmu_format(pmu, "contextid");
		uint64_t bits = alias ? hwt_pmu_format_mask(alias) : 0;

		if (alias && alias->word == 0) {
			if (bits & (1ull << ETM_OPT_CTXTID) &&
			    (ret = check_units(pmu, p, cpus, ncpus,
					       find_check("contextid1"), true)))
				return ret;
			if (bits & (1ull << ETM_OPT_CTXTID2) &&
			    (ret = check_units(pmu, p, cpus, ncpus,
					       find_check("contextid2"), true)))
				return ret;
			attr->config |= bits;
		}
	}
	if (defaults && !user_set(p, "timestamp")) {
		const struct hwt_pmu_format *ts = hwt_pmu_format(pmu, "timestamp");

		if ((ret = check_units(pmu, p, cpus, ncpus, find_check("timestamp"),
				       true)))
			return ret;
		if (ts && (ret = hwt_pmu_format_set(ts, 1, attr)))
			return ret;
	}
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct hwt_pmu_format *f = hwt_pmu_format(pmu, checks[i].term);

		if (!f || !user_set(p, checks[i].term) || !hwt_pmu_format_get(f, attr))
			continue;
		if ((ret = check_units(pmu, p, cpus, ncpus, &checks[i], false)))
			return ret;
	}
	/* The ETMv4 driver refuses contextid2 unless the kernel runs at EL2,
	 * which the "contextid" alias gives away: config:14 means EL1. */
	if (user_set(p, "contextid2")) {
		const struct hwt_pmu_format *c2 = hwt_pmu_format(pmu, "contextid2");
		const struct hwt_pmu_format *alias = hwt_pmu_format(pmu, "contextid");

		if (c2 && alias && hwt_pmu_format_get(c2, attr) &&
		    hwt_pmu_format_mask(alias) == 1ull << ETM_OPT_CTXTID)
			return hwt_error(HWT_ERR_CONFIG,
					 "%s: [cs_etm] contextid2: this kernel runs "
					 "at EL1 (format/contextid is config:14), and "
					 "the ETM driver traces CONTEXTIDR_EL2 only "
					 "for a kernel at EL2; use contextid1 or "
					 "contextid", origin(p, "contextid2"));
	}
	if (user_set(p, "contextid")) {
		const struct hwt_pmu_format *alias = hwt_pmu_format(pmu, "contextid");
		uint64_t bits = alias ? hwt_pmu_format_mask(alias) : 0;

		if (alias && hwt_pmu_format_get(alias, attr)) {
			if (bits & (1ull << ETM_OPT_CTXTID) &&
			    (ret = check_units(pmu, p, cpus, ncpus,
					       find_check("contextid1"), false)))
				return ret;
			if (bits & (1ull << ETM_OPT_CTXTID2) &&
			    (ret = check_units(pmu, p, cpus, ncpus,
					       find_check("contextid2"), false)))
				return ret;
		}
	}
	return 0;
}

const struct hwt_record_ops hwt_cs_record_ops = {
	.configure = hwt_cs_configure,
	.info = hwt_cs_info,
	.find_snapshot = hwt_cs_find_snapshot,
};
