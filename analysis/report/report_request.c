/* Which of a report's views and options go together, and which captures
 * one table can hold: the rules of
 * `hwtrace report`, kept with the report so that every program offering
 * its options refuses the same requests with the same words. */
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/report_request.h"

bool hwt_report_sorts_by_thread(const enum hwt_report_sort_key *keys,
				size_t nkeys)
{
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i] == HWT_SORT_TID || keys[i] == HWT_SORT_COMM)
			return true;
	return false;
}

/* A partial holds the whole table and all stacks, of one run: no view,
 * order or unit of another. */
static int check_partial(const struct hwt_report_request *rq)
{
	if (rq->unit && (!rq->partial || rq->ncaptures != 1))
		return hwt_error(HWT_ERR_INVAL, "--unit goes with --partial and "
				 "one capture file");
	if (rq->partial && (rq->collapsed || rq->by_line))
		return hwt_error(HWT_ERR_INVAL, "--partial holds the table and "
				 "the stacks: it goes with neither "
				 "--collapsed nor --srcline");
	return 0;
}

int hwt_report_request_check(const struct hwt_report_request *rq)
{
	int err = check_partial(rq);
	if (err)
		return err;
	bool graph = rq->peek || rq->call_graph;
	if (rq->nsort && (rq->partial || rq->collapsed || rq->by_line || graph))
		return hwt_error(HWT_ERR_INVAL, "--sort orders the function "
				 "table: it goes with none of --partial, "
				 "--collapsed, --srcline, --callers, "
				 "--callees, --call-graph");
	/* The threads of two captures are not the same threads. */
	if (hwt_report_sorts_by_thread(rq->sort, rq->nsort) &&
	    rq->ncaptures != 1)
		return hwt_error(HWT_ERR_INVAL, "--sort tid and comm report one "
				 "capture file (threads of two captures are "
				 "not the same threads)");
	if (rq->by_line && rq->ncaptures != 1)
		return hwt_error(HWT_ERR_INVAL, "--srcline reports one capture "
				 "file");
	if ((rq->peek != NULL) + rq->call_graph + rq->collapsed > 1)
		return hwt_error(HWT_ERR_INVAL, "--callers/--callees, "
				 "--call-graph and --collapsed are different "
				 "views: pick one");
	if (graph && rq->by_line)
		return hwt_error(HWT_ERR_INVAL, "--srcline counts by line: it "
				 "has no callers or callees");
	if (rq->per_thread && !graph)
		return hwt_error(HWT_ERR_INVAL, "--per-thread goes with "
				 "--callers, --callees or --call-graph");
	if (graph && (rq->partial || rq->ncaptures != 1))
		return hwt_error(HWT_ERR_INVAL, "--callers, --callees and "
				 "--call-graph report one capture file, and "
				 "no partial result");
	return 0;
}

int hwt_report_clock_check(const char *first, const char *file)
{
	/* Each backend states one clock: the same clock is the same one. */
	if (hwt_capture_file_clock(file) == hwt_capture_file_clock(first))
		return 0;
	return hwt_error(HWT_ERR_INVAL, "%s: its trace's time is of another "
			 "clock than %s's: report them apart", file, first);
}
