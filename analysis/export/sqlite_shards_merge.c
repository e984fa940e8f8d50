/* Several captures' databases numbered into one (sqlite_shards.h), in
 * the shards' order: each capture's threads, comms, samples, calls and
 * context switches after the previous capture's (their ids moved up by
 * the largest the previous captures used), and one table of binaries,
 * symbols and call paths for all, each entry numbered where it is first
 * seen (binaries by path, symbols by binary and name, call paths by
 * caller, symbol and address), as one export numbers them across the
 * threads of its capture. The statements, the transactions (one a
 * capture) and the pragmas are fixed, so the same shards give the same
 * file.
 *
 * A shard is read where it lies in memory (sqlite3_deserialize into an
 * attached schema, "s"); the maps from a shard's ids to the database's
 * are temporary tables, read by the copying statements. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "analysis/export/sqlite_setup.h"
#include "analysis/export/sqlite_shards.h"
#include "analysis/util/strmap.h"
#include "hwtrace/error.h"

int sqlite_shards_merge_write(const struct sqlite_shards *l, const char *file,
			      const char *name);

/* How each column of a copied table is renumbered, a letter a column:
 * '-' kept, 'U' a thread or comm id (one numbering: a comm's id is its
 * thread's), 'S' a sample id, 'K' a call id, 'W' a context switch id
 * (these four moved up past the previous captures' when not 0), 'D' a
 * binary, 'Y' a symbol, 'C' a call path (through the capture's map). */
struct copied_table {
	enum perfdb_table table; /* its columns: perfdb.c's */
	const char *columns;
};

static const struct copied_table copied[] = {
	{PT_THREADS, "U-U--"},
	{PT_COMMS, "U-U--"}, /* has_calls is added at the end */
	{PT_COMM_THREADS, "UUU"},
	{PT_SAMPLES, "S--UUDY----DY----C---"},
	{PT_CALLS, "KUUC---SSC-K--"},
	{PT_CONTEXT_SWITCHES, "W---UUUU-"},
};

/* samples with perf's "all" columns: period, weight, transaction_ and
 * data_src after to_ip. */
static const struct copied_table samples_all = {
	PT_SAMPLES_ALL, "S--UUDY----DY--" "----" "--C---",
};

enum offset { OFF_U, OFF_S, OFF_K, OFF_W, OFF_COUNT };

/* A capture's ids of one table mapped to the database's. */
struct id_map {
	int64_t *v;
	int64_t max;   /* the largest id of the shard's table */
	bool identity; /* every id maps to itself (map_store says) */
};

struct merger {
	sqlite3 *db;
	const char *name;
	bool all_columns;
	int64_t offset[OFF_COUNT];
	/* Every capture's, by key: v[0] the database's id. */
	struct hwt_strmap dsos, symbols, paths;
	struct id_map dso, sym, path;
};

static int fail(struct merger *m, int rc, const char *what)
{
	return hwt_sqlite_error(m->db, m->name, rc, what);
}

static int exec(struct merger *m, const char *sql)
{
	return hwt_sqlite_exec(m->db, m->name, sql);
}

static int prepare(struct merger *m, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(m->db, sql, -1, st, NULL);
	return rc == SQLITE_OK ? 0 : fail(m, rc, sql);
}

/* The single number @sql selects (0 for NULL). */
static int query_int(struct merger *m, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int err = prepare(m, sql, &st);
	if (err)
		return err;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(m, rc, sql);
}

/* Whether the shard in "s" is an export's database: its tables, and the
 * samples layout (21 or 25 columns). */
static int shard_layout(struct merger *m, size_t k, bool *all_columns)
{
	int64_t tables = 0, columns = 0;
	int err = query_int(m, "SELECT count(*) FROM s.sqlite_master WHERE "
			    "type = 'table' AND name IN ('selected_events', "
			    "'machines', 'threads', 'comms', 'comm_threads', "
			    "'dsos', 'symbols', 'branch_types', 'samples', "
			    "'call_paths', 'calls')", &tables);
	if (!err)
		err = tables == 11 ? query_int(m, "SELECT count(*) FROM "
					       "pragma_table_info('samples', 's')",
					       &columns)
				   : hwt_error(HWT_ERR_FORMAT, "%s: capture %zu "
					       "of the parts is not a database "
					       "of hwtrace export --to sqlite",
					       m->name, k + 1);
	if (err)
		return err;
	if (columns != 21 && columns != 25)
		return hwt_error(HWT_ERR_FORMAT, "%s: capture %zu has a samples "
				 "table of %" PRId64 " columns (an export's has "
				 "21, or 25 with --columns all)", m->name,
				 k + 1, columns);
	*all_columns = columns == 25;
	return 0;
}

/* Attaches the database @bytes (inflated from shard @s, alive until
 * detached) as "s". */
static int attach(struct merger *m, const struct sqlite_shard *s,
		  unsigned char *bytes, size_t k)
{
	int err = exec(m, "ATTACH ':memory:' AS s");
	if (err)
		return err;
	/* Read-only: SQLite reads the bytes where they are. */
	int rc = sqlite3_deserialize(m->db, "s", bytes, (sqlite3_int64)s->size,
				     (sqlite3_int64)s->size,
				     SQLITE_DESERIALIZE_READONLY);
	if (rc != SQLITE_OK)
		return fail(m, rc, "reading a capture's database");
	bool all = false;
	err = shard_layout(m, k, &all);
	if (!err && k == 0)
		m->all_columns = all;
	else if (!err && all != m->all_columns)
		err = hwt_error(HWT_ERR_FORMAT, "%s: the captures' samples "
				"have different columns (--columns all and "
				"branches): export them alike", m->name);
	return err;
}

/* Sizes @map for the shard table @table's ids, all 0 (unknown). */
static int map_new(struct merger *m, struct id_map *map, const char *table)
{
	char sql[96];
	snprintf(sql, sizeof(sql), "SELECT max(id) FROM s.%s", table);
	free(map->v);
	map->v = NULL;
	int64_t rows = 0;
	int err = query_int(m, sql, &map->max);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM s.%s", table);
	if (!err)
		err = query_int(m, sql, &rows);
	if (err)
		return err;
	/* An export numbers these rows 0, 1, 2, ... (call paths from the
	 * root, 1): a larger id is not an export's, and would size the map
	 * by it. */
	if (map->max < 0 || map->max > rows)
		return hwt_error(HWT_ERR_FORMAT, "%s: a capture's %s has id "
				 "%" PRId64 " in %" PRId64 " rows: not a database "
				 "of hwtrace export", m->name, table, map->max,
				 rows);
	map->v = calloc((size_t)map->max + 1, sizeof(*map->v));
	return map->v ? 0 : hwt_error(HWT_ERR_NOMEM, "out of memory");
}

static int64_t mapped(const struct id_map *map, int64_t id)
{
	return id >= 0 && id <= map->max ? map->v[id] : 0;
}

/* The map as the temporary table temp.@table (old, new); whether it is
 * the identity. */
static int map_store(struct merger *m, struct id_map *map, const char *table)
{
	map->identity = true;
	for (int64_t id = 0; id <= map->max; id++)
		map->identity = map->identity && map->v[id] == id;
	char sql[128];
	snprintf(sql, sizeof(sql), "DELETE FROM temp.%s", table);
	int err = exec(m, sql);
	snprintf(sql, sizeof(sql), "INSERT INTO temp.%s VALUES (?, ?)", table);
	sqlite3_stmt *st = NULL;
	if (!err)
		err = prepare(m, sql, &st);
	for (int64_t id = 0; !err && id <= map->max; id++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, map->v[id]);
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			err = fail(m, rc, "a map of ids");
	}
	sqlite3_finalize(st);
	return err;
}

/* The database's id for @key (v[0] of @keys), a new one after *@last
 * when new; *@created says so. */
static int key_id(struct hwt_strmap *keys, const char *key, size_t len,
		  int64_t *last, int64_t *id, bool *created)
{
	struct hwt_strmap_entry *e = hwt_strmap_get(keys, key, len);
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	*created = !e->v[0];
	if (*created)
		e->v[0] = (uint64_t)++*last;
	*id = (int64_t)e->v[0];
	return 0;
}

/* The key of a shared table's row, from the row, the database's id of
 * the row its ref column names and that of its parent. */
typedef size_t (*key_fn)(sqlite3_stmt *row, int64_t ref_id, int64_t parent,
			 char *key, size_t size);

/* A table of rows all the captures share (dsos, symbols, call_paths). */
struct shared_table {
	const char *name;
	int64_t first_id; /* the shard's rows from this id on are mapped */
	int ref;          /* the column naming a row of another shared table
			   * (-1 none) */
	int parent;       /* the column naming a row of this one (-1 none) */
	key_fn key_of;
};

/* Copies the current row of @from into @to, its id replaced by @id, its
 * ref column by @ref_id and its parent column by @parent. */
static int copy_row(struct merger *m, const struct shared_table *t,
		    sqlite3_stmt *from, sqlite3_stmt *to, int64_t id,
		    int64_t ref_id, int64_t parent)
{
	int n = sqlite3_column_count(from);
	for (int i = 0; i < n; i++) {
		if (i == 0)
			sqlite3_bind_int64(to, 1, id);
		else if (i == t->ref)
			sqlite3_bind_int64(to, i + 1, ref_id);
		else if (i == t->parent)
			sqlite3_bind_int64(to, i + 1, parent);
		else
			sqlite3_bind_value(to, i + 1, sqlite3_column_value(from, i));
	}
	int rc = sqlite3_step(to);
	sqlite3_reset(to);
	return rc == SQLITE_DONE ? 0 : fail(m, rc, "insert");
}

/* The shard's rows of @t, in the order of their ids, each mapped (@map)
 * to the database's row of its key in @keys, inserted when new (its id
 * one past *@last). The ref column maps through @ref_map, the parent
 * through @map itself (a parent's id is below its children's). */
static int map_shared(struct merger *m, const struct shared_table *t,
		      struct hwt_strmap *keys, int64_t *last, struct id_map *map,
		      const struct id_map *ref_map)
{
	char sql[128];
	const char *table = t->name;
	snprintf(sql, sizeof(sql), "SELECT * FROM s.%s WHERE id >= %" PRId64
		 " ORDER BY id", table, t->first_id);
	sqlite3_stmt *from = NULL, *to = NULL;
	int err = prepare(m, sql, &from);
	int cols = from ? sqlite3_column_count(from) : 0;
	int len = snprintf(sql, sizeof(sql), "INSERT INTO main.%s VALUES (?",
			   table);
	for (int i = 1; i < cols; i++)
		len += snprintf(sql + len, sizeof(sql) - (size_t)len, ",?");
	snprintf(sql + len, sizeof(sql) - (size_t)len, ")");
	if (!err)
		err = prepare(m, sql, &to);
	int rc = SQLITE_DONE;
	while (!err && (rc = sqlite3_step(from)) == SQLITE_ROW) {
		int64_t old = sqlite3_column_int64(from, 0);
		int64_t ref_id = t->ref >= 0 ? mapped(ref_map,
					sqlite3_column_int64(from, t->ref)) : 0;
		int64_t parent = t->parent >= 0 ? mapped(map,
					sqlite3_column_int64(from, t->parent)) : 0;
		char key[4096];
		size_t klen = t->key_of(from, ref_id, parent, key, sizeof(key));
		int64_t id = 0;
		bool created = false;
		err = key_id(keys, key, klen, last, &id, &created);
		if (!err && created)
			err = copy_row(m, t, from, to, id, ref_id, parent);
		if (!err && old >= 0 && old <= map->max)
			map->v[old] = id;
	}
	if (!err && rc != SQLITE_DONE)
		err = fail(m, rc, table);
	sqlite3_finalize(from);
	sqlite3_finalize(to);
	return err;
}

static size_t text_len(size_t n, size_t size)
{
	return n < size ? n : size - 1;
}

/* A binary: its path. */
static size_t dso_key(sqlite3_stmt *row, int64_t ref_id, int64_t parent,
		      char *key, size_t size)
{
	(void)ref_id;
	(void)parent;
	const unsigned char *path = sqlite3_column_text(row, 3);
	return text_len((size_t)snprintf(key, size, "%s", path ? (const char *)path : ""),
			size);
}

/* A symbol: its binary (the database's id) and name. */
static size_t symbol_key(sqlite3_stmt *row, int64_t dso, int64_t parent,
			 char *key, size_t size)
{
	(void)parent;
	const unsigned char *name = sqlite3_column_text(row, 5);
	return text_len((size_t)snprintf(key, size, "%" PRId64 ":%s", dso,
					 name ? (const char *)name : ""),
			size);
}

/* A call path: its caller, symbol (the database's ids) and address. */
static size_t path_key(sqlite3_stmt *row, int64_t sym, int64_t parent,
		       char *key, size_t size)
{
	return text_len((size_t)snprintf(key, size, "%" PRIx64 ":%" PRIx64
					 ":%" PRIx64, (uint64_t)parent,
					 (uint64_t)sym,
					 (uint64_t)sqlite3_column_int64(row, 3)),
			size);
}

static int map_shared_tables(struct merger *m, bool first)
{
	/* The rows perf writes first (id 0, the call tree's root) are the
	 * first capture's, and each capture's map to them. */
	int err = map_new(m, &m->dso, "dsos");
	if (!err)
		err = map_new(m, &m->sym, "symbols");
	if (!err)
		err = map_new(m, &m->path, "call_paths");
	if (err)
		return err;
	if (m->path.max >= 1)
		m->path.v[1] = 1;
	if (first)
		err = exec(m, "INSERT INTO main.dsos SELECT * FROM s.dsos WHERE id = 0");
	if (!err && first)
		err = exec(m, "INSERT INTO main.symbols SELECT * FROM s.symbols WHERE id = 0");
	if (!err && first)
		err = exec(m, "INSERT INTO main.call_paths SELECT * FROM s.call_paths WHERE id <= 1 ORDER BY id");
	/* dsos: id, machine_id, short_name, long_name, build_id; symbols:
	 * id, dso_id, ...; call_paths: id, parent_id, symbol_id, ip. */
	static const struct shared_table dsos_table = {"dsos", 1, -1, -1, dso_key},
		symbols_table = {"symbols", 1, 1, -1, symbol_key},
		paths_table = {"call_paths", 2, 2, 1, path_key};
	int64_t dsos = (int64_t)m->dsos.n, symbols = (int64_t)m->symbols.n;
	int64_t paths = (int64_t)m->paths.n + 1; /* the root is 1 */
	if (!err)
		err = map_shared(m, &dsos_table, &m->dsos, &dsos, &m->dso, NULL);
	if (!err)
		err = map_shared(m, &symbols_table, &m->symbols, &symbols,
				 &m->sym, &m->dso);
	if (!err)
		err = map_shared(m, &paths_table, &m->paths, &paths, &m->path,
				 &m->sym);
	if (!err)
		err = map_store(m, &m->dso, "hwt_map_dso");
	if (!err)
		err = map_store(m, &m->sym, "hwt_map_sym");
	if (!err)
		err = map_store(m, &m->path, "hwt_map_path");
	return err;
}

/* Whether column @kind (copied's letters) keeps its values: an offset
 * of 0 or a map that is the identity (the first capture's, mostly). */
static bool column_kept(const struct merger *m, char kind)
{
	const char *off = kind != '-' ? strchr("USKW", kind) : NULL;
	if (off)
		return m->offset[off - "USKW"] == 0;
	return kind == 'D'   ? m->dso.identity
	       : kind == 'Y' ? m->sym.identity
	       : kind == 'C' ? m->path.identity
			     : true;
}

/* The expression that renumbers column @name (@kind, copied's letters).
 * The name is the shard's: quoted, so that no name of a damaged or
 * crafted part is read as SQL. */
static int column_sql(const struct merger *m, char kind, const char *name,
		      char *out, size_t size)
{
	static const char *const maps[] = {"hwt_map_dso", "hwt_map_sym",
					   "hwt_map_path"};
	char col[256];
	sqlite3_snprintf((int)sizeof(col), col, "\"%w\"", name ? name : "");
	if (column_kept(m, kind))
		return snprintf(out, size, "x.%s", col);
	const char *found = strchr("USKW", kind);
	if (found)
		return snprintf(out, size, "CASE WHEN x.%s > 0 THEN x.%s + %"
				PRId64 " ELSE x.%s END", col, col,
				m->offset[found - "USKW"], col);
	found = strchr("DYC", kind);
	return snprintf(out, size, "(SELECT new FROM temp.%s WHERE old = x.%s)",
			maps[found - "DYC"], col);
}

/* Copies the shard's rows of @t, renumbered, in the order of their ids;
 * the first capture's row 0 too. */
static int copy_table(struct merger *m, const struct copied_table *t,
		      bool first)
{
	if (m->all_columns && t->table == PT_SAMPLES)
		t = &samples_all;
	const char *name = hwt_perfdb_tables[t->table].name;
	const char *kinds = t->columns;
	int cols = (int)strlen(kinds);
	if (cols != (int)strlen(hwt_perfdb_tables[t->table].types))
		return hwt_error(HWT_ERR_INVAL, "%s: the renumbering of %s "
				 "does not have its columns", m->name, name);
	char sql[4096];
	snprintf(sql, sizeof(sql), "SELECT * FROM s.%s", name);
	sqlite3_stmt *names;
	int err = prepare(m, sql, &names);
	if (err)
		return err;
	int have = sqlite3_column_count(names);
	bool kept = first && have == cols;
	for (int i = 0; kept && i < cols; i++)
		kept = column_kept(m, kinds[i]);
	/* The first capture's rows as they are (every one, row 0 too):
	 * SQLite copies them without reading them ("INSERT INTO t SELECT *
	 * FROM t2", its transfer of a table). */
	if (kept) {
		sqlite3_finalize(names);
		snprintf(sql, sizeof(sql), "INSERT INTO main.%s SELECT * FROM s.%s",
			 name, name);
		return exec(m, sql);
	}
	int len = snprintf(sql, sizeof(sql), "INSERT INTO main.%s SELECT ",
			   name);
	if (have < cols)
		err = hwt_error(HWT_ERR_FORMAT, "%s: a capture's %s has %d "
				"columns, not %d", m->name, name, have, cols);
	for (int i = 0; !err && i < cols; i++) {
		if (i)
			len += snprintf(sql + len, sizeof(sql) - (size_t)len, ",");
		len += column_sql(m, kinds[i], sqlite3_column_name(names, i),
				  sql + len, sizeof(sql) - (size_t)len);
	}
	sqlite3_finalize(names);
	snprintf(sql + len, sizeof(sql) - (size_t)len, " FROM s.%s AS x WHERE "
		 "x.id %s 0 ORDER BY x.id", name, first ? ">=" : ">");
	return err ? err : exec(m, sql);
}

static int has_table(struct merger *m, const char *schema, const char *name,
		     bool *has)
{
	char sql[160];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s.sqlite_master "
		 "WHERE type = 'table' AND name = '%s'", schema, name);
	int64_t n = 0;
	int err = query_int(m, sql, &n);
	*has = n != 0;
	return err;
}

/* The largest id of the shard's @table, added to the offset @o. */
static int advance(struct merger *m, enum offset o, const char *table,
		   const char *other)
{
	char sql[160];
	snprintf(sql, sizeof(sql), "SELECT max(coalesce((SELECT max(id) FROM "
		 "s.%s), 0), coalesce((SELECT max(id) FROM s.%s), 0))", table,
		 other);
	int64_t n = 0;
	int err = query_int(m, sql, &n);
	m->offset[o] += n;
	return err;
}

/* Numbers capture @k's rows (shard @s, inflated to @bytes, freed here)
 * into the database. */
static int merge_capture(struct merger *m, const struct sqlite_shard *s,
			 unsigned char *bytes, size_t k)
{
	bool first = k == 0;
	int err = attach(m, s, bytes, k);
	if (!err)
		err = exec(m, "BEGIN");
	/* The event, the machines and the branch types are the first
	 * capture's. */
	static const char *const fixed[] = {
		"INSERT INTO main.selected_events SELECT * FROM s.selected_events ORDER BY id",
		"INSERT INTO main.machines SELECT * FROM s.machines ORDER BY id",
		"INSERT INTO main.branch_types SELECT * FROM s.branch_types ORDER BY id",
	};
	for (size_t i = 0; first && !err && i < 3; i++)
		err = exec(m, fixed[i]);
	if (!err)
		err = map_shared_tables(m, first);
	size_t n = sizeof(copied) / sizeof(copied[0]);
	for (size_t i = 0; !err && i < n; i++) {
		bool has = true;
		/* An export drops context_switches when it has none. */
		if (copied[i].table == PT_CONTEXT_SWITCHES)
			err = has_table(m, "s", "context_switches", &has);
		if (!err && has)
			err = copy_table(m, &copied[i], first);
	}
	bool switches = false;
	if (!err)
		err = has_table(m, "s", "context_switches", &switches);
	if (!err)
		err = advance(m, OFF_U, "threads", "comms");
	if (!err)
		err = advance(m, OFF_S, "samples", "samples");
	if (!err)
		err = advance(m, OFF_K, "calls", "calls");
	if (!err && switches)
		err = advance(m, OFF_W, "context_switches", "context_switches");
	if (!err)
		err = exec(m, "COMMIT");
	/* After a failure the database is closed unfinished (and removed
	 * by the caller): the shard stays attached till then. */
	if (!err) {
		err = exec(m, "DETACH s");
	} else {
		sqlite3_close(m->db);
		m->db = NULL;
	}
	free(bytes);
	return err;
}

/* The samples layout of the first shard: the database's is made before
 * any shard is attached (ATTACH is outside a transaction). */
static int first_layout(const struct sqlite_shard *s, unsigned char *bytes,
			const char *name, bool *all_columns)
{
	struct merger probe = {.name = name};
	int rc = sqlite3_open_v2(":memory:", &probe.db, SQLITE_OPEN_READWRITE,
				 NULL);
	int err = rc == SQLITE_OK ? attach(&probe, s, bytes, 0)
				  : fail(&probe, rc, "SQLite");
	*all_columns = probe.all_columns;
	sqlite3_close(probe.db);
	return err;
}

int sqlite_shards_merge_write(const struct sqlite_shards *l, const char *file,
			      const char *name)
{
	struct merger m = {.name = name};
	unsigned char *bytes = NULL;
	int err = sqlite_shard_unpack(&l->v[0], &bytes);
	if (!err)
		err = first_layout(&l->v[0], bytes, name, &m.all_columns);
	if (!err)
		err = hwt_sqlite_create(file, name, m.all_columns, &m.db);
	static const char *const maps[] = {
		"COMMIT",
		"CREATE TEMP TABLE hwt_map_dso (old INTEGER PRIMARY KEY, new INTEGER)",
		"CREATE TEMP TABLE hwt_map_sym (old INTEGER PRIMARY KEY, new INTEGER)",
		"CREATE TEMP TABLE hwt_map_path (old INTEGER PRIMARY KEY, new INTEGER)",
	};
	for (size_t i = 0; !err && i < sizeof(maps) / sizeof(maps[0]); i++)
		err = exec(&m, maps[i]);
	for (size_t k = 0; !err && k < l->n; k++) {
		if (k)
			err = sqlite_shard_unpack(&l->v[k], &bytes);
		if (!err)
			err = merge_capture(&m, &l->v[k], bytes, k);
		bytes = NULL;
	}
	free(bytes);
	int64_t switches = 0;
	if (!err)
		err = exec(&m, "DROP TABLE temp.hwt_map_dso");
	if (!err)
		err = exec(&m, "DROP TABLE temp.hwt_map_sym");
	if (!err)
		err = exec(&m, "DROP TABLE temp.hwt_map_path");
	if (!err)
		err = query_int(&m, "SELECT count(*) FROM main.context_switches",
				&switches);
	if (!err)
		err = exec(&m, "BEGIN");
	if (!err)
		err = hwt_sqlite_tail(m.db, name, switches != 0);
	int rc = m.db ? sqlite3_close(m.db) : SQLITE_OK;
	if (!err && rc != SQLITE_OK)
		err = hwt_sqlite_error(NULL, name, rc, "close");
	hwt_strmap_free(&m.dsos);
	hwt_strmap_free(&m.symbols);
	hwt_strmap_free(&m.paths);
	free(m.dso.v);
	free(m.sym.v);
	free(m.path.v);
	return err;
}
