/* Shared by the files of analysis/partial/ only. */
#ifndef HWT_ANALYSIS_PARTIAL_INTERNAL_H
#define HWT_ANALYSIS_PARTIAL_INTERNAL_H

#include <stdio.h>

#include "analysis/export/pgo_internal.h"
#include "analysis/export/pprof_profile.h"
#include "analysis/export/sqlite_shards.h"
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
	/* HWT_PARTIAL_AUTOFDO, _BOLT, _BOLT_PREAGG (partial_pgo.c): one
	 * profile per binary, sorted by path, each with its ranges and
	 * branches sorted and each once; every text in them is a key of
	 * @strings. */
	struct pgo_binary *bins;
	size_t nbins, bins_cap;
	struct hwt_strmap strings;
	/* HWT_PARTIAL_PPROF (partial_pprof.c): the profile, and while it
	 * is read, the location whose lines are still to come. */
	struct pprof_profile *pprof;
	struct pprof_loc reading;
	struct pprof_line *reading_lines;
	size_t reading_n, reading_cap;
	/* HWT_PARTIAL_SQLITE (partial_sqlite.c): the captures' databases,
	 * in their canonical order. */
	struct sqlite_shards shards;
	/* HWT_PARTIAL_BRANCH_PROFILE (partial_bprof.c): the branches in
	 * the order they came, each once; @branch_keys maps a branch's
	 * texts (bprof_key) to v[0], its index plus one. */
	struct bprof_branch *branches;
	size_t nbranches, branches_cap;
	struct hwt_strmap branch_keys;
	bool named;
};

/* One branch of a branch-profile partial: its ends' texts and names
 * (NULL where none), its count, and the lowest (from, to) address pair
 * it was counted at, which orders equal counts as the decode does. */
struct bprof_branch {
	char *from, *to, *from_sym, *to_sym;
	uint64_t count, from_addr, to_addr;
};

/* The branch-profile partial (partial_bprof.c): adds a branch (merged
 * into the one of the same texts, *@added false then), merges, frees.
 * Its lines (partial_bprof_text.c): written (*@lines their count), its
 * first line ("named") and then one ("branch") read. */
struct partial_reader;
int partial_bprof_add(struct hwt_partial *p, const struct bprof_branch *b,
		      bool *added);
int partial_bprof_merge(struct hwt_partial *dst, const struct hwt_partial *src);
void partial_bprof_free(struct hwt_partial *p);
int partial_bprof_write(const struct hwt_partial *p, FILE *out, size_t *lines);
int partial_bprof_read_head(struct partial_reader *r, struct hwt_partial *p);
int partial_bprof_read_line(struct partial_reader *r, struct hwt_partial *p);
/* The branches in the order their lines are written (by texts), or
 * printed (by count; @by_count); NULL when out of memory. */
const struct bprof_branch **partial_bprof_sorted(const struct hwt_partial *p,
						 bool by_count);

/* Whether @kind is one of the per-binary profiles (partial_pgo.c). */
bool partial_is_pgo(enum hwt_partial_kind kind);

/* @s kept in p->strings (NULL stays NULL); *@out NULL when out of
 * memory. */
int partial_intern(struct hwt_partial *p, const char *s, const char **out);

/* Frees the per-binary profiles of @p. */
void partial_pgo_free(struct hwt_partial *p);

/* Adds the profiles of @src to @dst's; HWT_ERR_INVAL when the two hold
 * different binaries at one path, HWT_ERR_FORMAT past 2^64 - 1. */
int partial_pgo_merge(struct hwt_partial *dst, const struct hwt_partial *src);

/* The reading of the partial format, shared by the kinds' readers
 * (partial_text.c). */
struct partial_reader {
	FILE *in;
	const char *name;
	size_t lineno;
	char *line;
	size_t cap;
	char *fields[16];
	size_t nfields;
};

/* HWT_ERR_FORMAT with the file, the line and @what. */
int partial_bad(const struct partial_reader *r, const char *what);
/* The next line cut into fields. */
int partial_next_line(struct partial_reader *r);
/* HWT_ERR_FORMAT unless the line has @n fields. */
int partial_want_fields(const struct partial_reader *r, size_t n);
/* A decimal (@base 10) or 0x-hex (@base 16) number. */
int partial_number(const struct partial_reader *r, const char *s, int base,
		   uint64_t *v);
/* Decodes text field @s in place (*@out NULL for an absent text). */
int partial_text_field(const struct partial_reader *r, char *s, char **out);
/* Writes @s as a text field. */
void partial_put_text(FILE *out, const char *s);

/* The per-binary profiles' lines (partial_pgo_text.c): writes them,
 * *@lines their count; reads one ("binary", "range", "branch"). */
int partial_pgo_write(const struct hwt_partial *p, FILE *out, size_t *lines);
int partial_pgo_read_line(struct partial_reader *r, struct hwt_partial *p);

/* The pprof partial (partial_pprof.c): its profile allocated (an
 * error when out of memory), freed, copied from an export, merged. */
int partial_pprof_new(struct hwt_partial *p);
void partial_pprof_free(struct hwt_partial *p);
int partial_pprof_from_export(const struct hwt_export *ex,
			      struct hwt_partial **out);
int partial_pprof_merge(struct hwt_partial *dst, const struct hwt_partial *src);

/* Its lines (partial_pprof_text.c): writes them, *@lines their count;
 * reads its first line ("profile"), then one ("location", "line",
 * "sample"), and checks at the end line that no location is cut. */
int partial_pprof_write(const struct hwt_partial *p, FILE *out, size_t *lines);
int partial_pprof_read_head(struct partial_reader *r, struct hwt_partial *p);
int partial_pprof_read_line(struct partial_reader *r, struct hwt_partial *p);
int partial_pprof_read_end(struct partial_reader *r, struct hwt_partial *p);

/* The sqlite partial (partial_sqlite.c): copied from an export, merged,
 * its lines written (*@lines their count) and read ("capture", with
 * the database's bytes after the line). */
int partial_sqlite_from_export(const struct hwt_export *ex,
			       struct hwt_partial **out);
int partial_sqlite_merge(struct hwt_partial *dst, const struct hwt_partial *src);
int partial_sqlite_write(const struct hwt_partial *p, FILE *out, size_t *lines);
int partial_sqlite_read_line(struct partial_reader *r, struct hwt_partial *p);

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
