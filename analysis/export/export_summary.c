/* The lines that say what an export wrote and what it skipped, each
 * format in its own terms: the databases' rows, pprof's samples and
 * locations, the per-binary profiles' ranges, branches and files. */
#include <inttypes.h>

#include "analysis/export/export_internal.h"
#include "hwtrace/error.h"

/* AutoFDO, BOLT: the ranges and branches, the files one per binary. */
static void pgo_summary(const struct hwt_export *ex,
			const struct hwt_export_stats *s, FILE *out,
			const char *prefix)
{
	fprintf(out, "%s%" PRIu64 " ranges (%" PRIu64 " ended without a taken "
		"branch) and %" PRIu64 " taken branches; %" PRIu64 " distinct "
		"ranges and %" PRIu64 " distinct branches in %" PRIu64 " files, "
		"one per binary%s\n", prefix, s->ranges, s->ranges_open,
		s->branches, s->distinct_ranges, s->distinct_branches,
		s->files, s->files ? ":" : "");
	const char *binary;
	const char *path;
	for (size_t i = 0; (path = hwt_export_file(ex, i, &binary)); i++)
		fprintf(out, "  %s (%s)\n", path, binary);
	fprintf(out, "%sskipped: %" PRIu64 " gaps and decode errors (%" PRIu64
		" trace bytes lost; ranges end there, nothing is invented "
		"across them); %" PRIu64 " ranges and branches in code no "
		"binary file holds (kernel, JIT, binaries not found)", prefix,
		s->gaps, s->gap_bytes, s->outside);
	if (s->unnamed)
		fprintf(out, "; %" PRIu64 " branch ends in code no symbol names "
			"(fdata gives their addresses; bolt-preagg keeps them "
			"all)", s->unnamed);
	fputc('\n', out);
}

/* SQLite, PostgreSQL: the rows; pprof: the samples and locations. */
static void rows_summary(const struct hwt_export_stats *s, bool db, FILE *out,
			 const char *prefix)
{
	if (db)
		fprintf(out, "%s%" PRIu64 " branch samples, %" PRIu64 " trace "
			"begin/end samples, %" PRIu64 " call rows, %" PRIu64
			" call paths, %" PRIu64 " symbols in %" PRIu64
			" binaries, %" PRIu64 " threads, %" PRIu64 " context "
			"switches\n", prefix, s->branches, s->trace_marks,
			s->calls, s->call_paths, s->symbols, s->dsos,
			s->threads, s->switches);
	else
		fprintf(out, "%s%" PRIu64 " samples (distinct stacks) with %"
			PRIu64 " instructions, %" PRIu64 " locations, %" PRIu64
			" functions, %" PRIu64 " threads\n", prefix, s->samples,
			s->insns, s->call_paths, s->symbols, s->threads);
	fprintf(out, "%sskipped: %" PRIu64 " gaps and decode errors (%" PRIu64
		" trace bytes lost; frames end there, nothing is invented "
		"across them); %" PRIu64 " %s in code no symbol names (kept as "
		"addresses)\n", prefix, s->gaps, s->gap_bytes,
		s->unknown_addrs, db ? "samples" : "locations");
}

int hwt_export_write_summary(const struct hwt_export *ex, FILE *out,
			     const char *prefix)
{
	struct hwt_export_stats s;
	hwt_export_get_stats(ex, &s);
	enum hwt_export_format f = ex->opts.format;
	if (hwt_export_format_per_binary(f))
		pgo_summary(ex, &s, out, prefix);
	else
		rows_summary(&s, f == HWT_EXPORT_SQLITE ||
				     f == HWT_EXPORT_POSTGRESQL, out, prefix);
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing the export's "
				       "summary failed") : 0;
}
