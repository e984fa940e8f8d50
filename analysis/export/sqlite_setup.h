/* The database's set-up and its last statements, shared by the export's
 * own writer (sqlite.c) and the writer that numbers several captures'
 * rows into one database (sqlite_shards.c): both give perf's schema with
 * the same pragmas, so that equal rows make equal files. */
#ifndef HWT_ANALYSIS_EXPORT_SQLITE_SETUP_H
#define HWT_ANALYSIS_EXPORT_SQLITE_SETUP_H

#include <sqlite3.h>
#include <stdbool.h>

/* The library's error for SQLite's code @rc at @what in database @path
 * (@db's message when open): a full disk is HWT_ERR_NOSPC. */
int hwt_sqlite_error(sqlite3 *db, const char *path, int rc, const char *what);

/* Runs @sql on @db (an error naming @path otherwise). */
int hwt_sqlite_exec(sqlite3 *db, const char *path, const char *sql);

/* Opens the new database @file (named @path in messages), refusing one
 * that has tables already, sets the pragmas, creates perf's tables and
 * views (samples with every column when @all_columns) and begins a
 * transaction. *@db is set also on failure (close it). */
int hwt_sqlite_create(const char *file, const char *path, bool all_columns,
		      sqlite3 **db);

/* Commits, adds perf's indexes and comms.has_calls, drops
 * context_switches unless @switches (perf drops the tables it left
 * empty). */
int hwt_sqlite_tail(sqlite3 *db, const char *path, bool switches);

#endif
