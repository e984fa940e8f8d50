/* hwt_export_request_output_check, hwt_export_request_apply and
 * hwt_export_capture_file, what `hwtrace export` asks of the library
 * between its options and its decode: a SQLite database is not written
 * over anything at -o without --replace (a dangling link included), the
 * message naming it; a checked request's format, --db, --partial,
 * --replace and the per-binary formats' file prefix go into the export's
 * options, nothing else; and the threads of the quipper Intel PT
 * capture, named "echo" for tid 3174 by its PERF_RECORD_COMM (perf
 * report -D), name the SQLite export's thread whether the capture is the
 * first or a later one, while a missing capture is an error naming it. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/export.h"
#include "hwtrace/export_request.h"
#include "hwtrace/stack.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

static char dir[] = "/tmp/hwt-export-request-output.XXXXXX";

static void database_not_replaced_unasked(void)
{
	char there[128], dangling[128], absent[128], msg[512];
	snprintf(there, sizeof(there), "%s/there.db", dir);
	snprintf(dangling, sizeof(dangling), "%s/dangling.db", dir);
	snprintf(absent, sizeof(absent), "%s/absent.db", dir);
	FILE *f = fopen(there, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK_INT(symlink(absent, dangling), 0);
	struct hwt_export_request rq = {.has_format = true,
					.format = HWT_EXPORT_SQLITE,
					.output = there, .ncaptures = 1};

	CHECK_INT(hwt_export_request_output_check(&rq), HWT_ERR_CONFIG);
	snprintf(msg, sizeof(msg), "%s exists: give --replace to replace the "
		 "database, or another -o", there);
	CHECK_STR(hwt_errmsg(), msg);
	rq.output = dangling;
	CHECK_INT(hwt_export_request_output_check(&rq), HWT_ERR_CONFIG);
	rq.output = absent;
	CHECK_INT(hwt_export_request_output_check(&rq), 0);
	/* --replace, a partial (a stream), another format: no refusal. */
	rq.output = there;
	rq.replace = true;
	CHECK_INT(hwt_export_request_output_check(&rq), 0);
	rq.replace = false;
	rq.partial = true;
	CHECK_INT(hwt_export_request_output_check(&rq), 0);
	rq.partial = false;
	rq.format = HWT_EXPORT_PPROF;
	CHECK_INT(hwt_export_request_output_check(&rq), 0);
	unlink(there);
	unlink(dangling);
}

static void request_into_options(void)
{
	struct hwt_export_request rq = {
		.has_format = true, .format = HWT_EXPORT_AUTOFDO,
		.output = "prof", .ncaptures = 2, .replace = true,
	};
	struct hwt_export_opts o = {.size = sizeof(o), .no_labels = true,
				    .all_columns = true, .jobs = 3};

	hwt_export_request_apply(&rq, &o);
	CHECK_INT(o.format, HWT_EXPORT_AUTOFDO);
	CHECK_STR(o.out_prefix, "prof");
	CHECK(o.replace && !o.partial && o.conninfo == NULL);
	/* What the request does not say is left alone. */
	CHECK(o.no_labels && o.all_columns);
	CHECK_INT(o.jobs, 3);
	CHECK_INT(o.size, sizeof(o));

	/* A partial is one stream: no prefix. */
	struct hwt_export_opts p = {.size = sizeof(p)};
	rq.partial = true;
	hwt_export_request_apply(&rq, &p);
	CHECK(p.partial && p.out_prefix == NULL);

	/* One file or a server: no prefix either. */
	struct hwt_export_request pg = {.has_format = true,
					.format = HWT_EXPORT_POSTGRESQL,
					.conninfo = "dbname=x"};
	struct hwt_export_opts q = {.size = sizeof(q)};
	hwt_export_request_apply(&pg, &q);
	CHECK_INT(q.format, HWT_EXPORT_POSTGRESQL);
	CHECK_STR(q.conninfo, "dbname=x");
	CHECK(q.out_prefix == NULL && !q.replace);
	struct hwt_export_request one = {.has_format = true,
					 .format = HWT_EXPORT_PPROF,
					 .output = "p.pb.gz"};
	hwt_export_request_apply(&one, &q);
	CHECK(q.out_prefix == NULL && q.conninfo == NULL);
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

/* A call and its return on thread 3174 of process 3174. */
static void feed(struct hwt_export *ex)
{
	struct hwt_stack_ops ops = hwt_export_ops(ex);
	struct hwt_stack *stack = hwt_stack_new(&ops);
	struct hwt_elem_sink elements = hwt_export_elements(ex);
	struct hwt_elem_sink frames = hwt_stack_sink(stack);
	struct hwt_elem e[3] = {
		{.type = HWT_ELEM_RANGE}, {.type = HWT_ELEM_BRANCH},
		{.type = HWT_ELEM_RANGE},
	};
	e[0].u.range.start = 0x100;
	e[0].u.range.end = 0x110;
	e[0].u.range.insns = 4;
	e[1].u.branch.from = 0x10c;
	e[1].u.branch.to = 0x200;
	e[1].u.branch.kind = HWT_BRANCH_CALL;
	e[2].u.range.start = 0x200;
	e[2].u.range.end = 0x208;
	e[2].u.range.insns = 2;
	for (int i = 0; i < 3; i++) {
		e[i].fields |= HWT_FIELD_PID | HWT_FIELD_TID | HWT_FIELD_TIME |
			       HWT_FIELD_CPU;
		e[i].pid = e[i].tid = 3174;
		e[i].time = 100 + (uint64_t)i;
		CHECK_INT(elements.emit(elements.arg, &e[i]), 0);
		CHECK_INT(frames.emit(frames.arg, &e[i]), 0);
	}
	CHECK_INT(hwt_stack_finish(stack), 0);
	hwt_stack_free(stack);
}

/* The comms of a SQLite export of @path's facts (@later as given, NULL:
 * none) that name "echo". */
static long long echo_comms(const char *path, bool later)
{
	char db_path[160];
	snprintf(db_path, sizeof(db_path), "%s/facts.db", dir);
	struct hwt_export_opts o = {.size = sizeof(o),
				    .format = HWT_EXPORT_SQLITE,
				    .db_path = db_path};
	struct hwt_export *ex = NULL;
	CHECK_INT(hwt_export_new(&o, &ex), 0);
	if (!ex)
		return -1;
	if (path)
		CHECK_INT(hwt_export_capture_file(ex, path, later), 0);
	feed(ex);
	CHECK_INT(hwt_export_finish(ex, true), 0);
	hwt_export_free(ex);
	sqlite3 *db = NULL;
	long long n = -1;
	if (sqlite3_open(db_path, &db) == SQLITE_OK)
		n = count(db, "select count(*) from comms where comm = 'echo'");
	sqlite3_close(db);
	unlink(db_path);
	return n;
}

static void capture_facts_named(void)
{
	char missing[160];
	snprintf(missing, sizeof(missing), "%s/none.data", dir);
	struct hwt_export_opts o = {.size = sizeof(o),
				    .format = HWT_EXPORT_PPROF, .out = stderr};
	struct hwt_export *ex = NULL;
	CHECK_INT(hwt_export_new(&o, &ex), 0);
	if (ex) {
		CHECK(hwt_export_capture_file(ex, missing, false) < 0);
		CHECK_CONTAINS(hwt_errmsg(), missing);
	}
	hwt_export_free(ex);
	/* Control: without the capture nobody is called echo. */
	CHECK_INT(echo_comms(NULL, false), 0);
	CHECK_INT(echo_comms(PT, false), 1);
	CHECK_INT(echo_comms(PT, true), 1);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	RUN(database_not_replaced_unasked);
	RUN(request_into_options);
	RUN(capture_facts_named);
	rmdir(dir);
	return hwt_test_summary();
}
