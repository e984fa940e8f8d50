/* Branch-stack sampling filters as perf record -j names them
 * (tools/perf/util/parse-branch-options.c: every name, case-insensitive;
 * privilege levels alone mean any; an unknown name refused in perf's
 * words, naming the option), and checked against what the sysfs
 * fixtures' CPUs offer: Skylake's 32 LBR records without branch
 * counters (intel-lbr), AMD BRS's 16 records that take no filter
 * (amd-brs), and a VM without branch records (no-trace), refused with
 * perf's message. */
#include "harness.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"

static void names_are_perfs(void)
{
	uint64_t m;
	CHECK_INT(hwt_branch_filter_parse("any,u", "-j", &m), 0);
	CHECK_U64(m, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
	CHECK_INT(hwt_branch_filter_parse("ANY_CALL,any_ret,ind_call,cond,k", "-j", &m), 0);
	CHECK_U64(m, PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN |
		     PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_COND |
		     PERF_SAMPLE_BRANCH_KERNEL);
	CHECK_INT(hwt_branch_filter_parse("any,save_type,hw_index,priv,counter,stack,"
					  "no_flags,no_cycles,ind_jmp,call,abort_tx,"
					  "in_tx,no_tx,hv", "-j", &m), 0);
	CHECK_U64(m, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE |
		     PERF_SAMPLE_BRANCH_HW_INDEX | HWT_SAMPLE_BRANCH_PRIV_SAVE |
		     HWT_SAMPLE_BRANCH_COUNTERS | PERF_SAMPLE_BRANCH_CALL_STACK |
		     PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
		     PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_CALL |
		     PERF_SAMPLE_BRANCH_ABORT_TX | PERF_SAMPLE_BRANCH_IN_TX |
		     PERF_SAMPLE_BRANCH_NO_TX | PERF_SAMPLE_BRANCH_HV);
	/* Privilege levels alone: every branch, as perf makes it. */
	CHECK_INT(hwt_branch_filter_parse("u", "-j", &m), 0);
	CHECK_U64(m, PERF_SAMPLE_BRANCH_ANY);
	CHECK_INT(hwt_branch_filter_parse("u,k", "-j", &m), 0);
	CHECK_U64(m, PERF_SAMPLE_BRANCH_ANY);
	CHECK_INT(hwt_branch_filter_parse("any,call_stack", "-j", &m), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-j any,call_stack: unknown branch filter call_stack, "
				"check man page");
	CHECK_U64(m, 0);
	CHECK_INT(hwt_branch_filter_parse("any,", "[sample] branch_filter =", &m),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "[sample] branch_filter = any,: unknown branch "
				"filter , check man page");
	CHECK_INT(hwt_branch_filter_parse("an", "-j", &m), HWT_ERR_CONFIG);
}

static struct hwt_os *fixture(const char *name)
{
	char root[4096];
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s", HWT_SOURCE_DIR, name);
	struct hwt_os *os = hwt_os_linux_new(root);
	if (!os)
		HWT_FAIL("no OS seam for %s", root);
	return os;
}

static void fixtures_say_what_there_is(void)
{
	struct hwt_branch_hw hw;
	uint64_t m;
	struct hwt_os *os = fixture("intel-lbr");
	CHECK_INT(hwt_branch_hw_probe(os, &hw), 0);
	CHECK_INT(hw.kind, HWT_BRANCH_HW_LBR);
	CHECK_INT(hw.depth, 32);
	CHECK_INT(hw.counters, 0);
	CHECK_STR(hw.pmu, "cpu");
	CHECK_INT(hwt_branch_filter_parse("any_call,save_type,u", "-j", &m), 0);
	CHECK_INT(hwt_branch_filter_check(&hw, m, "cycles:u"), 0);
	CHECK_INT(hwt_branch_filter_parse("any,counter", "-j", &m), 0);
	CHECK_INT(hwt_branch_filter_check(&hw, m, "cycles:u"), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "cycles:u: the branch counters (-j counter) are "
				     "not supported here: cpu has no caps/branch_counter_nr");
	hwt_os_free(os);

	os = fixture("amd-brs");
	CHECK_INT(hwt_branch_hw_probe(os, &hw), 0);
	CHECK_INT(hw.kind, HWT_BRANCH_HW_BRS);
	CHECK_INT(hw.depth, 16);
	CHECK_INT(hwt_branch_filter_parse("any,u", "-j", &m), 0);
	CHECK_INT(hwt_branch_filter_check(&hw, m, "cpu/branch-brs/u"), 0);
	CHECK_INT(hwt_branch_filter_parse("any_call,u", "-j", &m), 0);
	CHECK_INT(hwt_branch_filter_check(&hw, m, "cpu/branch-brs/u"), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "AMD BRS can only capture all branches");
	CHECK_INT(hwt_branch_filter_parse("any,save_type", "-j", &m), 0);
	CHECK_INT(hwt_branch_filter_check(&hw, m, "cpu/branch-brs/"), HWT_ERR_NOSUP);
	hwt_os_free(os);

	os = fixture("no-trace");
	CHECK_INT(hwt_branch_hw_probe(os, &hw), HWT_ERR_NOENT);
	CHECK_INT(hw.depth, 0);
	CHECK_INT(hwt_branch_filter_check(&hw, PERF_SAMPLE_BRANCH_ANY, "cycles"),
		  HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "cycles: PMU Hardware or event type doesn't "
				     "support branch stack sampling.");
	hwt_os_free(os);
}

int main(void)
{
	RUN(names_are_perfs);
	RUN(fixtures_say_what_there_is);
	return hwt_test_summary();
}
