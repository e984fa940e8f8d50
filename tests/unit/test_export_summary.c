/* hwt_export_format_* and hwt_export_write_summary: the --to names of
 * `hwtrace export`, and the summary of a SQLite export of an element
 * stream built by hand (a call, its return, lost trace), whose counts
 * are checked against the rows of the database it wrote (sqlite3 reads
 * them), and of a pprof export, which counts locations, not rows. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/export.h"
#include "hwtrace/stack.h"

static struct hwt_elem_sink elements, frames;
static uint64_t now = 100;

static void emit(struct hwt_elem e)
{
	e.fields |= HWT_FIELD_TID | HWT_FIELD_TIME | HWT_FIELD_CPU;
	e.tid = 7;
	e.cpu = 1;
	e.time = now++;
	CHECK_INT(elements.emit(elements.arg, &e), 0);
	CHECK_INT(frames.emit(frames.arg, &e), 0);
}

static void range(uint64_t start, uint64_t end)
{
	struct hwt_elem e = {.type = HWT_ELEM_RANGE};
	e.u.range.start = start;
	e.u.range.end = end;
	e.u.range.insns = (end - start) / 4;
	emit(e);
}

static void branch(uint64_t from, uint64_t to, enum hwt_branch_kind kind)
{
	struct hwt_elem e = {.type = HWT_ELEM_BRANCH};
	e.u.branch.from = from;
	e.u.branch.to = to;
	e.u.branch.kind = kind;
	emit(e);
}

/* The call of 0x200 from 0x100's function, its return, 64 bytes lost. */
static void feed(struct hwt_export *ex)
{
	struct hwt_stack_ops ops = hwt_export_ops(ex);
	struct hwt_stack *stack = hwt_stack_new(&ops);
	elements = hwt_export_elements(ex);
	frames = hwt_stack_sink(stack);
	now = 100;
	range(0x100, 0x110);
	branch(0x10c, 0x200, HWT_BRANCH_CALL);
	range(0x200, 0x208);
	branch(0x204, 0x110, HWT_BRANCH_RETURN);
	range(0x110, 0x118);
	struct hwt_elem gap = {.type = HWT_ELEM_GAP,
			       .fields = HWT_FIELD_GAP_BYTES};
	gap.u.gap.reason = HWT_GAP_LOST;
	gap.u.gap.bytes = 64;
	emit(gap);
	CHECK_INT(hwt_stack_finish(stack), 0);
	hwt_stack_free(stack);
}

/* The summary of @ex with @prefix, as a string to free. */
static char *summary(const struct hwt_export *ex, const char *prefix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_INT(hwt_export_write_summary(ex, f, prefix), 0);
	fclose(f);
	return buf;
}

static long long count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void formats_by_name(void)
{
	static const struct {
		const char *name;
		enum hwt_export_format format;
		bool per_binary;
	} want[] = {
		{"sqlite", HWT_EXPORT_SQLITE, false},
		{"pprof", HWT_EXPORT_PPROF, false},
		{"autofdo", HWT_EXPORT_AUTOFDO, true},
		{"bolt", HWT_EXPORT_BOLT, true},
		{"bolt-preagg", HWT_EXPORT_BOLT_PREAGG, true},
		{"postgresql", HWT_EXPORT_POSTGRESQL, false},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum hwt_export_format f = HWT_EXPORT_PPROF;
		CHECK_INT(hwt_export_format_parse(want[i].name, &f), 0);
		CHECK_INT(f, want[i].format);
		CHECK_STR(hwt_export_format_name(f), want[i].name);
		CHECK_INT(hwt_export_format_per_binary(f), want[i].per_binary);
	}
	enum hwt_export_format f = HWT_EXPORT_BOLT;
	CHECK_INT(hwt_export_format_parse("sqlite3", &f), HWT_ERR_INVAL);
	CHECK_INT(hwt_export_format_parse("postgres", &f), HWT_ERR_INVAL);
	CHECK_INT(hwt_export_format_parse("", &f), HWT_ERR_INVAL);
	CHECK_INT(f, HWT_EXPORT_BOLT);
}

static void sqlite_summary_counts_the_rows(void)
{
	char path[] = "/tmp/hwt-export-summary.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct hwt_export_opts o = {.size = sizeof(o),
				    .format = HWT_EXPORT_SQLITE,
				    .db_path = path};
	struct hwt_export *ex;
	CHECK_INT(hwt_export_new(&o, &ex), 0);
	CHECK_INT(hwt_export_name_thread(ex, 7, 7, "prog"), 0);
	feed(ex);
	CHECK_INT(hwt_export_finish(ex, true), 0);
	char *got = summary(ex, "hwtrace export: ");
	hwt_export_free(ex);

	/* The database's own rows (id 0 is each table's "unknown" row). */
	sqlite3 *db;
	CHECK_INT(sqlite3_open(path, &db), SQLITE_OK);
	long long samples = count(db, "select count(*) from samples where id > 0");
	long long calls = count(db, "select count(*) from calls where id > 0");
	long long paths = count(db, "select count(*) from call_paths where id > 0");
	long long syms = count(db, "select count(*) from symbols where id > 0");
	long long dsos = count(db, "select count(*) from dsos where id > 0");
	long long threads = count(db, "select count(*) from threads where id > 0");
	/* A database without switches has no such table, as perf's. */
	long long switches = count(db, "select count(*) from sqlite_master "
				   "where name = 'context_switches'");
	if (switches)
		switches = count(db, "select count(*) from context_switches");
	long long unnamed = count(db, "select count(*) from samples where id > 0"
				  " and symbol_id = 0 and to_symbol_id = 0");
	sqlite3_close(db);
	unlink(path);
	/* Two branches, no trace begin or end; both ends of both samples
	 * in code no symbol names (there is no symbolizer). */
	CHECK(samples == 2 && calls == 2 && paths == 3 && threads == 1);
	CHECK(unnamed == 2);
	char want[1024];
	snprintf(want, sizeof(want),
		 "hwtrace export: %lld branch samples, 0 trace begin/end "
		 "samples, %lld call rows, %lld call paths, %lld symbols in "
		 "%lld binaries, %lld threads, %lld context switches\n"
		 "hwtrace export: skipped: 1 gaps and decode errors (64 trace "
		 "bytes lost; frames end there, nothing is invented across "
		 "them); %lld samples in code no symbol names (kept as "
		 "addresses)\n", samples, calls, paths, syms, dsos, threads,
		 switches, unnamed);
	CHECK_STR(got, want);
	free(got);
}

static void pprof_summary_counts_locations(void)
{
	char *prof = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&prof, &len);
	struct hwt_export_opts o = {.size = sizeof(o),
				    .format = HWT_EXPORT_PPROF, .out = out};
	struct hwt_export *ex;
	CHECK_INT(hwt_export_new(&o, &ex), 0);
	feed(ex);
	CHECK_INT(hwt_export_finish(ex, true), 0);
	struct hwt_export_stats s;
	hwt_export_get_stats(ex, &s);
	/* The gap is counted in the pprof terms' line, with no prefix. */
	char want[1024];
	snprintf(want, sizeof(want),
		 "%llu samples (distinct stacks) with 8 instructions, %llu "
		 "locations, %llu functions, %llu threads\n"
		 "skipped: 1 gaps and decode errors (64 trace bytes lost; "
		 "frames end there, nothing is invented across them); %llu "
		 "locations in code no symbol names (kept as addresses)\n",
		 (unsigned long long)s.samples,
		 (unsigned long long)s.call_paths,
		 (unsigned long long)s.symbols,
		 (unsigned long long)s.threads,
		 (unsigned long long)s.unknown_addrs);
	char *got = summary(ex, "");
	CHECK_STR(got, want);
	CHECK(s.samples > 0 && s.call_paths > 0);
	free(got);
	hwt_export_free(ex);
	fclose(out);
	free(prof);
}

int main(void)
{
	RUN(formats_by_name);
	RUN(sqlite_summary_counts_the_rows);
	RUN(pprof_summary_counts_locations);
	return hwt_test_summary();
}
