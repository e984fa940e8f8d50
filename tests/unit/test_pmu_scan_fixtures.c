/* Discovery on the sysfs fixtures: every format field, cap, sink and trace
 * unit register is read back with the value its source gives (see
 * tests/fixtures/sysfs/README.md). */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"

struct fmt_want {
	const char *name;
	int word;
	uint64_t mask;
};

/* arch/x86/events/intel/pt.c PMU_FORMAT_ATTR lines. */
static const struct fmt_want intel_pt_formats[] = {
	{"branch", 0, 1ull << 13},      {"cyc", 0, 1ull << 1},
	{"cyc_thresh", 0, 0xfull << 19}, {"event", 0, 1ull << 31},
	{"fup_on_ptw", 0, 1ull << 5},   {"mtc", 0, 1ull << 9},
	{"mtc_period", 0, 0xfull << 14}, {"noretcomp", 0, 1ull << 11},
	{"notnt", 0, 1ull << 55},       {"psb_period", 0, 0xfull << 24},
	{"pt", 0, 1ull << 0},           {"ptw", 0, 1ull << 12},
	{"pwr_evt", 0, 1ull << 4},      {"tsc", 0, 1ull << 10},
};

/* drivers/hwtracing/coresight/coresight-etm-perf.c with the ETM_OPT_* bits
 * of include/linux/coresight-pmu.h; contextid is config:14 when the kernel
 * runs at EL1 (Juno, no VHE). */
static const struct fmt_want juno_formats[] = {
	{"branch_broadcast", 0, 1ull << 8}, {"configid", 2, 0xffffffffull << 32},
	{"contextid", 0, 1ull << 14},       {"contextid1", 0, 1ull << 14},
	{"contextid2", 0, 1ull << 15},      {"cycacc", 0, 1ull << 12},
	{"preset", 0, 0xf},                 {"retstack", 0, 1ull << 29},
	{"sinkid", 2, 0xffffffffull},       {"timestamp", 0, 1ull << 28},
};

static struct hwt_pmu_list *scan(const char *dir, struct hwt_os **os)
{
	struct hwt_pmu_list *list = NULL;

	*os = hwt_os_linux_new(dir);
	CHECK(*os != NULL);
	CHECK_INT(hwt_pmu_scan(*os, &list), 0);
	return list;
}

static void check_formats(const struct hwt_pmu *pmu, const struct fmt_want *w,
			  size_t n)
{
	CHECK_INT(pmu->nformats, n);
	for (size_t i = 0; i < n; i++) {
		const struct hwt_pmu_format *f = hwt_pmu_format(pmu, w[i].name);

		CHECK(f != NULL);
		if (!f)
			continue;
		CHECK_STR(f->name, w[i].name);
		CHECK_INT(f->word, w[i].word);
		CHECK_U64(hwt_pmu_format_mask(f), w[i].mask);
	}
}

static void intel_client(void)
{
	/* pt.c's caps list; values: see the fixture README. */
	static const char *const caps[][2] = {
		{"cr3_filtering", "1"}, {"cycle_thresholds", "1fff"},
		{"event_trace", "0"}, {"ip_filtering", "1"}, {"max_subleaf", "1"},
		{"mtc", "1"}, {"mtc_periods", "249"}, {"num_address_ranges", "2"},
		{"output_subsys", "0"}, {"payloads_lip", "0"},
		{"power_event_trace", "0"}, {"psb_cyc", "1"}, {"psb_periods", "3f"},
		{"ptwrite", "0"}, {"single_range_output", "1"},
		{"tnt_disable", "0"}, {"topa_multiple_entries", "1"},
		{"topa_output", "1"},
	};
	struct hwt_os *os;
	struct hwt_pmu_list *l = scan(FIXTURES "intel-client", &os);
	const struct hwt_pmu *pt, *bts;
	uint64_t v;

	if (!l)
		return;
	CHECK_INT(l->count, 2);
	pt = hwt_pmu_list_find(l, "intel_pt");
	bts = hwt_pmu_list_find(l, "intel_bts");
	CHECK(pt && bts);
	CHECK(hwt_pmu_list_find(l, "cpu") == NULL);
	if (pt && bts) {
		CHECK_INT(pt->type, 6);
		CHECK_INT(pt->kind, HWT_PMU_INTEL_PT);
		CHECK(pt->supported);
		CHECK_INT(pt->nr_addr_filters, 2);
		check_formats(pt, intel_pt_formats,
			      sizeof(intel_pt_formats) / sizeof(intel_pt_formats[0]));
		CHECK_INT(pt->ncaps, 18);
		for (size_t i = 0; i < 18; i++)
			CHECK_STR(hwt_pmu_cap(pt, caps[i][0]), caps[i][1]);
		CHECK(hwt_pmu_cap_u64(pt, "mtc_periods", &v));
		CHECK_U64(v, 0x249);
		CHECK(hwt_pmu_cap_u64(pt, "cycle_thresholds", &v));
		CHECK_U64(v, 0x1fff);
		CHECK(!hwt_pmu_cap_u64(pt, "no_such_cap", &v));
		CHECK_INT(pt->nunits, 0);
		CHECK_INT(bts->type, 7);
		CHECK_INT(bts->kind, HWT_PMU_INTEL_BTS);
		CHECK_INT(bts->nformats, 0);
		CHECK_INT(bts->nr_addr_filters, -1);
	}
	CHECK_STR(l->cpus_online, "0-3");
	CHECK_INT(l->nall, 6);
	CHECK(!l->have_coresight_bus);
	hwt_pmu_list_free(l);
	hwt_os_free(os);
}

static void juno(void)
{
	/* OpenCSD's a57_single_step snapshot (Juno Cortex-A57 ETM). */
	static const struct hwt_trace_reg regs[] = {
		{"trcauthstatus", 0xcc}, {"trcidr0", 0x08000ca1},
		{"trcidr1", 0x4200f410}, {"trcidr2", 0x20001088},
		{"trcidr3", 0x007b0004}, {"trcidr4", 0x11170004},
		{"trcidr5", 0x28070804}, {"trcidr6", 0}, {"trcidr7", 0},
		{"trcidr8", 0}, {"trcidr9", 0}, {"trcidr10", 0}, {"trcidr11", 0},
		{"trcidr12", 0}, {"trcidr13", 0},
	};
	struct hwt_os *os;
	struct hwt_pmu_list *l = scan(FIXTURES "juno", &os);
	const struct hwt_pmu *cs;

	if (!l)
		return;
	CHECK_INT(l->count, 1);
	cs = hwt_pmu_list_find(l, "cs_etm");
	CHECK(cs != NULL);
	if (cs) {
		CHECK_INT(cs->type, 8);
		CHECK_INT(cs->kind, HWT_PMU_CS_ETM);
		CHECK_INT(cs->nr_addr_filters, 8);
		check_formats(cs, juno_formats,
			      sizeof(juno_formats) / sizeof(juno_formats[0]));
		CHECK_INT(cs->nsinks, 3);
		CHECK_STR(cs->sinks[0].name, "tmc_etf0");
		CHECK_U64(cs->sinks[0].id, 0x97979549);
		CHECK_STR(cs->sinks[1].name, "tmc_etr0");
		CHECK_U64(cs->sinks[1].id, 0xa6509eae);
		CHECK_STR(cs->sinks[2].name, "tpiu0");
		CHECK_U64(cs->sinks[2].id, 0x17c22d63);
		CHECK(hwt_pmu_sink(cs, "tmc_etr1") == NULL);
		CHECK_INT(cs->nunits, 6);
		for (size_t u = 0; u < cs->nunits && u < 6; u++) {
			const struct hwt_trace_unit *t = &cs->units[u];

			CHECK_INT(t->cpu, (int)u);
			CHECK_INT(t->kind, HWT_TU_ETMV4);
			CHECK(!t->trbe);
			CHECK_INT(t->nregs, 15);
			for (size_t r = 0; r < 15 && r < t->nregs; r++) {
				CHECK_STR(t->regs[r].name, regs[r].name);
				CHECK_U64(t->regs[r].value, regs[r].value);
			}
		}
		CHECK(hwt_pmu_trace_unit(cs, 6) == NULL);
	}
	CHECK_STR(l->cpus_online, "0-5");
	hwt_pmu_list_free(l);
	hwt_os_free(os);
}

static void armv9_ete_trbe(void)
{
	struct hwt_os *os;
	struct hwt_pmu_list *l = scan(FIXTURES "armv9-ete-trbe", &os);
	const struct hwt_pmu *cs;
	const struct hwt_pmu_format *f;
	uint64_t v;

	if (!l)
		return;
	cs = hwt_pmu_list_find(l, "cs_etm");
	CHECK(cs != NULL);
	if (cs) {
		CHECK_INT(cs->nformats, 11);
		/* A VHE kernel (at EL2) points contextid at contextid2. */
		f = hwt_pmu_format(cs, "contextid");
		CHECK(f && hwt_pmu_format_mask(f) == 1ull << 15);
		f = hwt_pmu_format(cs, "cc_threshold");
		CHECK(f && f->word == 3 && hwt_pmu_format_mask(f) == 0xfff);
		CHECK_INT(cs->nsinks, 3);
		CHECK_U64(hwt_pmu_sink(cs, "trbe0")->id, 0x3744496a);
		CHECK_U64(hwt_pmu_sink(cs, "trbe1")->id, 0x058ca323);
		CHECK_INT(cs->nunits, 2);
		for (int c = 0; c < 2; c++) {
			const struct hwt_trace_unit *t = hwt_pmu_trace_unit(cs, c);

			CHECK(t != NULL);
			if (!t)
				continue;
			/* Arm's ETE model in OpenCSD's ete_mem snapshot. */
			CHECK_INT(t->kind, HWT_TU_ETE);
			CHECK(t->trbe);
			CHECK(hwt_trace_unit_reg(t, "trcidr0", &v) && v == 0x2801cea1);
			CHECK(hwt_trace_unit_reg(t, "trcidr1", &v) && v == 0x4100fff0);
			CHECK(hwt_trace_unit_reg(t, "trcidr2", &v) && v == 0xd0001088);
			CHECK(hwt_trace_unit_reg(t, "trcidr8", &v) && v == 0);
			CHECK(hwt_trace_unit_reg(t, "trcdevarch", &v) &&
			      v == 0x47705a13);
			CHECK_INT(t->nregs, 5);
		}
		CHECK_STR(hwt_trace_unit_kind_name(HWT_TU_ETE), "ETE");
	}
	CHECK(l->have_coresight_bus);
	hwt_pmu_list_free(l);
	hwt_os_free(os);
}

static void no_trace_pmu(void)
{
	struct hwt_os *os;
	struct hwt_pmu_list *l = scan(FIXTURES "no-trace", &os);

	if (!l)
		return;
	CHECK_INT(l->count, 0);
	CHECK_INT(l->nall, 6);
	CHECK_STR(l->all[0], "breakpoint");
	CHECK_STR(l->all[5], "uprobe");
	CHECK(!l->have_coresight_bus);
	CHECK(hwt_pmu_list_find(l, "intel_pt") == NULL);
	hwt_pmu_list_free(l);
	hwt_os_free(os);
}

static void missing_root_is_an_empty_machine(void)
{
	struct hwt_os *os;
	struct hwt_pmu_list *l = scan(FIXTURES "does-not-exist", &os);

	if (l)
		CHECK_INT(l->count, 0);
	hwt_pmu_list_free(l);
	hwt_os_free(os);
	hwt_pmu_list_free(NULL);
}

int main(void)
{
	RUN(intel_client);
	RUN(juno);
	RUN(armv9_ete_trbe);
	RUN(no_trace_pmu);
	RUN(missing_root_is_an_empty_machine);
	return hwt_test_summary();
}
