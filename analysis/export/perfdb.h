/* perf's export schema (export-to-sqlite.py, export-to-postgresql.py):
 * the rows perfdb.c makes from the element stream, frames and context
 * switches, and the databases that store them (sqlite.c, postgresql.c). */
#ifndef HWT_ANALYSIS_EXPORT_PERFDB_H
#define HWT_ANALYSIS_EXPORT_PERFDB_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/export/export_internal.h"

struct sqlite_shards;

enum perfdb_table {
	PT_SELECTED_EVENTS, PT_MACHINES, PT_THREADS, PT_COMMS,
	PT_COMM_THREADS, PT_DSOS, PT_SYMBOLS, PT_BRANCH_TYPES, PT_SAMPLES,
	PT_CALL_PATHS, PT_CALLS, PT_CONTEXT_SWITCHES,
	/* The samples table with perf's "all" columns (period, weight,
	 * transaction_, data_src after to_ip): hwt_export_opts.all_columns
	 * writes its rows instead of PT_SAMPLES'. */
	PT_SAMPLES_ALL,
	PT_COUNT
};

/* A table's name and its columns' types, one letter each as perf's
 * PostgreSQL script declares them: q bigint, i integer, b boolean,
 * s varchar. */
struct perfdb_table_info {
	const char *name;
	const char *types;
};

extern const struct perfdb_table_info hwt_perfdb_tables[PT_COUNT];

/* The most columns a table has (samples with every column). */
#define PERFDB_MAX_COLUMNS 25

/* One column's value: text when s is set, SQL NULL when null. */
struct perfdb_val {
	int64_t i;
	const char *s;
	bool null;
};

/* Where the rows go. @db is the database's own state. */
struct perfdb_backend {
	/* One row of @t, every column in order (strlen of its types). */
	int (*row)(void *db, enum perfdb_table t, const struct perfdb_val *v);
	/* Optional: a row of @t whose columns are all numbers, for a table
	 * that only has numbers (NULL: row() takes them). */
	int (*row_ints)(void *db, enum perfdb_table t, const int64_t *v);
	/* After the last row: keys, indexes and views; @switches says
	 * context_switches has rows (perf drops the table when empty). */
	int (*finish)(void *db, bool switches);
	void (*free)(void *db);
	/* Optional (a database that takes several captures): ends the
	 * capture's rows as finish does, and starts the next capture's
	 * database, which gets its rows from the fixed ones on. */
	int (*next_capture)(void *db, bool switches);
	/* Optional: the captures' databases, when the export keeps them
	 * (sqlite_shards.h; NULL otherwise). */
	const struct sqlite_shards *(*shards)(void *db);
};

/* A row of numbers only (@v, every column of @t) to @be: through its
 * row_ints when it has one, else as a row of values. */
int hwt_perfdb_row_of_ints(const struct perfdb_backend *be, void *db,
			   enum perfdb_table t, const int64_t *v);

/* Makes @ex write perf's rows to @db through @be (which then belongs to
 * @ex: freed with it, also when this fails). */
int hwt_perfdb_open(struct hwt_export *ex, const struct perfdb_backend *be,
		    void *db);

/* Puts a thread between perfdb and the database (perfdb_thread.c): rows
 * given to the returned *be and *db are copied and stored by @be on that
 * thread, in order; a failure there is returned by a later row or by
 * finish. When this fails, *db is freed through *be. */
int hwt_perfdb_thread_new(const struct perfdb_backend **be, void **db);

extern const struct export_format hwt_export_perfdb_format;

/* The captures' databases of a finished SQLite export made with
 * opts.partial (sorted), NULL for any other export. */
const struct sqlite_shards *hwt_perfdb_shards(const struct hwt_export *ex);

#endif
