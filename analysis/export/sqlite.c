/* SQLite database for perf's export schema (perfdb.h, sqlite_schema.h):
 * rows go through prepared statements in transactions of a million rows,
 * with the journal off: the file is a temporary one the caller renames
 * when the export succeeds.
 *
 * The tables of numbers only (samples, calls: nearly every row) are
 * filled BATCH rows a statement, "INSERT INTO t SELECT ... FROM
 * temp.hwt_t", from a virtual table (hwt_rows) that reads the queued
 * rows where they are: no per-column binding, and a step's set-up and
 * halt once a batch. Their columns that hold a constant or repeat
 * another are in the statement, not read from the rows. Their ids, one
 * more than the row before's, are left to SQLite (NULL): a given id is
 * looked up in the table's tree first, a new one is appended at its end.
 * A row of another shape is inserted alone, after the rows queued before
 * it. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "analysis/export/sqlite_rows.h"
#include "analysis/export/sqlite_schema.h"
#include "hwtrace/error.h"
#include "hwtrace/export.h"

#define ROWS_PER_TRANSACTION 1000000
#define MAX_COLUMNS PERFDB_MAX_COLUMNS
_Static_assert(MAX_COLUMNS <= SQLITE_ROWS_MAX_COLUMNS,
	       "a batch holds rows of every table");

/* The batched rows' shape, a letter a column: '?' from the row, a digit
 * that constant, 'a', 'b', ... the value of column 0, 1, ..., '+' the id
 * one more than the table's last (NULL: SQLite's next). */
static const char *const shapes[PT_COUNT] = {
	/* evsel_id and machine_id 1, comm_id = thread_id, in_tx and
	 * cyc_count 0, flags = branch_type */
	[PT_SAMPLES] = "+11?d???????????0??0p",
	/* The same, with period from the row and weight, transaction_
	 * and data_src 0 after to_ip. */
	[PT_SAMPLES_ALL] = "+11?d???????????000?0??0t",
	/* comm_id = thread_id, cyc_count 0 */
	[PT_CALLS] = "+?b??????????0",
	[PT_CALL_PATHS] = "????",
	[PT_THREADS] = "?????",
	[PT_COMM_THREADS] = "???",
	[PT_CONTEXT_SWITCHES] = "?????????",
};

/* Rows of a numbers-only table waiting for a full batch. */
struct batch {
	struct sqlite_rows rows;
	int cols;
	sqlite3_stmt *st;      /* inserts the queued rows */
	const char *shape;
	/* The largest id given to the table so far; 0 when none (SQLite
	 * then gives 1, as after a row 0). */
	int64_t last_id;
	/* The shape as lists, read once a row: the columns that must be a
	 * constant or equal another; the next-id column (-1: none). */
	uint8_t same_col[MAX_COLUMNS], same_as[MAX_COLUMNS];
	int64_t same_const[MAX_COLUMNS];
	int nsame, id_col;
};

/* Reads the batch's shape into its lists. */
static void compile_shape(struct batch *b)
{
	b->id_col = -1;
	for (int i = 0; i < b->cols; i++) {
		char c = b->shape[i];
		if (c == '+') {
			b->id_col = i;
		} else if (c != '?') {
			/* A digit: that constant; a letter: that column. */
			bool digit = c >= '0' && c <= '9';
			b->same_col[b->nsame] = (uint8_t)i;
			b->same_as[b->nsame] = digit ? UINT8_MAX : (uint8_t)(c - 'a');
			b->same_const[b->nsame] = digit ? c - '0' : 0;
			b->nsame++;
		}
	}
}

static bool fits(const struct batch *b, const int64_t *v)
{
	if (b->id_col >= 0 && v[b->id_col] != b->last_id + 1)
		return false;
	for (int k = 0; k < b->nsame; k++) {
		uint8_t as = b->same_as[k];
		int64_t want = as == UINT8_MAX ? b->same_const[k] : v[as];
		if (v[b->same_col[k]] != want)
			return false;
	}
	return true;
}

struct sqlite_db {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *st[PT_COUNT];
	struct batch *batch[PT_COUNT]; /* NULL: the table has text */
	uint64_t rows;
};

/* The library's error for SQLite's: a full disk is HWT_ERR_NOSPC. */
static int db_error(struct sqlite_db *s, int rc, const char *what)
{
	int err = rc == SQLITE_FULL ? HWT_ERR_NOSPC : HWT_ERR_IO;
	return hwt_error(err, "%s: %s: %s", s->path, what,
			 s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
}

static int exec(struct sqlite_db *s, const char *sql)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, sql);
}

static int step(struct sqlite_db *s, sqlite3_stmt *st, uint64_t rows)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_error(s, rc, "insert");
	uint64_t before = s->rows / ROWS_PER_TRANSACTION;
	s->rows += rows;
	if (s->rows / ROWS_PER_TRANSACTION == before)
		return 0;
	int err = exec(s, "COMMIT");
	return err ? err : exec(s, "BEGIN");
}

/* Inserts the batch's queued rows. */
static int flush(struct sqlite_db *s, enum perfdb_table t)
{
	struct batch *b = s->batch[t];
	int err = step(s, b->st, (uint64_t)b->rows.n);
	b->rows.n = 0;
	return err;
}

/* Inserts one row of @t alone, with the table's one-row statement. Text
 * is bound without a copy: it lives until the step. */
static int insert_alone(struct sqlite_db *s, enum perfdb_table t,
			const struct perfdb_val *v)
{
	sqlite3_stmt *st = s->st[t];
	int n = (int)strlen(hwt_perfdb_tables[t].types);
	for (int i = 0; i < n; i++) {
		if (v[i].s)
			sqlite3_bind_text(st, i + 1, v[i].s, -1, SQLITE_STATIC);
		else if (v[i].null)
			sqlite3_bind_null(st, i + 1);
		else
			sqlite3_bind_int64(st, i + 1, v[i].i);
	}
	return step(s, st, 1);
}

/* A row of @b's table, whose first column is its id: queued in the batch
 * when it has the batch's shape, else inserted alone after the rows
 * queued before it (@v, or @ints when every column is a number). */
static int batch_row(struct sqlite_db *s, enum perfdb_table t,
		     struct batch *b, const struct perfdb_val *v,
		     const int64_t *ints)
{
	bool batched = ints && fits(b, ints);
	int64_t id = ints ? ints[0] : v[0].i;
	if (id > b->last_id)
		b->last_id = id;
	if (batched) {
		memcpy(b->rows.v + b->rows.n * b->cols, ints,
		       (size_t)b->cols * sizeof(*ints));
		return ++b->rows.n == SQLITE_ROWS_BATCH ? flush(s, t) : 0;
	}
	int err = b->rows.n ? flush(s, t) : 0;
	if (err || v)
		return err ? err : insert_alone(s, t, v);
	sqlite3_stmt *st = s->st[t];
	for (int i = 0; i < b->cols; i++)
		sqlite3_bind_int64(st, i + 1, ints[i]);
	return step(s, st, 1);
}

/* Any row (perfdb's row); every million rows the transaction is
 * committed and a new one begun (step). A row of a batched table with
 * text or NULL in it goes alone, bound as it is. */
static int sqlite_row(void *db, enum perfdb_table t,
		      const struct perfdb_val *v)
{
	struct sqlite_db *s = db;
	struct batch *b = s->batch[t];
	if (!b)
		return insert_alone(s, t, v);
	int64_t ints[MAX_COLUMNS];
	bool numbers = true;
	for (int i = 0; i < b->cols; i++) {
		numbers = numbers && !v[i].s && !v[i].null;
		ints[i] = v[i].i;
	}
	return numbers ? batch_row(s, t, b, NULL, ints)
		       : batch_row(s, t, b, v, NULL);
}

/* A row of a numbers-only table (perfdb's row_ints). */
static int sqlite_row_ints(void *db, enum perfdb_table t, const int64_t *v)
{
	struct sqlite_db *s = db;
	if (s->batch[t])
		return batch_row(s, t, s->batch[t], NULL, v);
	/* A table without a batch: as any row. */
	static const struct perfdb_backend as_rows = {.row = sqlite_row};
	return hwt_perfdb_row_of_ints(&as_rows, db, t, v);
}

static void finalize(struct sqlite_db *s)
{
	for (int i = 0; i < PT_COUNT; i++) {
		sqlite3_finalize(s->st[i]);
		s->st[i] = NULL;
		if (s->batch[i]) {
			sqlite3_finalize(s->batch[i]->st);
			free(s->batch[i]);
			s->batch[i] = NULL;
		}
	}
}

static int sqlite_finish(void *db, bool switches)
{
	struct sqlite_db *s = db;
	static const char *const tail[] = {
		"COMMIT",
		"CREATE INDEX pcpid_idx ON calls (parent_call_path_id)",
		"CREATE INDEX pid_idx ON calls (parent_id)",
		"ALTER TABLE comms ADD has_calls boolean",
		/* One literal: clang warns of joined ones in an array. */
		"UPDATE comms SET has_calls = 1 WHERE comms.id IN (SELECT DISTINCT comm_id FROM calls)",
		/* perf drops the tables it left empty. */
		"DROP VIEW context_switches_view",
		"DROP TABLE context_switches",
	};
	size_t n = sizeof(tail) / sizeof(tail[0]) - (switches ? 2 : 0);
	int err = 0;
	for (int t = 0; !err && t < PT_COUNT; t++)
		if (s->batch[t] && s->batch[t]->rows.n)
			err = flush(s, (enum perfdb_table)t);
	finalize(s);
	for (size_t i = 0; !err && i < n; i++)
		err = exec(s, tail[i]);
	int rc = sqlite3_close(s->db);
	s->db = NULL;
	if (!err && rc != SQLITE_OK)
		err = db_error(s, rc, "close");
	return err;
}

static void sqlite_free(void *db)
{
	struct sqlite_db *s = db;
	if (!s)
		return;
	finalize(s);
	if (s->db)
		sqlite3_close(s->db);
	free(s);
}

static const struct perfdb_backend sqlite_backend = {
	.row = sqlite_row,
	.row_ints = sqlite_row_ints,
	.finish = sqlite_finish,
	.free = sqlite_free,
};

/* "INSERT INTO t VALUES (?1,...)": one row, every column bound. */
static int prepare_one(struct sqlite_db *s, enum perfdb_table t,
		       sqlite3_stmt **st)
{
	const struct perfdb_table_info *info = &hwt_perfdb_tables[t];
	char sql[64 + MAX_COLUMNS * 5];
	int len = snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES (",
			   info->name);
	for (size_t i = 0; info->types[i]; i++)
		len += snprintf(sql + len, sizeof(sql) - (size_t)len, "%s?",
				i ? "," : "");
	len += snprintf(sql + len, sizeof(sql) - (size_t)len, ")");
	int rc = sqlite3_prepare_v2(s->db, sql, len, st, NULL);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, "prepare");
}

/* The batch's queued rows as the virtual table temp.hwt_TABLE, and the
 * statement that inserts them: "INSERT INTO t SELECT NULL,1,c2,c2,..."
 * after the shape. */
static int prepare_batch(struct sqlite_db *s, enum perfdb_table t,
			 struct batch *b)
{
	const char *name = hwt_perfdb_tables[t].name;
	char rows[64], sql[128 + MAX_COLUMNS * 8];
	snprintf(rows, sizeof(rows), "hwt_%s", name);
	int rc = hwt_sqlite_rows_table(s->db, rows, &b->rows);
	if (rc != SQLITE_OK)
		return db_error(s, rc, "the rows' virtual table");
	int len = snprintf(sql, sizeof(sql), "INSERT INTO %s SELECT ", name);
	for (int i = 0; i < b->cols; i++) {
		char c = b->shape[i];
		const char *sep = i ? "," : "";
		if (c >= '0' && c <= '9')
			len += snprintf(sql + len, sizeof(sql) - (size_t)len,
					"%s%c", sep, c);
		else if (c == '+')
			len += snprintf(sql + len, sizeof(sql) - (size_t)len,
					"%sNULL", sep);
		else
			len += snprintf(sql + len, sizeof(sql) - (size_t)len,
					"%sc%d", sep, c == '?' ? i : c - 'a');
	}
	len += snprintf(sql + len, sizeof(sql) - (size_t)len, " FROM temp.%s",
			rows);
	rc = sqlite3_prepare_v2(s->db, sql, len, &b->st, NULL);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, "prepare");
}

static int prepare_table(struct sqlite_db *s, enum perfdb_table t)
{
	int err = prepare_one(s, t, &s->st[t]);
	if (err || !shapes[t])
		return err;
	struct batch *b = calloc(1, sizeof(*b));
	if (!b)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->batch[t] = b;
	b->shape = shapes[t];
	b->cols = (int)strlen(hwt_perfdb_tables[t].types);
	b->rows.cols = b->cols;
	compile_shape(b);
	return prepare_batch(s, t, b);
}

int hwt_export_sqlite_quiet_memory(void)
{
	if (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK)
		return hwt_error(HWT_ERR_NOSUP, "SQLite is already initialised "
				 "in this process: its memory statistics stay on");
	return 0;
}

static int sqlite_db_open(struct sqlite_db *s, const char *file,
			  bool all_columns)
{
	int rc = sqlite3_open_v2(file, &s->db,
				 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
					 SQLITE_OPEN_NOMUTEX, /* one thread */
				 NULL);
	if (rc != SQLITE_OK)
		return db_error(s, rc, "cannot open the database");
	sqlite3_stmt *st;
	rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_error(s, rc, "not an SQLite database");
	rc = sqlite3_step(st);
	int64_t objects = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_error(s, rc, "not an SQLite database");
	if (objects)
		return hwt_error(HWT_ERR_CONFIG, "%s: the database already has "
				 "%" PRId64 " tables, views or indexes: export "
				 "into a new file", s->path, objects);
	/* Nobody else opens the temporary file: no journal, no syncs, no
	 * locking; 64 KiB pages (fewer B-tree levels and writes) and 64 MiB
	 * of page cache keep the tables' growing pages in memory between
	 * commits. */
	static const char *const setup[] = {
		"PRAGMA page_size = 65536",
		"PRAGMA journal_mode = OFF",
		"PRAGMA synchronous = OFF",
		"PRAGMA locking_mode = EXCLUSIVE",
		"PRAGMA cache_size = -8192",
		/* The rows' virtual tables are in temp: no file for them. */
		"PRAGMA temp_store = MEMORY",
		"BEGIN",
	};
	int err = 0;
	for (size_t i = 0; !err && i < sizeof(setup) / sizeof(setup[0]); i++)
		err = exec(s, setup[i]);
	size_t n = sizeof(hwt_sqlite_tables) / sizeof(hwt_sqlite_tables[0]);
	for (size_t i = 0; !err && i < n; i++)
		err = exec(s, all_columns && hwt_sqlite_tables[i] ==
					     hwt_sqlite_samples_branches
				      ? hwt_sqlite_samples_all
				      : hwt_sqlite_tables[i]);
	/* One of the two layouts of samples is the table. */
	enum perfdb_table unused = all_columns ? PT_SAMPLES : PT_SAMPLES_ALL;
	for (int t = 0; !err && t < PT_COUNT; t++)
		if (t != (int)unused)
			err = prepare_table(s, (enum perfdb_table)t);
	return err;
}

int hwt_export_sqlite_open(struct hwt_export *ex)
{
	if (!ex->opts.db_path)
		return hwt_error(HWT_ERR_INVAL, "sqlite export: no database");
	struct sqlite_db *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->path = ex->opts.db_name ? ex->opts.db_name : ex->opts.db_path;
	int err = sqlite_db_open(s, ex->opts.db_path, ex->opts.all_columns);
	if (err) {
		sqlite_free(s);
		return err;
	}
	return hwt_perfdb_open(ex, &sqlite_backend, s);
}
