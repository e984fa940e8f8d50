/* The set-up and the tail of a database in perf's schema (sqlite_setup.h). */
#include <inttypes.h>
#include <stdio.h>

#include "analysis/export/sqlite_schema.h"
#include "analysis/export/sqlite_setup.h"
#include "hwtrace/error.h"

int hwt_sqlite_error(sqlite3 *db, const char *path, int rc, const char *what)
{
	int err = rc == SQLITE_FULL ? HWT_ERR_NOSPC : HWT_ERR_IO;
	return hwt_error(err, "%s: %s: %s", path, what,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

int hwt_sqlite_exec(sqlite3 *db, const char *path, const char *sql)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : hwt_sqlite_error(db, path, rc, sql);
}

int hwt_sqlite_create(const char *file, const char *path, bool all_columns,
		      sqlite3 **db)
{
	int rc = sqlite3_open_v2(file, db,
				 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
					 SQLITE_OPEN_NOMUTEX, /* one thread */
				 NULL);
	if (rc != SQLITE_OK)
		return hwt_sqlite_error(*db, path, rc,
					"cannot open the database");
	sqlite3_stmt *st;
	rc = sqlite3_prepare_v2(*db, "SELECT count(*) FROM sqlite_master",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return hwt_sqlite_error(*db, path, rc, "not an SQLite database");
	rc = sqlite3_step(st);
	int64_t objects = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return hwt_sqlite_error(*db, path, rc, "not an SQLite database");
	if (objects)
		return hwt_error(HWT_ERR_CONFIG, "%s: the database already has "
				 "%" PRId64 " tables, views or indexes: export "
				 "into a new file", path, objects);
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
		err = hwt_sqlite_exec(*db, path, setup[i]);
	size_t n = sizeof(hwt_sqlite_tables) / sizeof(hwt_sqlite_tables[0]);
	for (size_t i = 0; !err && i < n; i++)
		err = hwt_sqlite_exec(*db, path,
				      all_columns && hwt_sqlite_tables[i] ==
						     hwt_sqlite_samples_branches
					      ? hwt_sqlite_samples_all
					      : hwt_sqlite_tables[i]);
	return err;
}

int hwt_sqlite_tail(sqlite3 *db, const char *path, bool switches)
{
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
	for (size_t i = 0; !err && i < n; i++)
		err = hwt_sqlite_exec(db, path, tail[i]);
	return err;
}
