/* Queued rows of numbers, read by SQLite as a virtual table
 * (sqlite_rows.c): "INSERT INTO t SELECT ... FROM temp.NAME" stores them
 * all in one step, with no value bound one by one. */
#ifndef HWT_ANALYSIS_EXPORT_SQLITE_ROWS_H
#define HWT_ANALYSIS_EXPORT_SQLITE_ROWS_H

#include <sqlite3.h>
#include <stdint.h>

#define SQLITE_ROWS_BATCH 1024
#define SQLITE_ROWS_MAX_COLUMNS 25

struct sqlite_rows {
	int n;          /* rows queued */
	int cols;       /* columns a row: c0, c1, ... in SQL */
	int64_t v[SQLITE_ROWS_BATCH * SQLITE_ROWS_MAX_COLUMNS];
};

/* Makes @rows readable in @db as the table temp.@name (a module of that
 * name too). @rows must outlive the connection. Returns SQLite's code. */
int hwt_sqlite_rows_table(sqlite3 *db, const char *name,
			  struct sqlite_rows *rows);

#endif
