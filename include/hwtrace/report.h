/* `hwtrace report`: functions by the instructions (and time) spent in
 * them, and folded stacks for flame graphs. Built on hwtrace/stack.h: the
 * report's stack ops gather what the stacks report. */
#ifndef HWTRACE_REPORT_H
#define HWTRACE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a folded stack's count is. */
enum hwt_report_weight {
	HWT_WEIGHT_INSNS,  /* instructions executed in the leaf frame */
	HWT_WEIGHT_TIME,   /* time in the leaf frame (trace time units) */
	HWT_WEIGHT_CALLS,  /* how many times the leaf frame was entered
			    * (hwt_frame_is_call: inferred frames weigh 0) */
};

/* One function's totals. Totals count a recursive function once: the
 * outermost activation's total includes the inner ones. */
struct hwt_report_func {
	const char *name;       /* the namer's, or the address in hex */
	uint64_t calls;         /* activations that are calls
				 * (hwt_frame_is_call) */
	uint64_t frames;        /* all activations, inferred ones included */
	uint64_t insns_self, insns_total;
	uint64_t branches_self;
	uint64_t time_self, time_total;
	uint64_t timed;         /* activations with a duration */
	uint64_t duration_sum, duration_max;
	/* The binary the function is in (hwt_func_namer.dso), "[unknown]"
	 * when the namer does not say: a name in two binaries is two rows. */
	const char *dso;
	/* With a tid or comm sort key (hwt_report_set_sort), a row is one
	 * function in one thread (tid) or in the threads of one name
	 * (comm only): its thread (tid -1 without threads; pid with it)
	 * and the thread's name (hwt_report_set_comm; "[unknown]" when
	 * none is known). Otherwise tid -1 and comm NULL. */
	int32_t pid, tid;
	const char *comm;
};

struct hwt_report;

/* A new report. @namer may be NULL (addresses only) and is copied.
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_report_new(const struct hwt_func_namer *namer,
			   struct hwt_report **report);

/* Frees the report; NULL is a no-op. */
HWT_API void hwt_report_free(struct hwt_report *report);

/* Stack ops that feed the report; valid while @report is (set
 * function_start for tail calls and unwinding). Errors: HWT_ERR_NOMEM. */
HWT_API struct hwt_stack_ops hwt_report_ops(struct hwt_report *report);

/* Stack ops that count the frames a filter kept out of the report
 * (hwt_frame_filter_opts.dropped); valid while @report is. The table's
 * percentages are then of all the instructions, the hidden ones too, and
 * its header says how many were hidden (perf report's percentages with
 * --comms, --dsos and --symbols are of the whole too). */
HWT_API struct hwt_stack_ops hwt_report_hidden_ops(struct hwt_report *report);

/* The functions, in order of first appearance; valid until the next
 * stack callback or hwt_report_free. */
HWT_API const struct hwt_report_func *
hwt_report_funcs(const struct hwt_report *report, size_t *count);

/* Source lines for a report by line: the file and line of the code at
 * @addr in process @pid (-1 when unknown), and the functions inlined
 * there, outermost first (not the function holding the code). Returns
 * false when the address has no line. Strings stay valid until the next
 * call. */
struct hwt_report_lines {
	bool (*line)(void *arg, int32_t pid, uint64_t addr, const char **file,
		     uint32_t *line, const char *const **inlined,
		     size_t *ninlined);
	void *arg;
};

/* Makes @report count instructions by source line (`report --srcline`):
 * its table lists "FUNCTION FILE:LINE" rows, FUNCTION being the
 * innermost function inlined there (else the function itself), and its
 * folded stacks weighted by instructions end in the inlined functions and
 * a "FILE:LINE" frame. Instructions come from the elements through
 * hwt_report_elements, which must see every element after the stacks
 * did. @lines is copied. Errors: HWT_ERR_INVAL when @lines has no line
 * callback. */
HWT_API int hwt_report_by_line(struct hwt_report *report,
			       const struct hwt_report_lines *lines);

/* The sink that counts the elements' instructions by line (see
 * hwt_report_by_line); valid while @report is. Its errors:
 * HWT_ERR_NOMEM. */
HWT_API struct hwt_elem_sink hwt_report_elements(struct hwt_report *report);

/* The unit of the table's time columns (@unit, e.g. "ns"; NULL: "ns")
 * and one line saying what the time measures for the capture's trace
 * (@meaning, NULL: none), both printed in the table's header when it has
 * time. Copied. Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_report_set_time(struct hwt_report *report, const char *unit,
				const char *meaning);

/* Orders the table by total (inclusive) instructions when @children, as
 * perf report's --children does; else by self instructions (the
 * default, perf's --no-children). */
HWT_API void hwt_report_set_children(struct hwt_report *report, bool children);

/* What the table's rows can be ordered by (`report --sort`, perf
 * report's keys where they apply): counts most first, names bytewise. */
enum hwt_report_sort_key {
	HWT_SORT_SELF,   /* self instructions */
	HWT_SORT_TOTAL,  /* total (inclusive) instructions: perf's children */
	HWT_SORT_CALLS,
	HWT_SORT_DSO,    /* the binary's name */
	HWT_SORT_SYM,    /* the function's name */
	HWT_SORT_TID,    /* the thread: a row per function and thread */
	HWT_SORT_COMM,   /* the thread's name: a row per function and name */
};
#define HWT_REPORT_SORT_MAX 8

/* Orders the table by @keys (@n of them, 1 to HWT_REPORT_SORT_MAX), the
 * first the primary order; ties go by self instructions, name, binary.
 * Replaces hwt_report_set_children's order. @keys is copied. A tid or
 * comm key also splits the rows by thread (tid: per thread; comm alone:
 * per thread name), as perf report's keys group its histogram, and the
 * table gets their columns: set it before the first frame. Errors:
 * HWT_ERR_INVAL (no key, too many, or one out of range; a tid or comm
 * key once frames came in). */
HWT_API int hwt_report_set_sort(struct hwt_report *report,
				const enum hwt_report_sort_key *keys,
				size_t n);

/* Where the rows a tid or comm key splits get their thread's name:
 * @comm gives the name of @tid of @pid (valid until its next call; the
 * report keeps a copy), or NULL when unknown. Without it, every
 * thread's name is "[unknown]". Set it before the first frame. */
HWT_API void hwt_report_set_comm(struct hwt_report *report,
				 const char *(*comm)(void *arg, int32_t pid,
						     int32_t tid),
				 void *arg);

/* Writes the @top functions with the most self instructions (0: all) as
 * a table (most total ones with hwt_report_set_children), with time
 * columns when @has_time (by line: the @top lines,
 * instructions only). Errors: HWT_ERR_IO. */
HWT_API int hwt_report_write(const struct hwt_report *report, FILE *out,
			     size_t top, bool has_time);

/* Writes folded stacks, "outer;...;leaf COUNT" one per line, sorted by
 * stack (bytewise), for flamegraph.pl and speedscope (frames with spaces
 * or semicolons in their names get '_' there); stacks whose count is 0
 * are left out. Errors: HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_report_write_collapsed(const struct hwt_report *report,
				       FILE *out,
				       enum hwt_report_weight weight);

/* Ends the frames of one capture: the next frames fed are another
 * capture's, whose threads start over (a tid seen in both is two threads),
 * while the totals and stacks add up. Call it after hwt_stack_finish of
 * each capture but the last (`hwtrace report A B`). */
HWT_API void hwt_report_end_capture(struct hwt_report *report);

#ifdef __cplusplus
}
#endif

#endif
