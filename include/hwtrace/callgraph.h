/* Callers and callees (`hwtrace report --callers F`, `--callees F`,
 * `--call-graph`): for every caller -> callee edge the stacks saw, how
 * many times the callee was entered from that caller and what those
 * activations cost, alone (self) and with what they called (total), in
 * instructions and time. Built on hwtrace/stack.h, like hwtrace/report.h. */
#ifndef HWTRACE_CALLGRAPH_H
#define HWTRACE_CALLGRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One edge. A thread's first frame (or an inferred caller the trace
 * began in) has no caller: its edge's caller is "-". */
struct hwt_callgraph_edge {
	const char *caller, *callee; /* the namer's names, or hex */
	int32_t tid;        /* -1 when edges are merged over threads */
	uint64_t calls;     /* activations that are calls (hwt_frame_is_call) */
	uint64_t frames;    /* all activations, inferred ones included */
	uint64_t insns_self, insns_total;
	uint64_t time_self, time_total; /* trace time units */
};

/* How the graph is gathered and written. */
struct hwt_callgraph_opts {
	size_t size;       /* sizeof(struct hwt_callgraph_opts) */
	bool per_thread;   /* an edge per thread (else merged) */
	/* --call-graph's order of functions: by total cost (perf's
	 * --children) instead of by self cost (--no-children). */
	bool children;
	/* The unit of the time columns' names ("ns"; "ticks" for
	 * CoreSight timestamps); borrowed. NULL: "ns". */
	const char *time_unit;
};

struct hwt_callgraph;

/* A new call graph. @namer may be NULL (addresses only) and is copied.
 * Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (opts size). */
HWT_API int hwt_callgraph_new(const struct hwt_func_namer *namer,
			      const struct hwt_callgraph_opts *opts,
			      struct hwt_callgraph **graph);

/* Frees the graph; NULL is a no-op. */
HWT_API void hwt_callgraph_free(struct hwt_callgraph *graph);

/* Stack ops that feed the graph; valid while @graph is. */
HWT_API struct hwt_stack_ops hwt_callgraph_ops(struct hwt_callgraph *graph);

/* The edges, in order of first appearance; valid until the next stack
 * callback or hwt_callgraph_free. An edge's totals add up each of its
 * activations (a recursive fib -> fib edge counts the inner calls inside
 * the outer ones, as its calls do); a function's own total in
 * hwt_callgraph_write counts it once, at its outermost activation, as
 * report's table does. */
HWT_API const struct hwt_callgraph_edge *
hwt_callgraph_edges(const struct hwt_callgraph *graph, size_t *count);

/* Writes the callers (@callees false) or callees (@callees true) of the
 * function named @func as a table, most total instructions first, with
 * time columns when @has_time. Returns 0, HWT_ERR_NOENT when no edge
 * names @func (nothing written), HWT_ERR_IO. */
HWT_API int hwt_callgraph_write_peek(const struct hwt_callgraph *graph,
				     FILE *out, const char *func, bool callees,
				     bool has_time);

/* Writes every function (as hwt_callgraph_opts.children orders them,
 * the @top first, 0: all) with its callers above it ("<-" lines) and
 * callees below it ("->" lines), as pprof's -peek does for each. Errors:
 * HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_callgraph_write(const struct hwt_callgraph *graph, FILE *out,
				size_t top, bool has_time);

#ifdef __cplusplus
}
#endif

#endif
