/* Partial results: what the decode of one part of the input (a capture,
 * or one unit of it: hwt_capture_units) contributes to a report, folded
 * stacks or an edge map, kept in a form that merges. Partials are written
 * to and read from a small versioned text format (docs/scale-out.md), so
 * that the parts can be decoded by separate processes on separate hosts
 * and merged anywhere.
 *
 * The merge is associative and commutative, and the bytes of a partial
 * and of the final output depend only on the set of parts merged, not on
 * the order or grouping of the merges: every list in a partial is written
 * sorted, and every value is a sum or a maximum. */
#ifndef HWTRACE_PARTIAL_H
#define HWTRACE_PARTIAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/edge_map.h"
#include "hwtrace/export.h"
#include "hwtrace/listing.h"
#include "hwtrace/output.h"
#include "hwtrace/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a partial holds. */
enum hwt_partial_kind {
	/* A report's function totals and its folded stacks, with all three
	 * weights: gives `report` and `report --collapsed`. */
	HWT_PARTIAL_REPORT,
	/* An edge map with its stats: gives `decode --edges`. */
	HWT_PARTIAL_EDGES,
	/* The per-binary profiles of `export --to autofdo`, `--to bolt`
	 * (fdata) and `--to bolt-preagg`: address ranges and taken
	 * branches with counts, in each binary's own addresses. */
	HWT_PARTIAL_AUTOFDO,
	HWT_PARTIAL_BOLT,
	HWT_PARTIAL_BOLT_PREAGG,
	/* The profile of `export --to pprof`: its locations (process,
	 * address, binary, lines) and samples (labels, stack of locations,
	 * values), identified by content. */
	HWT_PARTIAL_PPROF,
	/* The database of `export --to sqlite` (perf's schema): each
	 * capture's own database, as an export of it alone writes it. */
	HWT_PARTIAL_SQLITE,
	/* The branch-count profile of `decode --branch-profile`: each
	 * branch by the text its ends print as (FILE+0xOFFSET, or
	 * 0xADDRESS where no file is mapped) and their names, with its
	 * count. */
	HWT_PARTIAL_BRANCH_PROFILE,
};

struct hwt_partial;
struct hwt_branch_profile; /* hwtrace/sample.h */
struct hwt_image;          /* hwtrace/image.h */

/* The kind's name in the format ("report", "edges", "autofdo", "bolt",
 * "bolt-preagg", "pprof", "sqlite", "branch-profile"). */
HWT_API const char *hwt_partial_kind_name(enum hwt_partial_kind kind);

/* The partial of a finished report (every capture's stacks finished):
 * its functions, its full folded stacks, its time unit and meaning, and
 * @has_time (whether the trace had time: the table's time columns).
 * A report by source line has no partial. Errors: HWT_ERR_INVAL (by
 * source line), HWT_ERR_NOMEM. */
HWT_API int hwt_partial_from_report(const struct hwt_report *report,
				    bool has_time, struct hwt_partial **out);

/* The partial of an edge map (its edges and stats are copied). Errors:
 * HWT_ERR_NOMEM. */
HWT_API int hwt_partial_from_edges(const struct hwt_edges *edges,
				   struct hwt_partial **out);

/* The partial of an AutoFDO, BOLT or pprof export made with
 * opts.partial, after hwt_export_finish: its profiles, copied. Errors:
 * HWT_ERR_INVAL
 * (another format, or not made with opts.partial), HWT_ERR_NOMEM. */
HWT_API int hwt_partial_from_export(const struct hwt_export *ex,
				    struct hwt_partial **out);

/* A new, empty branch-profile partial, into which the records of a
 * finished branch profile go through hwt_partial_branch_count. @named:
 * the profile is written with names (hwt_decode_opts.name_addr set),
 * as every record it takes must be. Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_partial_new_branch_profile(bool named,
					   struct hwt_partial **out);

/* A hwt_branch_count_sink.branch whose @partial is a branch-profile
 * partial: adds @rec's count to its branch (the one with @rec's texts
 * and names). Errors: HWT_ERR_INVAL (another kind, or a record named
 * otherwise than the partial), HWT_ERR_FORMAT (past 2^64 - 1),
 * HWT_ERR_NOMEM. */
HWT_API int hwt_partial_branch_count(void *partial,
				     const struct hwt_branch_count_rec *rec);

/* The partial of a finished branch profile @bp, its addresses rendered
 * with @image and named with @name_addr (NULL: no names) as
 * hwt_branch_profile_emit renders them. Errors: those of
 * hwt_partial_new_branch_profile and hwt_partial_branch_count. */
HWT_API int hwt_partial_from_branch_profile(
	const struct hwt_branch_profile *bp, struct hwt_image *image,
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size),
	void *name_addr_arg, struct hwt_partial **out);

/* Frees the partial; NULL is a no-op. */
HWT_API void hwt_partial_free(struct hwt_partial *p);

/* What @p holds. */
HWT_API enum hwt_partial_kind hwt_partial_kind(const struct hwt_partial *p);

/* Adds @src to @dst. Errors: HWT_ERR_INVAL (other kinds, or report
 * partials whose time is in different units: the message says which),
 * HWT_ERR_FORMAT (a count would pass 2^64 - 1), HWT_ERR_NOMEM (@dst then
 * holds part of @src). */
HWT_API int hwt_partial_merge(struct hwt_partial *dst,
			      const struct hwt_partial *src);

/* Writes @p in the partial format. Errors: HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_partial_write(const struct hwt_partial *p, FILE *out);

/* Reads a partial from @in; @name (the file's name) starts every error
 * message, with the line. Errors: HWT_ERR_FORMAT (not a partial, another
 * version, a malformed or truncated line, a number out
 * of range, an entry listed twice), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_partial_read(FILE *in, const char *name,
			     struct hwt_partial **out);

/* The final outputs, the same bytes as the single-process commands give
 * on the whole input: hwt_report_write (not by source line),
 * hwt_report_write_collapsed, hwt_edges_write. Errors: HWT_ERR_INVAL
 * (a partial of another kind), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_partial_write_report(const struct hwt_partial *p, FILE *out,
				     size_t top);
HWT_API int hwt_partial_write_collapsed(const struct hwt_partial *p,
					FILE *out,
					enum hwt_report_weight weight);
HWT_API int hwt_partial_write_edges(const struct hwt_partial *p, FILE *out,
				    enum hwt_output_format format);

/* The lines of a branch-profile partial as `decode --branch-profile`
 * prints them (text, or jsonl without the stream's header line): most
 * taken first; among equal counts, by the lowest address pair the
 * branch was counted at, then by its texts. For one capture these are
 * the decode's own bytes. Errors: HWT_ERR_INVAL (another kind),
 * HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_partial_write_branch_profile(const struct hwt_partial *p,
					     FILE *out,
					     enum hwt_output_format format);

/* The files of an AutoFDO or BOLT partial, as `hwtrace export -o
 * @prefix` writes them on the whole input (hwtrace/export.h's
 * out_prefix says how they are named), each written to a temporary file
 * and all renamed into place when all are written. When @listing is not
 * NULL, a line "  PATH (BINARY)" goes there for each file written.
 * Errors: HWT_ERR_INVAL (another kind), those of the files. */
HWT_API int hwt_partial_write_profiles(const struct hwt_partial *p,
				       const char *prefix, FILE *listing);

/* The profile of a pprof partial, the bytes `hwtrace export --to pprof`
 * writes on the whole input (a gzip-compressed profile.proto). Errors:
 * HWT_ERR_INVAL (another kind), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_partial_write_pprof(const struct hwt_partial *p, FILE *out);

/* The database of an sqlite partial, the bytes `hwtrace export --to
 * sqlite` writes on the whole input, to the new (empty or absent) file
 * @file, named @name in messages. Errors: HWT_ERR_INVAL (another kind),
 * HWT_ERR_FORMAT (a capture's database of another layout), HWT_ERR_NOMEM,
 * HWT_ERR_IO, HWT_ERR_NOSPC. */
HWT_API int hwt_partial_write_sqlite(const struct hwt_partial *p,
				     const char *file, const char *name);

/* What a merge of partials gives (`hwtrace merge --kind`). */
enum hwt_merge_kind {
	HWT_MERGE_REPORT,      /* report's table, from report partials */
	HWT_MERGE_COLLAPSED,   /* report's folded stacks, from report partials */
	HWT_MERGE_EDGES,       /* decode --edges */
	HWT_MERGE_AUTOFDO,     /* export --to autofdo: one file per binary */
	HWT_MERGE_BOLT,        /* export --to bolt: one file per binary */
	HWT_MERGE_BOLT_PREAGG, /* export --to bolt-preagg: one file per binary */
	HWT_MERGE_PPROF,       /* export --to pprof */
	HWT_MERGE_SQLITE,      /* export --to sqlite: a new database file */
	HWT_MERGE_BRANCH_PROFILE, /* decode --branch-profile */
};

/* The kind named @name ("report", "collapsed", "edges", "autofdo",
 * "bolt", "bolt-preagg", "pprof", "sqlite", "branch-profile") into *@out. Returns 0, or
 * HWT_ERR_INVAL (no message) for another name. */
HWT_API int hwt_merge_kind_parse(const char *name, enum hwt_merge_kind *out);

/* @kind's name, as hwt_merge_kind_parse reads it. */
HWT_API const char *hwt_merge_kind_name(enum hwt_merge_kind kind);

/* The kind of the partials that merge into @kind. */
HWT_API enum hwt_partial_kind hwt_merge_kind_partial(enum hwt_merge_kind kind);

/* Whether @kind is written as files, one per binary
 * (hwt_partial_write_profiles), rather than to one stream. */
HWT_API bool hwt_merge_kind_per_binary(enum hwt_merge_kind kind);

/* Reads the partial results in the files @paths[0..@n) and merges them
 * into *@out (freed with hwt_partial_free; NULL on error). Each must be
 * of kind @want; every message starts with the name of the file it is
 * about. Errors: HWT_ERR_INVAL (@n is 0), those of hwt_infile_fopen and
 * hwt_partial_read, HWT_ERR_FORMAT (a partial of another kind, a count
 * past 2^64 - 1), HWT_ERR_INVAL (report partials whose time is in other
 * units), HWT_ERR_NOMEM. */
HWT_API int hwt_partial_merge_files(const char *const *paths, size_t n,
				    enum hwt_partial_kind want,
				    struct hwt_partial **out);

/* How the stream kinds are written: report's @top functions (0: all),
 * collapsed's @weight, edges' and branch-profile's @format (jsonl
 * without the stream's header line, which is the caller's). */
struct hwt_merge_write_opts {
	size_t top;
	enum hwt_report_weight weight;
	enum hwt_output_format format;
};

/* Writes the merged @p as @kind gives it to one stream: the report
 * table, the folded stacks, the edges, the pprof profile or the branch
 * profile. Errors:
 * HWT_ERR_INVAL (a per-binary kind or sqlite, which are written to
 * files by hwt_partial_write_profiles and hwt_partial_write_sqlite; a
 * partial of another kind), those of the writer. */
HWT_API int hwt_partial_write_merged(const struct hwt_partial *p,
				     enum hwt_merge_kind kind,
				     const struct hwt_merge_write_opts *opts,
				     FILE *out);

/* The edge map of an edges partial (owned by it), NULL for other kinds. */
HWT_API const struct hwt_edges *hwt_partial_edges(const struct hwt_partial *p);

#ifdef __cplusplus
}
#endif

#endif
