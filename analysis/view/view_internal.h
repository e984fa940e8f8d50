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

/* A call on a thread's timeline, or calls added up (view_blocks.c). */
struct view_slice {
	uint32_t thread;        /* index in threads */
	uint32_t name;          /* index in names; UINT32_MAX: several */
	int32_t depth;
	uint32_t calls;         /* 1, or the calls added up */
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
	size_t compact_at;             /* view_compact's threshold */
	struct view_mark *marks;
	size_t nmarks, marks_cap;
	uint64_t gaps[8];              /* decode gaps by hwt_gap_reason */
	uint64_t errors;
	struct hwt_view_stats stats;
};

/* view_blocks.c: where add_up puts the slices it keeps and the blocks
 * it makes. */
struct view_put {
	int (*put)(void *arg, const struct view_slice *s);
	void *arg;
};

/* Hands @to every slice of @v at least @pixel long and the blocks the
 * shorter ones add up into (columns of @pixel from @first); @st gets
 * slices (single calls put), slices_short (calls in blocks) and blocks.
 * Errors: HWT_ERR_NOMEM, whatever @to returns. */
int view_add_up(const struct hwt_view *v, uint64_t first, uint64_t pixel,
		const struct view_put *to, struct hwt_view_stats *st);

/* Adds up the short calls kept so far when they are many. */
int view_compact(struct hwt_view *v);

/* The first and last time of all threads (0, 0 when none has time). */
void view_time_span(const struct hwt_view *v, uint64_t *first,
		    uint64_t *last);

/* view_html.c: the page. */
int view_write_page(struct hwt_view *v, FILE *out);

/* The page's script and style (view_page.js, view_page.css), embedded
 * at build time (cmake/embed_text.cmake). */
extern const char hwt_view_page_js[];
extern const char hwt_view_page_css[];

#endif
