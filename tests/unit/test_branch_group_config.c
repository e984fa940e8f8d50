/* An event group for branch counters (-e '{A,B,...}'): perf's brace
 * syntax parsed into members with the kernel's attribute values written
 * out here (include/uapi/linux/perf_event.h: PERF_TYPE_HARDWARE 0,
 * PERF_TYPE_RAW 4, PERF_COUNT_HW_BRANCH_INSTRUCTIONS 4, _BRANCH_MISSES 5,
 * PERF_SAMPLE_BRANCH_ANY 1 << 3, _USER 1 << 0, _COUNTERS 1 << 19), perf's
 * own example group as the positive control, every syntax error with its
 * message, and the kernel's rules (intel_pmu_hw_config) against the
 * fixtures: intel-lbr-counters has 4 counters, intel-lbr none. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"

#define ANY (1ull << 3)
#define USER (1ull << 0)
#define CNTR (1ull << 19)

static void perf_example_parses(void)
{
	struct hwt_branch_group g;
	/* perf record's own (Linux 6.8, tools/perf/Documentation). */
	CHECK_INT(hwt_branch_group_parse("{cpu/branch-instructions,branch_type=any,"
					 "branch_type=counter/,cpu/branch-misses,"
					 "branch_type=counter/}", "-e", &g), 0);
	CHECK_INT(g.n, 2);
	CHECK_STR(g.m[0].name, "cpu/branch-instructions,branch_type=any,"
			       "branch_type=counter/");
	CHECK_STR(g.m[0].pmu, "cpu");
	CHECK_INT(g.m[0].type, 0);
	CHECK_INT(g.m[0].config, 4);
	CHECK_INT(g.m[0].branch_type, ANY | CNTR);
	CHECK_STR(g.m[1].name, "cpu/branch-misses,branch_type=counter/");
	CHECK_INT(g.m[1].type, 0);
	CHECK_INT(g.m[1].config, 5);
	CHECK_INT(g.m[1].branch_type, CNTR);
}

static void names_and_raw_events(void)
{
	struct hwt_branch_group g;
	CHECK_INT(hwt_branch_group_parse("{branches,cpu/event=0xc4,umask=0xfe/,"
					 "instructions}", "-e", &g), 0);
	CHECK_INT(g.n, 3);
	CHECK_STR(g.m[0].name, "branches");
	CHECK_STR(g.m[0].pmu, "");
	CHECK_INT(g.m[0].config, 4);
	CHECK_INT(g.m[0].branch_type, 0);
	CHECK_INT(g.m[1].type, 4);
	CHECK_INT(g.m[1].config, 0xfec4);
	CHECK_STR(g.m[1].pmu, "cpu");
	CHECK_INT(g.m[2].config, 1); /* PERF_COUNT_HW_INSTRUCTIONS */
	/* One event alone is a group too. */
	CHECK_INT(hwt_branch_group_parse("{branches}", "-e", &g), 0);
	CHECK_INT(g.n, 1);
}

static void syntax_errors(void)
{
	static const struct {
		const char *spec, *msg;
	} bad[] = {
		{"cpu/branch-misses,branch_type=counter/",
		 "-e cpu/branch-misses,branch_type=counter/: not an event "
		 "group: branch counters count the events of a group, give -e "
		 "'{LEADER,MEMBER,...}' (perf's braces)"},
		{"{branches,,branch-misses}",
		 "-e {branches,,branch-misses}: an empty event in the group"},
		{"{branches,bogus}",
		 "-e {branches,bogus}: unknown event bogus (branches, "
		 "branch-instructions, branch-misses, cycles, cpu-cycles, "
		 "instructions, or PMU/TERMS/)"},
		{"{branches,cpu/branch-misses,period=3/}",
		 "-e {branches,cpu/branch-misses,period=3/}: event "
		 "cpu/branch-misses,period=3/: unknown term period=3 (a "
		 "hardware event's name, event=N, umask=N or "
		 "branch_type=FILTER)"},
		{"{branches,cpu/branch-misses,event=0xc4/}",
		 "-e {branches,cpu/branch-misses,event=0xc4/}: event "
		 "cpu/branch-misses,event=0xc4/: give a hardware event's name "
		 "or event=N (with umask=N), one of the two"},
		{"{branches,cpu/event=0x1c4/}",
		 "-e {branches,cpu/event=0x1c4/}: event cpu/event=0x1c4/: "
		 "unknown term event=0x1c4 (a hardware event's name, event=N, "
		 "umask=N or branch_type=FILTER)"},
		{"{branches,cpu/branch-misses,branch_type=nope/}",
		 "-e {branches,cpu/branch-misses,branch_type=nope/}: event "
		 "cpu/branch-misses,branch_type=nope/: branch_type nope: "
		 "unknown branch filter nope, check man page"},
		{"{branches,cpu/branch-misses}",
		 "-e {branches,cpu/branch-misses}: event cpu/branch-misses is "
		 "not PMU/TERMS/"},
		{"{branches,branches,branches,branches,branches,branches,"
		 "branches,branches,branches}",
		 "-e {branches,branches,branches,branches,branches,branches,"
		 "branches,branches,branches}: more than 8 events in the group"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct hwt_branch_group g;
		CHECK_INT(hwt_branch_group_parse(bad[i].spec, "-e", &g),
			  HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), bad[i].msg);
	}
}

static struct hwt_os *fixture(const char *name, struct hwt_branch_hw *hw)
{
	char root[4096];
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s", HWT_SOURCE_DIR,
		 name);
	struct hwt_os *os = hwt_os_linux_new(root);
	CHECK(os != NULL);
	CHECK_INT(hwt_branch_hw_probe(os, hw), 0);
	return os;
}

/* Parses @spec and checks it on @hw with @mode: its result. */
static int check(const char *spec, const struct hwt_branch_hw *hw,
		 uint64_t mode)
{
	struct hwt_branch_group g;
	CHECK_INT(hwt_branch_group_parse(spec, "-e", &g), 0);
	return hwt_branch_group_check(&g, hw, mode, "-e G");
}

static void kernel_rules(void)
{
	struct hwt_branch_hw hw, none;
	struct hwt_os *os = fixture("intel-lbr-counters", &hw);
	struct hwt_os *os2 = fixture("intel-lbr", &none);
	CHECK_INT(hw.counters, 4);
	CHECK_INT(none.counters, 0);
	/* Four of four: the positive control; five: one too many. */
	CHECK_INT(check("{branches,branches,branches,branches}", &hw,
			ANY | CNTR), 0);
	CHECK_INT(check("{branches,branches,branches,branches,branches}", &hw,
			ANY | CNTR), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e G: 5 events of the group ask for branch "
				"counters and cpu has 4 (caps/branch_counter_nr)");
	/* Members without counters do not count against the four. */
	CHECK_INT(check("{cpu/branches,branch_type=counter/,branches,branches,"
			"branches,branches,cpu/branches,branch_type=counter/}",
			&hw, ANY), 0);
	CHECK_INT(check("{branches,branch-misses}", &hw, ANY), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e G: no event of the group asks for branch "
				"counters: give -j ...,counter or a member's "
				"branch_type=counter (a group records its "
				"members' counts only there)");
	CHECK_INT(check("{branches,cpu/branch-misses,branch_type=counter/}", &hw,
			ANY), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e G: the leader branches samples the records "
				"and writes their counters: it asks for counters "
				"too (-j ...,counter or its branch_type=counter)");
	CHECK_INT(check("{branches,cpu_atom/branch-misses/}", &hw, ANY | CNTR),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e G: a group with branch counters is of one "
				"PMU, the branch records' (cpu): "
				"cpu_atom/branch-misses/ is on cpu_atom (the "
				"kernel counts only its own events into the "
				"records)");
	CHECK_INT(check("{branches,branch-misses}", &hw, ANY | CNTR | (1ull << 11)),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e G: branches: branch counters are not "
				"recorded in call-stack mode (-j stack; the "
				"kernel refuses it)");
	CHECK_INT(check("{branches,branch-misses}", &none, ANY | CNTR),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e G: branch counters are not supported here: "
				"cpu has no caps/branch_counter_nr (Intel LBR "
				"from Linux 6.8 only)");
	hwt_os_free(os);
	hwt_os_free(os2);
}

static void member_modes(void)
{
	struct hwt_branch_group g;
	CHECK_INT(hwt_branch_group_parse("{cpu/branches,branch_type=cond/,"
					 "branch-misses,cpu/branches,"
					 "branch_type=counter/}", "-e", &g), 0);
	/* The leader: -j's filter and its own; a member: counters only,
	 * with -j's privilege levels. */
	CHECK_INT(hwt_branch_group_member_mode(&g, 0, ANY | USER | CNTR),
		  ANY | USER | CNTR | (1ull << 10));
	CHECK_INT(hwt_branch_group_member_mode(&g, 1, ANY | USER | CNTR),
		  USER | CNTR);
	CHECK_INT(hwt_branch_group_member_mode(&g, 1, ANY | USER), USER);
	CHECK_INT(hwt_branch_group_member_mode(&g, 2, ANY), CNTR);
}

int main(void)
{
	RUN(perf_example_parses);
	RUN(names_and_raw_events);
	RUN(syntax_errors);
	RUN(kernel_rules);
	RUN(member_modes);
	return hwt_test_summary();
}
