/* PostgreSQL database for perf's export schema (perfdb.h, pg_schema.h),
 * through libpq, the way perf's export-to-postgresql.py fills one: the
 * rows of each table are encoded in COPY's binary format into a
 * temporary file of their own while the export runs, then each file is
 * sent with COPY ... FROM STDIN (FORMAT binary), and the keys, indexes
 * and views are added. All of it is one transaction: a failed export
 * leaves the database as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "hwtrace/error.h"

#ifndef HWT_HAVE_LIBPQ

int hwt_export_postgresql_open(struct hwt_export *ex)
{
	(void)ex;
	return hwt_error(HWT_ERR_NOSUP, "postgresql export: this hwtrace was "
			 "built without PostgreSQL support (libpq; Debian: "
			 "libpq-dev)");
}

#else

#include <libpq-fe.h>

#include "analysis/export/pg_schema.h"

struct pg_db {
	PGconn *conn;
	FILE *rows[PT_COUNT];     /* each table's COPY data so far */
	bool write_failed;
};

static int pg_error(struct pg_db *s, const char *what)
{
	const char *msg = s->conn ? PQerrorMessage(s->conn) : "";
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
	PGresult *r = PQexec(s->conn, sql);
	ExecStatusType st = PQresultStatus(r);
	PQclear(r);
	return st == want ? 0 : pg_error(s, what ? what : sql);
}

static int pg_run(struct pg_db *s, const char *sql)
{
	return pg_exec(s, sql, PGRES_COMMAND_OK, NULL);
}

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* One tuple: the field count, then each field's length (-1: NULL) and
 * its bytes, big-endian. */
static int pg_row(void *db, enum perfdb_table t, const struct perfdb_val *v)
{
	struct pg_db *s = db;
	const char *types = hwt_perfdb_tables[t].types;
	uint8_t buf[512];
	size_t n = strlen(types), len = 2;
	put_be(buf, n, 2);
	FILE *f = s->rows[t];
	for (size_t i = 0; i < n; i++) {
		if (len + 4 + 8 > sizeof(buf)) {
			s->write_failed |= fwrite(buf, 1, len, f) != len;
			len = 0;
		}
		uint8_t *p = buf + len;
		if (v[i].null) {
			put_be(p, (uint32_t)-1, 4);
			len += 4;
			continue;
		}
		int bytes = types[i] == 'q' ? 8 : types[i] == 'i' ? 4 : 1;
		if (types[i] == 's') {
			size_t slen = strlen(v[i].s);
			put_be(p, slen, 4);
			s->write_failed |= fwrite(buf, 1, len + 4, f) != len + 4;
			s->write_failed |= fwrite(v[i].s, 1, slen, f) != slen;
			len = 0;
			continue;
		}
		put_be(p, (uint64_t)bytes, 4);
		put_be(p + 4, (uint64_t)v[i].i, bytes);
		len += 4 + (size_t)bytes;
	}
	s->write_failed |= fwrite(buf, 1, len, f) != len;
	if (s->write_failed)
		return hwt_error(HWT_ERR_NOSPC, "postgresql export: writing the "
				 "rows of %s to a temporary file failed (is "
				 "TMPDIR full?)", hwt_perfdb_tables[t].name);
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
	FILE *f = s->rows[t];
	bool ok = fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0 &&
		  PQputCopyData(s->conn, header, sizeof(header)) == 1;
	char buf[65536];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		ok = PQputCopyData(s->conn, buf, (int)n) == 1;
	ok = ok && !ferror(f) &&
	     PQputCopyData(s->conn, trailer, sizeof(trailer)) == 1;
	if (PQputCopyEnd(s->conn, ok ? NULL : "hwtrace: reading the rows "
			 "failed") != 1)
		ok = false;
	PGresult *r;
	bool done = true;
	while ((r = PQgetResult(s->conn))) {
		done = done && PQresultStatus(r) == PGRES_COMMAND_OK;
		PQclear(r);
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
		if (t != PT_CONTEXT_SWITCHES || switches)
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
	for (int t = 0; t < PT_COUNT; t++)
		if (s->rows[t])
			fclose(s->rows[t]);
	/* Closing without COMMIT rolls an unfinished export back. */
	if (s->conn)
		PQfinish(s->conn);
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
	PGresult *r = PQexec(s->conn, "SELECT c.relname FROM pg_catalog.pg_class"
			     " c WHERE c.relkind IN ('r', 'v', 'p') AND"
			     " pg_catalog.pg_table_is_visible(c.oid) AND"
			     " c.relname IN ('selected_events', 'machines',"
			     " 'threads', 'comms', 'comm_threads', 'dsos',"
			     " 'symbols', 'branch_types', 'samples',"
			     " 'call_paths', 'calls', 'context_switches')"
			     " ORDER BY 1");
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		PQclear(r);
		return pg_error(s, "listing the tables");
	}
	names[0] = 0;
	size_t len = 0;
	for (int i = 0; i < PQntuples(r) && len < size; i++)
		len += (size_t)snprintf(names + len, size - len, "%s%s",
					i ? ", " : "", PQgetvalue(r, i, 0));
	int n = PQntuples(r);
	PQclear(r);
	return n;
}

static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int pg_open(struct hwt_export *ex, struct pg_db *s)
{
	s->conn = PQconnectdb(ex->opts.conninfo);
	if (!s->conn)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (PQstatus(s->conn) != CONNECTION_OK)
		return pg_error(s, "cannot connect to the server (check the "
				"connection string given to --db: host, port, "
				"dbname, user, password)");
	/* Messages in the server's words but without its notices. */
	PQsetNoticeProcessor(s->conn, quiet, NULL);
	int err = pg_run(s, "BEGIN");
	char names[512];
	int n = err ? err : existing_tables(s, names, sizeof(names));
	if (n < 0)
		return n;
	if (n && !ex->opts.replace)
		return hwt_error(HWT_ERR_CONFIG, "postgresql: the database "
				 "(%s) already has the tables %s: give --replace "
				 "to drop them, or another dbname",
				 PQdb(s->conn), names);
	err = n ? pg_run(s, hwt_pg_drop) : 0;
	size_t k = sizeof(hwt_pg_tables) / sizeof(hwt_pg_tables[0]);
	for (size_t i = 0; !err && i < k; i++)
		err = pg_run(s, hwt_pg_tables[i]);
	for (int t = 0; !err && t < PT_COUNT; t++) {
		s->rows[t] = tmpfile();
		if (!s->rows[t])
			err = hwt_error(HWT_ERR_IO, "postgresql export: cannot "
					"create a temporary file for %s (TMPDIR)",
					hwt_perfdb_tables[t].name);
	}
	return err;
}

int hwt_export_postgresql_open(struct hwt_export *ex)
{
	if (!ex->opts.conninfo)
		return hwt_error(HWT_ERR_INVAL, "postgresql export: no "
				 "connection string");
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
