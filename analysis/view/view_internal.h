/* Shared by the files of the view (analysis/view/ only). */
#ifndef HWT_ANALYSIS_VIEW_INTERNAL_H
#define HWT_ANALYSIS_VIEW_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/util/strmap.h"
#include "hwtrace/report.h"
#include "hwtrace/view.h"

/* The page shows at most this many marks (gaps, errors, trace off/on):
 * beyond it they are counted, not drawn. */
#define VIEW_MAX_MARKS 20000u

/* One thread's track: a tid, or -2 - cpu for trace without threads. */
struct view_thread {
	int64_t key;
	int32_t pid, tid;
	int min_depth, max_depth; /* inferred callers go below 0 */
	uint64_t first, last;   /* the times of its slices and marks */
	bool timed;
};

/* A call on a thread's timeline. */
struct view_slice {
	uint32_t thread;        /* index in threads */
	uint32_t name;          /* index in names */
	int32_t depth;
	uint64_t start, end;
};

enum view_mark_kind { MARK_GAP, MARK_ERROR, MARK_OFF, MARK_ON };

struct view_mark {
	uint32_t thread;
	enum view_mark_kind kind;
	uint64_t time;
	uint32_t what;          /* MARK_GAP: its hwt_gap_reason */
};

struct hwt_view {
	struct hwt_view_opts opts;
	struct hwt_func_namer namer;
	char *title;
	struct hwt_report *report;     /* the flame graph's and the table's */
	struct hwt_stack_ops report_ops;
	const struct hwt_capture *cap; /* borrowed; may be NULL */
	struct hwt_stack_stats stack_stats;
	bool have_stack_stats;
	struct hwt_strmap names;       /* function name -> index + 1 */
	const char **name_v;           /* the strmap's keys, by index */
	size_t nnames, names_cap;
	struct view_thread *threads;
	size_t nthreads, threads_cap;
	struct view_slice *slices;
	size_t nslices, slices_cap;
	struct view_mark *marks;
	size_t nmarks, marks_cap;
	uint64_t gaps[8];              /* decode gaps by hwt_gap_reason */
	uint64_t errors;
	struct hwt_view_stats stats;
};

/* view_html.c: the page. */
int view_write_page(struct hwt_view *v, FILE *out);

/* The page's script and style (view_page.js, view_page.css), embedded
 * at build time (cmake/embed_text.cmake). */
extern const char hwt_view_page_js[];
extern const char hwt_view_page_css[];

#endif
