/* hwt_report_sort_parse, hwt_report_weight_parse and
 * hwt_report_request_check: the --sort keys (perf report's names where
 * they apply: pid for the thread, children for the inclusive count),
 * the weights, and which views and options go together, each refusal
 * with its message, each rule with a request it lets through. */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/report_request.h"

static void sort_keys_read_in_order(void)
{
	enum hwt_report_sort_key keys[HWT_REPORT_SORT_MAX];
	size_t n = 99;
	bool by_line = false;
	CHECK_INT(hwt_report_sort_parse("dso,sym", keys, &n, &by_line), 0);
	CHECK_U64(n, 2);
	CHECK_INT(keys[0], HWT_SORT_DSO);
	CHECK_INT(keys[1], HWT_SORT_SYM);
	CHECK(!by_line);
	CHECK_INT(hwt_report_sort_parse("children,pid,comm,self,calls,total,tid",
					keys, &n, &by_line), 0);
	CHECK_U64(n, 7);
	static const enum hwt_report_sort_key want[] = {
		HWT_SORT_TOTAL, HWT_SORT_TID, HWT_SORT_COMM, HWT_SORT_SELF,
		HWT_SORT_CALLS, HWT_SORT_TOTAL, HWT_SORT_TID,
	};
	for (size_t i = 0; i < 7; i++)
		CHECK_INT(keys[i], want[i]);
	CHECK(hwt_report_sorts_by_thread(keys, n));
	CHECK(hwt_report_sorts_by_thread(keys + 2, 1));
	CHECK(!hwt_report_sorts_by_thread(keys, 1));
	CHECK(!hwt_report_sorts_by_thread(keys + 3, 3));

	CHECK_INT(hwt_report_sort_parse("srcline", keys, &n, &by_line), 0);
	CHECK_U64(n, 0);
	CHECK(by_line);
}

static void sort_lists_refused(void)
{
	enum hwt_report_sort_key keys[HWT_REPORT_SORT_MAX];
	size_t n;
	bool by_line = false;
	CHECK_INT(hwt_report_sort_parse("dso,symbol", keys, &n, &by_line),
		  HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--sort: no key 'symbol' (keys: self, total, "
		  "children, calls, dso, sym, tid (or pid), comm, srcline)");
	CHECK_INT(hwt_report_sort_parse("dso,", keys, &n, &by_line),
		  HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--sort: no key '' (keys: self, total, "
		  "children, calls, dso, sym, tid (or pid), comm, srcline)");
	CHECK_INT(hwt_report_sort_parse("sym,srcline", keys, &n, &by_line),
		  HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--sort srcline goes alone: the table by "
		  "source line (as --srcline)");
	CHECK(!by_line);
	/* HWT_REPORT_SORT_MAX keys are taken, one more is not. */
	CHECK_INT(hwt_report_sort_parse("self,self,self,self,self,self,self,"
					"self", keys, &n, &by_line), 0);
	CHECK_U64(n, HWT_REPORT_SORT_MAX);
	CHECK_INT(hwt_report_sort_parse("self,self,self,self,self,self,self,"
					"self,sym", keys, &n, &by_line),
		  HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--sort: at most 8 keys");
}

static void weights_by_name(void)
{
	enum hwt_report_weight w = HWT_WEIGHT_CALLS;
	CHECK_INT(hwt_report_weight_parse("insns", &w), 0);
	CHECK_INT(w, HWT_WEIGHT_INSNS);
	CHECK_INT(hwt_report_weight_parse("time", &w), 0);
	CHECK_INT(w, HWT_WEIGHT_TIME);
	CHECK_INT(hwt_report_weight_parse("calls", &w), 0);
	CHECK_INT(w, HWT_WEIGHT_CALLS);
	CHECK_INT(hwt_report_weight_parse("cycles", &w), HWT_ERR_INVAL);
	CHECK_INT(hwt_report_weight_parse("Time", &w), HWT_ERR_INVAL);
	CHECK_INT(w, HWT_WEIGHT_CALLS);
}

/* @rq refused with @msg. */
static void refused(const struct hwt_report_request *rq, const char *msg)
{
	CHECK_INT(hwt_report_request_check(rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), msg);
}

static void views_and_options_go_together(void)
{
	static const enum hwt_report_sort_key tid[] = {HWT_SORT_TID};
	static const enum hwt_report_sort_key dso[] = {HWT_SORT_DSO};
	/* What goes. */
	struct hwt_report_request ok[] = {
		{.ncaptures = 3},
		{.ncaptures = 2, .collapsed = true},
		{.ncaptures = 1, .by_line = true},
		{.ncaptures = 1, .peek = "main", .per_thread = true},
		{.ncaptures = 1, .call_graph = true, .per_thread = true},
		{.ncaptures = 4, .partial = true},
		{.ncaptures = 1, .partial = true, .unit = 3},
		{.ncaptures = 1, .sort = tid, .nsort = 1},
		{.ncaptures = 2, .sort = dso, .nsort = 1},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK_INT(hwt_report_request_check(&ok[i]), 0);

	refused(&(struct hwt_report_request){.ncaptures = 1, .unit = 2},
		"--unit goes with --partial and one capture file");
	refused(&(struct hwt_report_request){.ncaptures = 2, .partial = true,
					     .unit = 2},
		"--unit goes with --partial and one capture file");
	refused(&(struct hwt_report_request){.ncaptures = 1, .partial = true,
					     .by_line = true},
		"--partial holds the table and the stacks: it goes with "
		"neither --collapsed nor --srcline");
	refused(&(struct hwt_report_request){.ncaptures = 1, .collapsed = true,
					     .sort = dso, .nsort = 1},
		"--sort orders the function table: it goes with none of "
		"--partial, --collapsed, --srcline, --callers, --callees, "
		"--call-graph");
	refused(&(struct hwt_report_request){.ncaptures = 2, .sort = tid,
					     .nsort = 1},
		"--sort tid and comm report one capture file (threads of two "
		"captures are not the same threads)");
	refused(&(struct hwt_report_request){.ncaptures = 2, .by_line = true},
		"--srcline reports one capture file");
	refused(&(struct hwt_report_request){.ncaptures = 1, .peek = "f",
					     .collapsed = true},
		"--callers/--callees, --call-graph and --collapsed are "
		"different views: pick one");
	refused(&(struct hwt_report_request){.ncaptures = 1,
					     .call_graph = true,
					     .by_line = true},
		"--srcline counts by line: it has no callers or callees");
	refused(&(struct hwt_report_request){.ncaptures = 1,
					     .per_thread = true},
		"--per-thread goes with --callers, --callees or --call-graph");
	refused(&(struct hwt_report_request){.ncaptures = 2,
					     .call_graph = true},
		"--callers, --callees and --call-graph report one capture "
		"file, and no partial result");
	refused(&(struct hwt_report_request){.ncaptures = 1, .peek = "f",
					     .partial = true},
		"--callers, --callees and --call-graph report one capture "
		"file, and no partial result");
}

int main(void)
{
	RUN(sort_keys_read_in_order);
	RUN(sort_lists_refused);
	RUN(weights_by_name);
	RUN(views_and_options_go_together);
	return hwt_test_summary();
}
