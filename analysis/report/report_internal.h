/* Shared by the files of the report (analysis/report/ only). */
#ifndef HWT_ANALYSIS_REPORT_INTERNAL_H
#define HWT_ANALYSIS_REPORT_INTERNAL_H

#include "analysis/report/call_tree.h"
#include "analysis/util/pairmap.h"
#include "analysis/util/strmap.h"
#include "hwtrace/report.h"

/* strmap values of a function ("DSO/NAME"): its index in funcs, plus
 * one, and the id of its folded name among the frame names. */
enum { F_INDEX, F_FRAME };

struct open_frame {
	size_t func;      /* index in funcs */
	uint64_t node;    /* its call path in the tree (its segment's) */
};

/* A thread's current segment: a run of stacks from the thread's start,
 * or a cut, to the next cut. The callers inferred under its stacks come
 * in after some of the stacks ended; until the segment ends each stack
 * is kept with the number of callers known when it ended, and when it
 * ends the callers found later are put in front (segment_fold). */
struct segment {
	uint64_t *callers;  /* frame ids, innermost (first found) first */
	size_t n, cap;
	struct hwt_pairmap stacks;  /* (callers known, node) -> S_* */
};

struct thread_path {
	int64_t key;
	struct segment seg;
	struct open_frame *v;
	size_t n, cap;
};

/* The order of the table's rows (hwt_report_set_sort). */
struct report_sort {
	enum hwt_report_sort_key keys[HWT_REPORT_SORT_MAX];
	size_t n;
};

struct hwt_report {
	struct hwt_func_namer namer;
	struct hwt_strmap names;        /* "DSO/NAME" -> F_INDEX */
	struct hwt_strmap dsos;         /* the binaries' names, interned */
	struct report_sort sort;        /* n 0: by self or total */
	/* A tid or comm key: rows by (thread or its name, binary,
	 * function), the names from comm (hwt_report_set_comm). */
	bool rows_by_tid, rows_by_comm;
	const char *(*comm)(void *arg, int32_t pid, int32_t tid);
	void *comm_arg;
	struct hwt_strmap comms;        /* the threads' names, interned */
	struct hwt_report_func *funcs;
	/* Open activations of each function in each thread ("T:F" ->
	 * v[0]): recursion is a function open twice in one thread. */
	struct hwt_strmap active;
	size_t nfuncs, cap;
	/* The stacks of the segments that ended, with every caller in
	 * front (the live threads' segments are added when writing). */
	struct call_tree tree;
	struct hwt_strmap frames;         /* folded frame names, by id */
	uint64_t *prefix;                 /* scratch of segment_fold */
	size_t prefix_cap;
	bool stacks_lost;   /* memory ran out adding a segment to the tree */
	struct thread_path *threads;
	size_t nthreads, threads_cap;
	/* By source line (hwt_report_by_line): instructions per "FUNCTION
	 * FILE:LINE" row (L_INSNS), and each address's row and folded leaf
	 * (A_ROW, A_LEAF: indexes plus one). */
	char *time_unit, *time_meaning; /* hwt_report_set_time */
	bool children;                  /* hwt_report_set_children */
	/* Frames a filter kept out (hwt_report_hidden_ops): their self
	 * instructions, and whether there were any. */
	uint64_t hidden_insns;
	bool hidden;
	struct hwt_report_lines lines;
	struct hwt_strmap line_rows;
	struct hwt_strmap addr_lines;
	struct hwt_strmap leaves;
	/* The frame ids of each leaf's parts (its entry's LF_AT: the first,
	 * plus one; LF_N: how many), found once. */
	uint64_t *leaf_frames;
	size_t nleaf_frames, leaf_frames_cap;
};

enum { L_INSNS };
enum { A_ROW, A_LEAF };
enum { LF_AT, LF_N };

/* The entry of function @name in binary @dso (NULL: "[unknown]") in
 * @rows, keyed "DSO/NAME" (a dso never holds a '/'), created zeroed on
 * first sight; *@name_out and *@dso_out are its name and binary, kept by
 * @rows and @dsos (which interns the binaries' names). NULL when out of
 * memory. Shared by the report and the partial results, so that both
 * key rows alike. */
struct hwt_strmap_entry *report_row(struct hwt_strmap *rows,
				    struct hwt_strmap *dsos, const char *dso,
				    const char *name, const char **name_out,
				    const char **dso_out);

/* The thread of stack key @key (tid, or -2 - cpu), created on first
 * sight; NULL when out of memory. */
struct thread_path *report_thread(struct hwt_report *r, int64_t key);

/* The counters of the stack of @t's current segment at @node, the path
 * of one frame that ended; NULL when out of memory. */
uint64_t *report_stack(struct thread_path *t, uint64_t node);

/* Appends @name to the folded path in *@buf at @len as a flame graph
 * frame (no spaces or semicolons inside), after a ';' unless first;
 * returns the new length, or 0 when out of memory. */
size_t report_frame_append(char **buf, size_t *cap, size_t len,
			   const char *name);

/* Writes the function table of @funcs (@nfuncs of them, any order: the
 * rows are sorted by @sort, NULL or no key: by self instructions, or
 * total ones when @children, then name and binary) with the time columns
 * when @has_time (@time_unit NULL: "ns"; @time_meaning NULL: no line).
 * hwt_report_write's table, shared with the merged partial results.
 * @hidden (NULL: none) is the self instructions of the frames a filter
 * kept out: the percentages are of all the instructions. */
int report_write_table(const struct hwt_report_func *funcs, size_t nfuncs,
		       const char *time_unit, const char *time_meaning,
		       FILE *out, size_t top, bool has_time, bool children,
		       const struct report_sort *sort, const uint64_t *hidden);

/* Adds the report's folded stacks, each with the callers found after it
 * ended in front, to @full ("a;b;c" -> S_INSNS, S_TIME, S_CALLS): the
 * text a partial result keeps. */
int report_full_stacks(const struct hwt_report *r, struct hwt_strmap *full);

/* Writes the stacks of @full whose slot @which is not 0, "a;b;c COUNT",
 * sorted by stack (bytewise), so that the output does not depend on the
 * order the stacks were met in. */
int report_write_folded(const struct hwt_strmap *full, unsigned which,
			FILE *out);

/* The S_* slot of a weight. */
unsigned report_weight_slot(enum hwt_report_weight weight);

/* report_lines.c: the table by source line. */
int report_write_lines(const struct hwt_report *r, FILE *out, size_t top);

#endif
