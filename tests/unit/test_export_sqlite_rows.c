/* The SQLite export's rows for an element stream built by hand, without
 * symbols: a call and its return inside a function the trace began in,
 * then lost trace. Checks the samples (one per branch, the instructions
 * since the thread's last one, the call path they left from), the call
 * path tree, the calls (flags "no call" for the frame the trace began in
 * and "no return" for frames ended by the gap; call and return samples;
 * parent rows), the counts, and that a database with tables is refused. */
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/export.h"

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

/* The rows of @sql, "a|b|c" one per line. */
static const char *rows(sqlite3 *db, const char *sql)
{
	static char out[4096];
	size_t len = 0;
	out[0] = 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite3_errmsg(db);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *t = sqlite3_column_text(st, i);
			len += (size_t)snprintf(out + len, sizeof(out) - len,
						"%s%s", i ? "|" : "",
						t ? (const char *)t : "NULL");
		}
		len += (size_t)snprintf(out + len, sizeof(out) - len, "\n");
	}
	sqlite3_finalize(st);
	return out;
}

/* @jobs 2: the rows are stored on a thread of their own. */
static void test_rows(const char *path, unsigned int jobs)
{
	struct hwt_export_opts o = {.size = sizeof(o),
				    .format = HWT_EXPORT_SQLITE,
				    .db_path = path, .jobs = jobs};
	struct hwt_export *ex;
	now = 100;
	CHECK_INT(hwt_export_new(&o, &ex), 0);
	CHECK_INT(hwt_export_name_thread(ex, 7, 7, "prog"), 0);
	struct hwt_stack_ops ops = hwt_export_ops(ex);
	struct hwt_stack *stack = hwt_stack_new(&ops);
	elements = hwt_export_elements(ex);
	frames = hwt_stack_sink(stack);
	range(0x100, 0x110);                      /* 4 insns in 0x100's */
	branch(0x10c, 0x200, HWT_BRANCH_CALL);
	range(0x200, 0x208);                      /* 2 insns */
	branch(0x204, 0x110, HWT_BRANCH_RETURN);
	range(0x110, 0x118);                      /* 2 insns */
	struct hwt_elem gap = {.type = HWT_ELEM_GAP,
			       .fields = HWT_FIELD_GAP_BYTES};
	gap.u.gap.reason = HWT_GAP_LOST;
	gap.u.gap.bytes = 64;
	emit(gap);
	CHECK_INT(hwt_stack_finish(stack), 0);
	CHECK_INT(hwt_export_finish(ex, true), 0);
	struct hwt_export_stats s;
	hwt_export_get_stats(ex, &s);
	CHECK_U64(s.branches, 2);
	CHECK_U64(s.calls, 2);
	CHECK_U64(s.gaps, 1);
	CHECK_U64(s.gap_bytes, 64);
	CHECK_U64(s.threads, 1);
	CHECK_U64(s.unknown_addrs, 2);
	hwt_stack_free(stack);
	hwt_export_free(ex);

	sqlite3 *db;
	CHECK_INT(sqlite3_open(path, &db), SQLITE_OK);
	/* id, thread, ip, to_ip, time, cpu, branch_type, call path,
	 * instructions since the last sample. */
	CHECK_STR(rows(db, "select id, thread_id, ip, to_ip, time, cpu,"
		       " branch_type, call_path_id, insn_count from samples"
		       " where id > 0"),
		  "1|1|268|512|101|1|3|2|4\n"
		  "2|1|516|272|103|1|5|3|2\n");
	CHECK_STR(rows(db, "select * from call_paths where id > 0"),
		  "1|0|0|0\n2|1|0|256\n3|2|0|512\n");
	/* id, path, call and return times, call and return samples,
	 * parent path, flags, parent row, instructions. */
	CHECK_STR(rows(db, "select id, call_path_id, call_time, return_time,"
		       " call_id, return_id, parent_call_path_id, flags,"
		       " parent_id, insn_count from calls where id > 0"
		       " order by id"),
		  "1|2|100|105|0|0|1|3|0|8\n"
		  "2|3|101|103|1|2|2|0|1|2\n");
	CHECK_STR(rows(db, "select flags from calls_view order by id"),
		  "\nno call/return\n\n");
	CHECK_STR(rows(db, "select pid, tid, command from comm_threads_view"),
		  "7|7|prog\n");
	CHECK_STR(rows(db, "select has_calls from comms order by id"),
		  "1\n1\n");
	sqlite3_close(db);

	/* A second export into it is refused. */
	CHECK_INT(hwt_export_new(&o, &ex), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "already has");
}

/* Options from a caller built before `jobs` existed are taken (one
 * thread); a size smaller than that is refused, saying what to set. */
static void test_options_size(const char *path)
{
	struct hwt_export_opts o = {.format = HWT_EXPORT_SQLITE,
				    .db_path = path, .jobs = 2};
	struct hwt_export *ex;
	o.size = offsetof(struct hwt_export_opts, jobs);
	CHECK_INT(hwt_export_new(&o, &ex), 0);
	hwt_export_free(ex);
	o.size = offsetof(struct hwt_export_opts, jobs) - 1;
	CHECK_INT(hwt_export_new(&o, &ex), HWT_ERR_INVAL);
	CHECK_CONTAINS(hwt_errmsg(), "set it to sizeof(struct hwt_export_opts)");
	CHECK(ex == NULL);
}

int main(void)
{
	char path[] = "/tmp/hwt_export_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	/* Before any SQLite use the statistics can be turned off: then the
	 * export allocates without SQLite counting it. After, nothing can
	 * change and the call says so. */
	CHECK_INT(hwt_export_sqlite_quiet_memory(), 0);
	test_rows(path, 1);
	CHECK_INT(truncate(path, 0), 0);
	test_rows(path, 2);
	CHECK_INT(truncate(path, 0), 0);
	test_options_size(path);
	CHECK_INT(sqlite3_memory_highwater(0), 0);
	CHECK_INT(hwt_export_sqlite_quiet_memory(), HWT_ERR_NOSUP);
	unlink(path);
	return hwt_test_summary();
}
