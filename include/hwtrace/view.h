/* `hwtrace view`: one self-contained HTML page of a capture, for a person
 * to look at offline (file://, no network): a flame graph of the folded
 * stacks (click to zoom, search), the functions with their callers and
 * callees, a timeline per thread with the places trace was lost or went
 * off, and the capture's facts. Built on hwtrace/report.h (the flame
 * graph's stacks and the functions are the report's) and hwtrace/stack.h
 * (the timeline's calls). The page's script is embedded in the library;
 * what is too small to draw (narrower than a pixel) is added up, and the
 * page says how much. */
#ifndef HWTRACE_VIEW_H
#define HWTRACE_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "hwtrace/capture.h"
#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise, then set size. */
struct hwt_view_opts {
	size_t size;                        /* sizeof(struct hwt_view_opts) */
	const struct hwt_func_namer *namer; /* may be NULL; copied */
	const char *title;                  /* the page's title (the capture's
					     * path); copied; NULL: "capture" */
	/* The timeline's resolution: calls shorter than 1/pixels of the
	 * time the threads span (together) are added up, one block for each
	 * pixel and depth of a thread (named for its calls' function when
	 * they are all one), counted, and said in the page. 0: 2000. */
	uint32_t timeline_pixels;
};

/* What the view has gathered so far. */
struct hwt_view_stats {
	uint64_t slices;       /* calls drawn on the timeline, each alone */
	uint64_t slices_short; /* shorter than a pixel: added up */
	uint64_t blocks;       /* the blocks they were added up into */
	uint64_t untimed;      /* frames without time */
	uint64_t marks;        /* gaps, errors, trace off/on kept */
	uint64_t marks_dropped; /* more marks than the page shows */
};

struct hwt_view;

/* A new view. Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (opts). */
HWT_API int hwt_view_new(const struct hwt_view_opts *opts,
			 struct hwt_view **view);

/* Frees it; NULL is a no-op. */
HWT_API void hwt_view_free(struct hwt_view *view);

/* The capture the elements come from: its backend, CPUs, losses, time
 * span, thread names and missing binaries go into the page's facts.
 * Borrowed until hwt_view_write; optional (the page then has the
 * decode's facts only). */
HWT_API void hwt_view_set_capture(struct hwt_view *view,
				  const struct hwt_capture *cap);

/* What the stacks saw (hwt_stack_get_stats), for the facts; copied. */
HWT_API void hwt_view_set_stack_stats(struct hwt_view *view,
				      const struct hwt_stack_stats *stats);

/* Stack ops that feed the view (the report's and the timeline's); valid
 * while @view is. Set function_start for tail calls, as for the report.
 * Errors: HWT_ERR_NOMEM. */
HWT_API struct hwt_stack_ops hwt_view_ops(struct hwt_view *view);

/* A sink for the element stream (before the stacks) that marks gaps,
 * decode errors and trace off/on on their thread's timeline. */
HWT_API struct hwt_elem_sink hwt_view_marks(struct hwt_view *view);

/* Writes the page to @out (borrowed; the caller checks its errors).
 * Errors: HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_view_write(struct hwt_view *view, FILE *out);

/* What the view gathered and, after hwt_view_write, how its timeline
 * was drawn (slices, slices_short, blocks). */
HWT_API void hwt_view_get_stats(const struct hwt_view *view,
				struct hwt_view_stats *stats);

/* Writes, after hwt_view_write put the page in the file @name (NULL:
 * "the page"), the line `hwtrace view` prints of how its timeline was
 * drawn: "@prefix" "wrote NAME: a timeline of N calls and N shorter than
 * a pixel added up in N blocks (N without time left out), N marks" (the
 * counts of hwt_view_get_stats; @prefix NULL is ""). The name is printed
 * as given. Errors: HWT_ERR_INVAL (no @view or @out), HWT_ERR_IO. */
HWT_API int hwt_view_write_summary(const struct hwt_view *view, FILE *out,
				   const char *prefix, const char *name);

#ifdef __cplusplus
}
#endif

#endif
