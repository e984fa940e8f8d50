/* PostgreSQL database for perf's export schema (perfdb.h, pg_schema.h),
 * through libpq, the way perf's export-to-postgresql.py fills one: the
 * rows of each table are encoded in COPY's binary format while the export
 * runs (in memory, the first ROWS_IN_MEMORY bytes of each table; a
 * temporary file of its own takes the rest), then each table is sent
 * with COPY ... FROM STDIN (FORMAT binary), and the keys, indexes and
 * views are added. All of it is one transaction: a failed export
 * leaves the database as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "hwtrace/error.h"
#include "hwtrace/spill.h"

#ifndef HWT_HAVE_LIBPQ

int hwt_export_postgresql_open(struct hwt_export *ex)
{
	(void)ex;
	return hwt_error(HWT_ERR_NOSUP, "postgresql export: this hwtrace was "
			 "built without PostgreSQL support (libpq; Debian: "
			 "libpq-dev)");
}

#else

#include "analysis/export/pg_schema.h"
#include "analysis/export/pq_api.h"

/* libpq, loaded by pg_open before any other call. */
static const struct pq_api *pq;

#define ROWS_IN_MEMORY (8u << 20)

/* A table's COPY data so far: the spill file's, then buf's. */
struct rows {
	uint8_t *buf;
	size_t len;
	FILE *spill;
};

struct pg_db {
	PGconn *conn;
	struct rows rows[PT_COUNT];
};

static int pg_error(struct pg_db *s, const char *what)
{
	const char *msg = s->conn ? pq->PQerrorMessage(s->conn) : "";
	size_t len = strlen(msg);
	while (len && msg[len - 1] == '\n')
		len--;
	return hwt_error(HWT_ERR_IO, "postgresql: %s: %.*s", what, (int)len,
			 msg);
}

/* Runs @sql; a result other than @want is an error naming @what. */
static int pg_exec(struct pg_db *s, const char *sql, ExecStatusType want,
		   const char *what)
{
	PGresult *r = pq->PQexec(s->conn, sql);
	ExecStatusType st = pq->PQresultStatus(r);
	pq->PQclear(r);
	return st == want ? 0 : pg_error(s, what ? what : sql);
}

static int pg_run(struct pg_db *s, const char *sql)
{
	return pg_exec(s, sql, PGRES_COMMAND_OK, NULL);
}

static uint8_t *put_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
	return p + bytes;
}

/* Room for @need more bytes in @t's buffer: what it holds goes to the
 * spill file when the buffer is full. */
static int room(struct pg_db *s, enum perfdb_table t, size_t need)
{
	struct rows *r = &s->rows[t];
	if (r->len + need <= ROWS_IN_MEMORY)
		return 0;
	if (!r->spill) {
		char what[128];
		snprintf(what, sizeof(what), "the postgresql export's rows of %s",
			 hwt_perfdb_tables[t].name);
		int err = hwt_spill_open(what, &r->spill);
		if (err < 0)
			return err;
	}
	if (fwrite(r->buf, 1, r->len, r->spill) != r->len)
		return hwt_error(HWT_ERR_NOSPC, "postgresql export: writing the "
				 "rows of %s to a temporary file failed (is "
				 "TMPDIR full?)", hwt_perfdb_tables[t].name);
	r->len = 0;
	return 0;
}

/* One tuple: the field count, then each field's length (-1: NULL) and
 * its bytes, big-endian. */
static int pg_row(void *db, enum perfdb_table t, const struct perfdb_val *v)
{
	struct pg_db *s = db;
	const char *types = hwt_perfdb_tables[t].types;
	size_t n = strlen(types), need = 2;
	for (size_t i = 0; i < n; i++)
		need += 4 + (v[i].null ? 0 : v[i].s ? strlen(v[i].s) : 8);
	if (need > ROWS_IN_MEMORY)
		return hwt_error(HWT_ERR_INVAL, "postgresql export: a row of "
				 "%s too long", hwt_perfdb_tables[t].name);
	int err = room(s, t, need);
	if (err)
		return err;
	uint8_t *p = put_be(s->rows[t].buf + s->rows[t].len, n, 2);
	for (size_t i = 0; i < n; i++) {
		if (v[i].null) {
			p = put_be(p, (uint32_t)-1, 4);
		} else if (types[i] == 's') {
			size_t slen = strlen(v[i].s);
			p = put_be(p, slen, 4);
			memcpy(p, v[i].s, slen);
			p += slen;
		} else {
			int bytes = types[i] == 'q' ? 8 : types[i] == 'i' ? 4 : 1;
			p = put_be(p, (uint64_t)bytes, 4);
			p = put_be(p, (uint64_t)v[i].i, bytes);
		}
	}
	s->rows[t].len = (size_t)(p - s->rows[t].buf);
	return 0;
}

/* Sends table @t's file: header, tuples, trailer. */
static int copy_table(struct pg_db *s, enum perfdb_table t)
{
	const char *name = hwt_perfdb_tables[t].name;
	char sql[96];
	snprintf(sql, sizeof(sql), "COPY %s FROM STDIN (FORMAT binary)", name);
	int err = pg_exec(s, sql, PGRES_COPY_IN, sql);
	if (err)
		return err;
	/* Signature, flags 0, no header extension. */
	static const char header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
	static const char trailer[2] = "\377\377";
	struct rows *rows = &s->rows[t];
	FILE *f = rows->spill;
	bool ok = pq->PQputCopyData(s->conn, header, sizeof(header)) == 1;
	if (f) {
		ok = ok && fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0;
		char buf[65536];
		size_t n;
		while (ok && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			ok = pq->PQputCopyData(s->conn, buf, (int)n) == 1;
		ok = ok && !ferror(f);
	}
	for (size_t off = 0; ok && off < rows->len; off += 65536) {
		size_t n = rows->len - off < 65536 ? rows->len - off : 65536;
		ok = pq->PQputCopyData(s->conn, (const char *)rows->buf + off,
				   (int)n) == 1;
	}
	ok = ok && pq->PQputCopyData(s->conn, trailer, sizeof(trailer)) == 1;
	if (pq->PQputCopyEnd(s->conn, ok ? NULL : "hwtrace: reading the rows "
			 "failed") != 1)
		ok = false;
	PGresult *r;
	bool done = true;
	while ((r = pq->PQgetResult(s->conn))) {
		done = done && pq->PQresultStatus(r) == PGRES_COMMAND_OK;
		pq->PQclear(r);
	}
	if (!ok || !done) {
		snprintf(sql, sizeof(sql), "copying %s", name);
		return pg_error(s, sql);
	}
	return 0;
}

static int pg_finish(void *db, bool switches)
{
	struct pg_db *s = db;
	int err = 0;
	for (int t = 0; !err && t < PT_COUNT; t++)
		if ((t != PT_CONTEXT_SWITCHES || switches) && t != PT_SAMPLES_ALL)
			err = copy_table(s, (enum perfdb_table)t);
	size_t n = sizeof(hwt_pg_keys) / sizeof(hwt_pg_keys[0]);
	for (size_t i = 0; !err && i < n; i++)
		err = pg_run(s, hwt_pg_keys[i]);
	n = sizeof(hwt_pg_views) / sizeof(hwt_pg_views[0]);
	for (size_t i = 0; !err && i < n; i++)
		err = pg_run(s, hwt_pg_views[i]);
	/* perf drops the tables it left empty. */
	if (!err && !switches)
		err = pg_run(s, "DROP TABLE context_switches");
	for (size_t i = 0; !err && switches && i < 2; i++)
		err = pg_run(s, hwt_pg_switch_keys[i]);
	if (!err && switches)
		err = pg_run(s, hwt_pg_switch_view);
	if (!err)
		err = pg_run(s, "COMMIT");
	return err;
}

static void pg_free(void *db)
{
	struct pg_db *s = db;
	if (!s)
		return;
	for (int t = 0; t < PT_COUNT; t++) {
		if (s->rows[t].spill)
			fclose(s->rows[t].spill);
		free(s->rows[t].buf);
	}
	/* Closing without COMMIT rolls an unfinished export back. */
	if (s->conn)
		pq->PQfinish(s->conn);
	free(s);
}

static const struct perfdb_backend pg_backend = {
	.row = pg_row,
	.finish = pg_finish,
	.free = pg_free,
};

/* The schema's tables the database has already, in @names. */
static int existing_tables(struct pg_db *s, char *names, size_t size)
{
	PGresult *r = pq->PQexec(s->conn, "SELECT c.relname FROM pg_catalog.pg_class"
			     " c WHERE c.relkind IN ('r', 'v', 'p') AND"
			     " pg_catalog.pg_table_is_visible(c.oid) AND"
			     " c.relname IN ('selected_events', 'machines',"
			     " 'threads', 'comms', 'comm_threads', 'dsos',"
			     " 'symbols', 'branch_types', 'samples',"
			     " 'call_paths', 'calls', 'context_switches')"
			     " ORDER BY 1");
	if (pq->PQresultStatus(r) != PGRES_TUPLES_OK) {
		pq->PQclear(r);
		return pg_error(s, "listing the tables");
	}
	names[0] = 0;
	size_t len = 0;
	for (int i = 0; i < pq->PQntuples(r) && len < size; i++)
		len += (size_t)snprintf(names + len, size - len, "%s%s",
					i ? ", " : "", pq->PQgetvalue(r, i, 0));
	int n = pq->PQntuples(r);
	pq->PQclear(r);
	return n;
}

static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int pg_open(struct hwt_export *ex, struct pg_db *s)
{
	int loaded = hwt_pq_api(&pq);
	if (loaded < 0)
		return loaded;
	s->conn = pq->PQconnectdb(ex->opts.conninfo);
	if (!s->conn)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (pq->PQstatus(s->conn) != CONNECTION_OK)
		return pg_error(s, "cannot connect to the server (check the "
				"connection string given to --db: host, port, "
				"dbname, user, password)");
	/* Messages in the server's words but without its notices. */
	pq->PQsetNoticeProcessor(s->conn, quiet, NULL);
	int err = pg_run(s, "BEGIN");
	char names[512];
	int n = err ? err : existing_tables(s, names, sizeof(names));
	if (n < 0)
		return n;
	if (n && !ex->opts.replace)
		return hwt_error(HWT_ERR_CONFIG, "postgresql: the database "
				 "(%s) already has the tables %s: give --replace "
				 "to drop them, or another dbname",
				 pq->PQdb(s->conn), names);
	err = n ? pg_run(s, hwt_pg_drop) : 0;
	size_t k = sizeof(hwt_pg_tables) / sizeof(hwt_pg_tables[0]);
	for (size_t i = 0; !err && i < k; i++)
		err = pg_run(s, hwt_pg_tables[i]);
	for (int t = 0; !err && t < PT_COUNT; t++)
		if (!(s->rows[t].buf = malloc(ROWS_IN_MEMORY)))
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	return err;
}

int hwt_export_postgresql_open(struct hwt_export *ex)
{
	if (!ex->opts.conninfo)
		return hwt_error(HWT_ERR_INVAL, "postgresql export: no "
				 "connection string");
	if (ex->opts.all_columns)
		return hwt_error(HWT_ERR_NOSUP, "postgresql export: the samples "
				 "table with every column (period, weight, ...) "
				 "is made for SQLite only; export to sqlite");
	struct pg_db *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = pg_open(ex, s);
	if (err) {
		pg_free(s);
		return err;
	}
	return hwt_perfdb_open(ex, &pg_backend, s);
}

#endif
