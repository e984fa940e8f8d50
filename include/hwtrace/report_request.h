/* What a report is asked for, in the terms of `hwtrace report`'s
 * options: the names its --sort and --weight take, and which of its
 * views and options go together. A program offering the same options
 * gets the same answers and the same messages. */
#ifndef HWTRACE_REPORT_REQUEST_H
#define HWTRACE_REPORT_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The keys of a --sort list ("dso,sym": perf report's key names where
 * they apply; "children" is total, "pid" is tid), read into @keys
 * (*@nkeys of them, at most HWT_REPORT_SORT_MAX). "srcline", alone, asks
 * for the table by source line: *@by_line becomes true and *@nkeys 0
 * (*@by_line is left as it was otherwise). Errors: HWT_ERR_INVAL (an
 * unknown key, srcline with others, too many keys: the message names
 * --sort and lists the keys). */
HWT_API int hwt_report_sort_parse(const char *list,
				  enum hwt_report_sort_key *keys,
				  size_t *nkeys, bool *by_line);

/* Whether @keys split the rows by thread (a tid or comm key), which only
 * one capture's threads can do. */
HWT_API bool hwt_report_sorts_by_thread(const enum hwt_report_sort_key *keys,
					size_t nkeys);

/* The weight named @name ("insns", "time", "calls") into *@out. Returns
 * 0, or HWT_ERR_INVAL (no message) for another name. */
HWT_API int hwt_report_weight_parse(const char *name,
				    enum hwt_report_weight *out);

/* A report as asked for: how many captures, which view (at most one of
 * collapsed, peek and call_graph; none is the table), and the options
 * that shape it. */
struct hwt_report_request {
	size_t ncaptures;
	bool collapsed;    /* the folded stacks */
	bool by_line;      /* the table by source line */
	const char *peek;  /* the callers or callees of this function */
	bool call_graph;   /* the whole call graph */
	bool per_thread;   /* peek or call graph, thread by thread */
	bool partial;      /* the partial result of the table and stacks */
	size_t unit;       /* partial: only this unit (from 1); 0: all */
	const enum hwt_report_sort_key *sort; /* the table's order */
	size_t nsort;
};

/* Whether @rq's views and options go together. Errors: HWT_ERR_INVAL,
 * the message naming the options that do not, as `hwtrace report`
 * names them. */
HWT_API int hwt_report_request_check(const struct hwt_report_request *rq);

/* Whether the capture @file can be reported in one table with the
 * capture @first: one table has one time unit, so the time of both
 * traces must be of the same clock (hwt_capture_file_clock; two files
 * of which neither states a clock have the same). Errors: HWT_ERR_INVAL
 * ("FILE: its trace's time is of another clock than FIRST's: report
 * them apart"). */
HWT_API int hwt_report_clock_check(const char *first, const char *file);

struct hwt_callgraph;

/* What a checked request's answer is written from: the report the
 * captures were fed to, and, for peek or call_graph, the call graph fed
 * instead; with the options of the written view. */
struct hwt_report_output {
	const struct hwt_report *report;
	const struct hwt_callgraph *graph; /* peek or call_graph only */
	bool has_time;      /* some capture had time: the time columns */
	bool peek_callees;  /* peek: the callees (false: the callers) */
	size_t top;         /* table, call graph: the first N (0: all) */
	enum hwt_report_weight weight; /* collapsed: what a stack counts */
};

/* Writes the view @rq asks for to @out: the callers or callees of
 * rq->peek, the call graph, the partial result of the table and stacks,
 * the folded stacks, or the table (as `hwtrace report` writes each).
 * Errors: HWT_ERR_INVAL (no report, or no graph for peek or call_graph),
 * HWT_ERR_NOENT (peek: no edge names the function), HWT_ERR_NOMEM,
 * HWT_ERR_IO. */
HWT_API int hwt_report_request_write(const struct hwt_report_request *rq,
				     const struct hwt_report_output *o,
				     FILE *out);

#ifdef __cplusplus
}
#endif

#endif
