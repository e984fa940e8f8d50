/* The virtual table of sqlite_rows.h: a read-only scan of the queued
 * rows, in order. */
#include <stdio.h>
#include <string.h>

#include "analysis/export/sqlite_rows.h"

struct rows_vtab {
	sqlite3_vtab base;
	struct sqlite_rows *rows;
};

struct rows_cursor {
	sqlite3_vtab_cursor base;
	const struct sqlite_rows *rows;
	int at;
};

static int rows_connect(sqlite3 *db, void *aux, int argc,
			const char *const *argv, sqlite3_vtab **out,
			char **errmsg)
{
	(void)argc;
	(void)argv;
	(void)errmsg;
	struct sqlite_rows *rows = aux;
	char sql[32 + SQLITE_ROWS_MAX_COLUMNS * 5] = "CREATE TABLE x(";
	size_t len = strlen(sql);
	for (int i = 0; i < rows->cols; i++)
		len += (size_t)snprintf(sql + len, sizeof(sql) - len, "%sc%d",
					i ? "," : "", i);
	snprintf(sql + len, sizeof(sql) - len, ")");
	int rc = sqlite3_declare_vtab(db, sql);
	if (rc != SQLITE_OK)
		return rc;
	struct rows_vtab *t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->rows = rows;
	*out = &t->base;
	return SQLITE_OK;
}

static int rows_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* One plan: every row, in order. */
static int rows_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	info->estimatedRows = ((struct rows_vtab *)vt)->rows->n;
	info->estimatedCost = (double)info->estimatedRows;
	info->orderByConsumed = 0;
	return SQLITE_OK;
}

static int rows_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct rows_cursor *c = sqlite3_malloc(sizeof(*c));
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->rows = ((struct rows_vtab *)vt)->rows;
	*out = &c->base;
	return SQLITE_OK;
}

static int rows_close(sqlite3_vtab_cursor *c)
{
	sqlite3_free(c);
	return SQLITE_OK;
}

static int rows_filter(sqlite3_vtab_cursor *c, int idx, const char *idx_str,
		       int argc, sqlite3_value **argv)
{
	(void)idx;
	(void)idx_str;
	(void)argc;
	(void)argv;
	((struct rows_cursor *)c)->at = 0;
	return SQLITE_OK;
}

static int rows_next(sqlite3_vtab_cursor *c)
{
	((struct rows_cursor *)c)->at++;
	return SQLITE_OK;
}

static int rows_eof(sqlite3_vtab_cursor *vc)
{
	const struct rows_cursor *c = (const void *)vc;
	return c->at >= c->rows->n;
}

static int rows_column(sqlite3_vtab_cursor *vc, sqlite3_context *ctx, int col)
{
	const struct rows_cursor *c = (const void *)vc;
	sqlite3_result_int64(ctx, c->rows->v[c->at * c->rows->cols + col]);
	return SQLITE_OK;
}

static int rows_rowid(sqlite3_vtab_cursor *vc, sqlite3_int64 *rowid)
{
	*rowid = ((const struct rows_cursor *)vc)->at;
	return SQLITE_OK;
}

static const sqlite3_module rows_module = {
	.xCreate = rows_connect,
	.xConnect = rows_connect,
	.xBestIndex = rows_best_index,
	.xDisconnect = rows_disconnect,
	.xDestroy = rows_disconnect,
	.xOpen = rows_open,
	.xClose = rows_close,
	.xFilter = rows_filter,
	.xNext = rows_next,
	.xEof = rows_eof,
	.xColumn = rows_column,
	.xRowid = rows_rowid,
};

int hwt_sqlite_rows_table(sqlite3 *db, const char *name,
			  struct sqlite_rows *rows)
{
	int rc = sqlite3_create_module(db, name, &rows_module, rows);
	if (rc != SQLITE_OK)
		return rc;
	char sql[128];
	snprintf(sql, sizeof(sql), "CREATE VIRTUAL TABLE temp.%s USING %s",
		 name, name);
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}
