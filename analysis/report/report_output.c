/* The answer to a report request: the one view it asks for, written by
 * that view's writer (hwtrace/report_request.h). */
#include "hwtrace/callgraph.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"
#include "hwtrace/report_request.h"

/* The partial result keeps the table and the stacks, so that merging
 * parts gives either of them. */
static int write_partial(const struct hwt_report_output *o, FILE *out)
{
	struct hwt_partial *p;
	int err = hwt_partial_from_report(o->report, o->has_time, &p);
	if (!err)
		err = hwt_partial_write(p, out);
	hwt_partial_free(p);
	return err;
}

int hwt_report_request_write(const struct hwt_report_request *rq,
			     const struct hwt_report_output *o, FILE *out)
{
	if (!rq || !o || !out || !o->report)
		return hwt_error(HWT_ERR_INVAL, "report output: no request, "
				 "report or output stream");
	bool graph_view = rq->peek || rq->call_graph;
	if (graph_view && !o->graph)
		return hwt_error(HWT_ERR_INVAL, "report output: %s asks for "
				 "the call graph the captures were fed to: "
				 "give it", rq->peek ? "a peek" : "call_graph");
	if (rq->peek)
		return hwt_callgraph_write_peek(o->graph, out, rq->peek,
						o->peek_callees, o->has_time);
	if (rq->call_graph)
		return hwt_callgraph_write(o->graph, out, o->top, o->has_time);
	if (rq->partial)
		return write_partial(o, out);
	if (rq->collapsed)
		return hwt_report_write_collapsed(o->report, out, o->weight);
	return hwt_report_write(o->report, out, o->top, o->has_time);
}
