/* Shared by the files of the report (analysis/report/ only). */
#ifndef HWT_ANALYSIS_REPORT_INTERNAL_H
#define HWT_ANALYSIS_REPORT_INTERNAL_H

#include "analysis/util/strmap.h"
#include "hwtrace/report.h"

/* strmap value of a function: its index in funcs, plus one. */
enum { F_INDEX };
/* strmap values of a folded stack: */
enum { S_INSNS, S_TIME, S_CALLS };

struct open_frame {
	size_t func;      /* index in funcs */
	size_t path_len;  /* the folded path up to and including it */
};

/* The callers inferred under one segment's stacks, innermost (first
 * found) first. */
struct segment {
	const char **callers; /* function names */
	size_t n, cap;
};

struct thread_path {
	int64_t key;
	size_t seg;       /* its current segment */
	struct open_frame *v;
	size_t n, cap;
	char *path;       /* "outer;...;inner" of the open frames */
	size_t path_cap;
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
	struct hwt_report_func *funcs;
	/* Open activations of each function in each thread ("T:F" ->
	 * v[0]): recursion is a function open twice in one thread. */
	struct hwt_strmap active;
	size_t nfuncs, cap;
	/* "SEG K|path" -> S_*: the path when the frame ended, in segment
	 * SEG with K inferred callers known then. */
	struct hwt_strmap stacks;
	struct segment *segs;
	size_t nsegs, segs_cap;
	char *key;                      /* scratch for stack keys */
	size_t key_cap;
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
};

enum { L_INSNS };
enum { A_ROW, A_LEAF };

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

/* The folded stack entry of @t's first @path_len bytes of path, with
 * @leaf (NULL: none) as one more frame; NULL when out of memory. */
struct hwt_strmap_entry *report_stack(struct hwt_report *r,
				      const struct thread_path *t,
				      size_t path_len, const char *leaf);

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
 * ended in front, to @full ("a;b;c" -> S_INSNS, S_TIME, S_CALLS). */
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
