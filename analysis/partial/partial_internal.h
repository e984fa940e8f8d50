/* Shared by the files of analysis/partial/ only. */
#ifndef HWT_ANALYSIS_PARTIAL_INTERNAL_H
#define HWT_ANALYSIS_PARTIAL_INTERNAL_H

#include "analysis/util/strmap.h"
#include "hwtrace/partial.h"

struct hwt_partial {
	enum hwt_partial_kind kind;
	/* HWT_PARTIAL_REPORT: "DSO/NAME" -> v[0], its index in funcs plus
	 * one (report_row); the totals (whose names and binaries point at
	 * the maps' keys). */
	struct hwt_strmap names, dsos;
	struct hwt_report_func *funcs;
	size_t nfuncs, funcs_cap;
	/* Full folded stack -> the report's S_INSNS, S_TIME, S_CALLS. */
	struct hwt_strmap stacks;
	char *time_unit, *time_meaning;  /* NULL when the report had none */
	bool has_time;
	/* HWT_PARTIAL_EDGES: */
	struct hwt_edges *edges;
};

/* A new, empty partial of @kind; NULL when out of memory. */
struct hwt_partial *partial_new(enum hwt_partial_kind kind);

/* The totals of function @name in binary @dso (created zeroed); NULL
 * when out of memory. */
struct hwt_report_func *partial_func(struct hwt_partial *p, const char *dso,
				     const char *name);

/* Adds @src's counters to @dst's (the maximum for duration_max);
 * HWT_ERR_FORMAT when a sum would pass 2^64 - 1. */
int partial_add_func(struct hwt_report_func *dst,
		     const struct hwt_report_func *src);

/* Adds @add to *@sum; HWT_ERR_FORMAT when it would pass 2^64 - 1. */
int partial_add_count(uint64_t *sum, uint64_t add);

#endif
