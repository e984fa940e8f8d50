/* SQLite database for perf's export schema (perfdb.h, sqlite_schema.h):
 * rows go through one prepared statement per table, bound and stepped,
 * in transactions of a million rows, with the journal off: the file is a
 * temporary one the caller renames when the export succeeds. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "analysis/export/sqlite_schema.h"
#include "hwtrace/error.h"

#define ROWS_PER_TRANSACTION 1000000

struct sqlite_db {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *st[PT_COUNT];
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

/* Binds the row and steps; every million rows the transaction is
 * committed and a new one begun. Text is bound without a copy: it
 * lives until the step. */
static int sqlite_row(void *db, enum perfdb_table t,
		      const struct perfdb_val *v)
{
	struct sqlite_db *s = db;
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
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_error(s, rc, "insert");
	if (++s->rows % ROWS_PER_TRANSACTION)
		return 0;
	int err = exec(s, "COMMIT");
	return err ? err : exec(s, "BEGIN");
}

static void finalize(struct sqlite_db *s)
{
	for (int i = 0; i < PT_COUNT; i++) {
		sqlite3_finalize(s->st[i]);
		s->st[i] = NULL;
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
	finalize(s);
	int err = 0;
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
	.finish = sqlite_finish,
	.free = sqlite_free,
};

/* "INSERT INTO t VALUES (?,...)" with a ? per column. */
static int prepare(struct sqlite_db *s, enum perfdb_table t)
{
	char sql[256];
	const struct perfdb_table_info *info = &hwt_perfdb_tables[t];
	int len = snprintf(sql, sizeof(sql), "INSERT INTO %s VALUES (",
			   info->name);
	for (size_t i = 0; info->types[i]; i++)
		len += snprintf(sql + len, sizeof(sql) - (size_t)len, "%s?",
				i ? "," : "");
	snprintf(sql + len, sizeof(sql) - (size_t)len, ")");
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &s->st[t], NULL);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, sql);
}

static int sqlite_db_open(struct sqlite_db *s, const char *file)
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
		"PRAGMA cache_size = -65536",
		"BEGIN",
	};
	int err = 0;
	for (size_t i = 0; !err && i < sizeof(setup) / sizeof(setup[0]); i++)
		err = exec(s, setup[i]);
	size_t n = sizeof(hwt_sqlite_tables) / sizeof(hwt_sqlite_tables[0]);
	for (size_t i = 0; !err && i < n; i++)
		err = exec(s, hwt_sqlite_tables[i]);
	for (int t = 0; !err && t < PT_COUNT; t++)
		err = prepare(s, (enum perfdb_table)t);
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
	int err = sqlite_db_open(s, ex->opts.db_path);
	if (err) {
		sqlite_free(s);
		return err;
	}
	return hwt_perfdb_open(ex, &sqlite_backend, s);
}
