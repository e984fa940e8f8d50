/* The final outputs of a (merged) partial, written by the same code as
 * the single-process commands: the report's table and folded-stack
 * writers, the edge map's writer. */
#include "analysis/partial/partial_internal.h"
#include "analysis/report/report_internal.h"
#include "hwtrace/edges.h"
#include "hwtrace/error.h"

static int want_kind(const struct hwt_partial *p, enum hwt_partial_kind kind)
{
	if (p->kind != kind)
		return hwt_error(HWT_ERR_INVAL, "an %s partial gives no %s output",
				 hwt_partial_kind_name(p->kind),
				 hwt_partial_kind_name(kind));
	return 0;
}

int hwt_partial_write_report(const struct hwt_partial *p, FILE *out,
			     size_t top)
{
	int err = want_kind(p, HWT_PARTIAL_REPORT);
	return err ? err : report_write_table(p->funcs, p->nfuncs, p->time_unit,
					      p->time_meaning, out, top,
					      p->has_time, false, NULL, NULL);
}

int hwt_partial_write_collapsed(const struct hwt_partial *p, FILE *out,
				enum hwt_report_weight weight)
{
	int err = want_kind(p, HWT_PARTIAL_REPORT);
	return err ? err : report_write_folded(&p->stacks,
					       report_weight_slot(weight), out);
}

int hwt_partial_write_edges(const struct hwt_partial *p, FILE *out,
			    enum hwt_output_format format)
{
	int err = want_kind(p, HWT_PARTIAL_EDGES);
	return err ? err : hwt_edges_write(p->edges, out, format);
}
