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
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/export/perfdb.h"
#include "analysis/export/sqlite_rows.h"
#include "analysis/export/sqlite_setup.h"
#include "analysis/export/sqlite_shards.h"
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
	/* The file the rows go to: the export's database, or with
	 * opts.partial a temporary one of our own (@own_file, removed when
	 * freed). */
	char *file;
	bool own_file, all_columns, partial;
	/* The captures ended so far (next_capture): each one's database,
	 * until finish puts them together or keeps them for the partial. */
	struct sqlite_shards shards;
	sqlite3_stmt *st[PT_COUNT];
	struct batch *batch[PT_COUNT]; /* NULL: the table has text */
	uint64_t rows;
};

static int db_error(struct sqlite_db *s, int rc, const char *what)
{
	return hwt_sqlite_error(s->db, s->path, rc, what);
}

static int exec(struct sqlite_db *s, const char *sql)
{
	return hwt_sqlite_exec(s->db, s->path, sql);
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

/* Stores the queued rows and ends the capture's database. */
static int close_capture(struct sqlite_db *s, bool switches)
{
	int err = 0;
	for (int t = 0; !err && t < PT_COUNT; t++)
		if (s->batch[t] && s->batch[t]->rows.n)
			err = flush(s, (enum perfdb_table)t);
	finalize(s);
	if (!err)
		err = hwt_sqlite_tail(s->db, s->path, switches);
	int rc = sqlite3_close(s->db);
	s->db = NULL;
	if (!err && rc != SQLITE_OK)
		err = db_error(s, rc, "close");
	return err;
}

/* Empties the file (an empty file is a new database). */
static int empty_file(struct sqlite_db *s)
{
	FILE *f = fopen(s->file, "wb");
	if (!f || fclose(f))
		return hwt_error(HWT_ERR_IO, "%s: cannot empty it: %s", s->path,
				 strerror(errno));
	return 0;
}

/* The capture's database kept as a shard, the file emptied. */
static int keep_capture(struct sqlite_db *s, bool switches)
{
	int err = close_capture(s, switches);
	if (!err)
		err = sqlite_shards_add_file(&s->shards, s->file);
	return err ? err : empty_file(s);
}

static int sqlite_db_open(struct sqlite_db *s, const char *file,
			  bool all_columns);

static int sqlite_next_capture(void *db, bool switches)
{
	struct sqlite_db *s = db;
	int err = keep_capture(s, switches);
	return err ? err : sqlite_db_open(s, s->file, s->all_columns);
}

/* One capture, not partial: its database is the export's. Several, or a
 * partial: each capture's is kept, and the export's is their numbering
 * into one (sqlite_shards.h), the bytes a merge of the parts gives. */
static int sqlite_finish(void *db, bool switches)
{
	struct sqlite_db *s = db;
	if (!s->shards.n && !s->partial)
		return close_capture(s, switches);
	int err = keep_capture(s, switches);
	sqlite_shards_sort(&s->shards);
	if (!err && !s->partial)
		err = sqlite_shards_write(&s->shards, s->file, s->path);
	return err;
}

static const struct sqlite_shards *sqlite_kept(void *db)
{
	struct sqlite_db *s = db;
	return s->partial ? &s->shards : NULL;
}

static void sqlite_free(void *db)
{
	struct sqlite_db *s = db;
	if (!s)
		return;
	finalize(s);
	if (s->db)
		sqlite3_close(s->db);
	sqlite_shards_free(&s->shards);
	if (s->own_file)
		remove(s->file);
	free(s->file);
	free(s);
}

static const struct perfdb_backend sqlite_backend = {
	.row = sqlite_row,
	.row_ints = sqlite_row_ints,
	.finish = sqlite_finish,
	.free = sqlite_free,
	.next_capture = sqlite_next_capture,
	.shards = sqlite_kept,
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
	int err = hwt_sqlite_create(file, s->path, all_columns, &s->db);
	/* One of the two layouts of samples is the table. */
	enum perfdb_table unused = all_columns ? PT_SAMPLES : PT_SAMPLES_ALL;
	for (int t = 0; !err && t < PT_COUNT; t++)
		if (t != (int)unused)
			err = prepare_table(s, (enum perfdb_table)t);
	return err;
}

/* A partial's captures are written to a temporary file first. */
static int own_temp_file(struct sqlite_db *s)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t size = strlen(dir) + 32;
	s->file = malloc(size);
	if (!s->file)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	snprintf(s->file, size, "%s/hwtrace-sqlite-XXXXXX", dir);
	int fd = mkstemp(s->file);
	if (fd < 0)
		return hwt_error(HWT_ERR_IO, "%s: cannot make a temporary "
				 "database: %s", dir, strerror(errno));
	close(fd);
	s->own_file = true;
	s->path = s->file;
	return 0;
}

int hwt_export_sqlite_open(struct hwt_export *ex)
{
	if (!ex->opts.db_path && !ex->opts.partial)
		return hwt_error(HWT_ERR_INVAL, "sqlite export: no database");
	struct sqlite_db *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->path = ex->opts.db_name ? ex->opts.db_name : ex->opts.db_path;
	s->all_columns = ex->opts.all_columns;
	s->partial = ex->opts.partial;
	int err = 0;
	if (s->partial)
		err = own_temp_file(s);
	else if (!(s->file = strdup(ex->opts.db_path)))
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!err)
		err = sqlite_db_open(s, s->file, ex->opts.all_columns);
	if (err) {
		sqlite_free(s);
		return err;
	}
	return hwt_perfdb_open(ex, &sqlite_backend, s);
}
