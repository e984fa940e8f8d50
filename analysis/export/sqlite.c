/* SQLite export in perf's export-to-sqlite.py schema (sqlite_schema.h).
 * One sample per taken branch (and per trace begin/end, as perf has
 * them), one calls row per frame, the call path tree, and the binaries,
 * symbols and threads they refer to. Rows go through prepared statements
 * in transactions of a million rows, with the journal off: the file is a
 * temporary one the caller renames when the export succeeds. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/export_internal.h"
#include "analysis/export/sqlite_schema.h"
#include "hwtrace/error.h"

enum { ST_SAMPLE, ST_CALL, ST_PATH, ST_SYMBOL, ST_DSO, ST_THREAD, ST_COMM,
       ST_COMM_THREAD, ST_BRANCH_TYPE, ST_COUNT };

static const char *const insert_sql[ST_COUNT] = {
	"INSERT INTO samples VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO calls VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO call_paths VALUES (?,?,?,?)",
	"INSERT INTO symbols VALUES (?,?,?,?,?,?)",
	"INSERT INTO dsos VALUES (?,?,?,?,?)",
	"INSERT INTO threads VALUES (?,?,?,?,?)",
	"INSERT INTO comms VALUES (?,?,?,?,?)",
	"INSERT INTO comm_threads VALUES (?,?,?)",
	"INSERT INTO branch_types VALUES (?,?)",
};

#define ROWS_PER_TRANSACTION 1000000
#define CACHE_SLOTS 4096 /* addresses whose symbol is remembered */

/* Where an address is: 0 ids when unknown. */
struct place {
	uint64_t addr;
	int32_t pid;
	bool valid;
	uint64_t dso_id, symbol_id, sym_offset;
	uint64_t sym_addr;    /* the function's address as traced */
};

struct sqlite_export {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *st[ST_COUNT];
	uint64_t next_sample, next_call, rows;
	struct hwt_strmap dsos;    /* path -> v[0] id */
	struct hwt_strmap symbols; /* "dso_id:name" -> v[0] id */
	struct place cache[CACHE_SLOTS];
};

static struct sqlite_export *impl(struct hwt_export *ex)
{
	return ex->impl;
}

/* The library's error for SQLite's: a full disk is HWT_ERR_NOSPC. */
static int db_error(struct sqlite_export *s, int rc, const char *what)
{
	int err = rc == SQLITE_FULL ? HWT_ERR_NOSPC : HWT_ERR_IO;
	return hwt_error(err, "%s: %s: %s", s->path, what,
			 s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
}

static int exec(struct sqlite_export *s, const char *sql)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : db_error(s, rc, sql);
}

static void b_int(struct sqlite_export *s, int which, int col, int64_t v)
{
	sqlite3_bind_int64(s->st[which], col, v);
}

static void b_text(struct sqlite_export *s, int which, int col,
		   const char *text)
{
	sqlite3_bind_text(s->st[which], col, text, -1, SQLITE_TRANSIENT);
}

/* Steps the bound statement; every million rows the transaction is
 * committed and a new one begun. */
static int step(struct sqlite_export *s, int which)
{
	sqlite3_stmt *st = s->st[which];
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	/* Every statement binds all its columns but symbols' binding,
	 * which stays NULL. */
	if (rc != SQLITE_DONE)
		return db_error(s, rc, "insert");
	if (++s->rows % ROWS_PER_TRANSACTION)
		return 0;
	int err = exec(s, "COMMIT");
	return err ? err : exec(s, "BEGIN");
}

/* Binds @n int64 values from column 1 and steps. */
static int run(struct sqlite_export *s, int which, const int64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		b_int(s, which, i + 1, v[i]);
	return step(s, which);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int dso_id(struct hwt_export *ex, const char *path, uint64_t *id)
{
	struct sqlite_export *s = impl(ex);
	struct hwt_strmap_entry *e = hwt_strmap_get(&s->dsos, path,
						    strlen(path));
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (e->v[0]) {
		*id = e->v[0];
		return 0;
	}
	e->v[0] = *id = s->dsos.n;
	b_int(s, ST_DSO, 1, (int64_t)*id);
	b_int(s, ST_DSO, 2, 1);
	b_text(s, ST_DSO, 3, base_name(path));
	b_text(s, ST_DSO, 4, path);
	b_text(s, ST_DSO, 5, hwt_export_build_id(ex, path));
	return step(s, ST_DSO);
}

/* Looks @addr up and fills *p (cached by address). */
static int place_of(struct hwt_export *ex, int32_t pid, uint64_t addr,
		    struct place *out)
{
	struct sqlite_export *s = impl(ex);
	struct place *p = &s->cache[(addr >> 2) % CACHE_SLOTS];
	if (p->valid && p->addr == addr && p->pid == pid) {
		*out = *p;
		return 0;
	}
	memset(p, 0, sizeof(*p));
	p->addr = addr;
	p->pid = pid;
	struct hwt_symbol sym;
	int rc = ex->opts.sym ? hwt_symbolizer_lookup(ex->opts.sym,
						       pid < 0 ? HWT_PID_ANY : pid,
						       addr, &sym)
			      : 0;
	if (rc < 0)
		return rc;
	if (rc == 1 && sym.dso) {
		int err = dso_id(ex, sym.dso, &p->dso_id);
		if (err)
			return err;
	}
	if (rc == 1 && sym.name) {
		char key[2560];
		int len = snprintf(key, sizeof(key), "%" PRIu64 ":%s",
				   p->dso_id, sym.name);
		if (len >= (int)sizeof(key))
			len = (int)sizeof(key) - 1;
		struct hwt_strmap_entry *e = hwt_strmap_get(&s->symbols, key,
							    (size_t)len);
		if (!e)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		if (!e->v[0]) {
			e->v[0] = s->symbols.n;
			ex->stats.symbols = s->symbols.n;
			/* perf's sym_start/sym_end are addresses in the
			 * binary, not where it was loaded. */
			uint64_t start = sym.dso ? sym.dso_offset - sym.offset
						 : sym.start;
			b_int(s, ST_SYMBOL, 1, (int64_t)e->v[0]);
			b_int(s, ST_SYMBOL, 2, (int64_t)p->dso_id);
			b_int(s, ST_SYMBOL, 3, (int64_t)start);
			b_int(s, ST_SYMBOL, 4, (int64_t)(start + sym.size));
			/* The symbolizer does not say a symbol's binding:
			 * NULL rather than a guess. */
			b_text(s, ST_SYMBOL, 6, sym.name);
			int err = step(s, ST_SYMBOL);
			if (err)
				return err;
		}
		p->symbol_id = e->v[0];
		p->sym_offset = sym.offset;
		p->sym_addr = sym.start;
	}
	ex->stats.dsos = s->dsos.n;
	p->valid = true;
	*out = *p;
	return 0;
}

/* perf's branch_type (PERF_IP_FLAG_* bits) of a branch kind. */
static int branch_type(enum hwt_branch_kind kind)
{
	switch (kind) {
	case HWT_BRANCH_CALL: return 3;
	case HWT_BRANCH_RETURN: return 5;
	case HWT_BRANCH_COND: return 9;
	case HWT_BRANCH_SYSCALL: return 19;
	case HWT_BRANCH_SYSRET: return 21;
	case HWT_BRANCH_EXCEPTION: return 67;
	case HWT_BRANCH_ERET: return 69;
	case HWT_BRANCH_INTERRUPT: return 99;
	case HWT_BRANCH_JUMP:
	case HWT_BRANCH_INDIRECT:
		break;
	}
	return 1;
}

enum { TRACE_BEGIN = 256 | 1, TRACE_END = 512 | 1 };

static int32_t thread_pid(const struct export_thread *t, int32_t pid)
{
	return pid >= 0 ? pid : t->pid;
}

static int sqlite_element(struct hwt_export *ex, struct export_thread *t,
			  const struct hwt_elem *e)
{
	struct sqlite_export *s = impl(ex);
	uint64_t from = 0, to = 0;
	int type;
	switch (e->type) {
	case HWT_ELEM_BRANCH:
		from = e->u.branch.from;
		to = e->u.branch.to;
		type = branch_type(e->u.branch.kind);
		ex->stats.branches++;
		break;
	case HWT_ELEM_TRACE_ON:
		to = e->fields & HWT_FIELD_AT ? e->u.trace.at : 0;
		type = TRACE_BEGIN;
		ex->stats.trace_marks++;
		break;
	case HWT_ELEM_TRACE_OFF:
		from = e->fields & HWT_FIELD_AT ? e->u.trace.at : 0;
		type = TRACE_END;
		ex->stats.trace_marks++;
		break;
	default:
		return 0;
	}
	int32_t pid = thread_pid(t, e->fields & HWT_FIELD_PID ? e->pid : -1);
	struct place pf = {0}, pt = {0};
	int err = from ? place_of(ex, pid, from, &pf) : 0;
	if (!err && to)
		err = place_of(ex, pid, to, &pt);
	if (err)
		return err;
	if ((from && !pf.symbol_id) || (to && !pt.symbol_id))
		ex->stats.unknown_addrs++;
	uint64_t id = ++s->next_sample;
	int64_t v[21] = {
		(int64_t)id, 1, 1, (int64_t)t->id, (int64_t)t->id,
		(int64_t)pf.dso_id, (int64_t)pf.symbol_id,
		(int64_t)pf.sym_offset, (int64_t)from,
		e->fields & HWT_FIELD_TIME ? (int64_t)e->time : 0,
		e->fields & HWT_FIELD_CPU ? e->cpu : -1,
		(int64_t)pt.dso_id, (int64_t)pt.symbol_id,
		(int64_t)pt.sym_offset, (int64_t)to, type, 0,
		(int64_t)(t->n ? t->v[t->n - 1].path_id : 1),
		(int64_t)t->insns, 0, type,
	};
	t->last_sample = id;
	t->insns = 0;
	return run(s, ST_SAMPLE, v, 21);
}

static int sqlite_enter(struct hwt_export *ex, struct export_thread *t,
			const struct hwt_frame *f, struct export_open *top)
{
	struct sqlite_export *s = impl(ex);
	struct place p;
	int err = place_of(ex, thread_pid(t, f->pid), f->func, &p);
	if (err)
		return err;
	uint64_t parent = t->n > 1 ? t->v[t->n - 2].path_id : 1;
	uint64_t ip = p.symbol_id ? p.sym_addr : f->func;
	bool created;
	err = hwt_export_path(ex, parent, p.symbol_id, ip, &top->path_id,
			      &created);
	if (err)
		return err;
	if (created) {
		int64_t v[4] = {(int64_t)top->path_id, (int64_t)parent,
				(int64_t)p.symbol_id, (int64_t)ip};
		err = run(s, ST_PATH, v, 4);
		if (err)
			return err;
	}
	top->call_id = ++s->next_call;
	top->call_sample = f->start == HWT_FRAME_INFERRED ? 0 : t->last_sample;
	return 0;
}

/* perf's calls.flags: 1 no call, 2 no return. */
static int call_flags(const struct hwt_frame *f)
{
	int flags = f->start == HWT_FRAME_INFERRED ? 1 : 0;
	if (f->end != HWT_FRAME_RETURNED && f->end != HWT_FRAME_REPLACED)
		flags |= 2;
	return flags;
}

static int sqlite_exit(struct hwt_export *ex, struct export_thread *t,
		       const struct hwt_frame *f)
{
	struct sqlite_export *s = impl(ex);
	const struct export_open *top = &t->v[t->n - 1];
	const struct export_open *up = t->n > 1 ? &t->v[t->n - 2] : NULL;
	ex->stats.calls++;
	int64_t v[14] = {
		(int64_t)top->call_id, (int64_t)t->id, (int64_t)t->id,
		(int64_t)top->path_id,
		f->has_time ? (int64_t)f->call_time : 0,
		f->has_time ? (int64_t)f->return_time : 0,
		(int64_t)f->branches_total, (int64_t)top->call_sample,
		f->end == HWT_FRAME_RETURNED ? (int64_t)t->last_sample : 0,
		up ? (int64_t)up->path_id : 1, call_flags(f),
		up ? (int64_t)up->call_id : 0, (int64_t)f->insns_total, 0,
	};
	return run(s, ST_CALL, v, 14);
}

/* threads, comms and comm_threads for the threads that were traced: one
 * comm per thread, its last COMM name, else its process's (a new thread
 * inherits it), else ":TID" as perf shows a thread without one. */
static int write_threads(struct hwt_export *ex)
{
	struct sqlite_export *s = impl(ex);
	for (size_t i = 0; i < ex->nthreads; i++) {
		const struct export_thread *t = &ex->threads[i];
		if (!t->traced)
			continue;
		uint64_t process = t->id;
		const char *comm = t->comm;
		for (size_t j = 0; j < ex->nthreads; j++) {
			if (t->pid < 0 || ex->threads[j].tid != t->pid)
				continue;
			process = ex->threads[j].id;
			if (!comm)
				comm = ex->threads[j].comm;
		}
		int64_t th[5] = {(int64_t)t->id, 1, (int64_t)process, t->pid,
				 t->tid};
		int err = run(s, ST_THREAD, th, 5);
		if (err)
			return err;
		char name[32];
		if (comm)
			snprintf(name, sizeof(name), "%s", comm);
		else
			snprintf(name, sizeof(name), ":%d", (int)t->tid);
		b_int(s, ST_COMM, 1, (int64_t)t->id);
		b_text(s, ST_COMM, 2, name);
		b_int(s, ST_COMM, 3, (int64_t)t->id);
		b_int(s, ST_COMM, 4, 0);
		b_int(s, ST_COMM, 5, 0);
		err = step(s, ST_COMM);
		int64_t ct[3] = {(int64_t)t->id, (int64_t)t->id, (int64_t)t->id};
		if (!err)
			err = run(s, ST_COMM_THREAD, ct, 3);
		if (err)
			return err;
	}
	return 0;
}

static int sqlite_finish(struct hwt_export *ex, bool has_time)
{
	(void)has_time;
	struct sqlite_export *s = impl(ex);
	int err = write_threads(ex);
	static const char *const tail[] = {
		"COMMIT",
		"CREATE INDEX pcpid_idx ON calls (parent_call_path_id)",
		"CREATE INDEX pid_idx ON calls (parent_id)",
		"ALTER TABLE comms ADD has_calls boolean",
		/* One literal: clang warns of joined ones in an array. */
		"UPDATE comms SET has_calls = 1 WHERE comms.id IN (SELECT DISTINCT comm_id FROM calls)",
		/* perf drops the tables it left empty; the element stream
		 * has no context switches. */
		"DROP VIEW context_switches_view",
		"DROP TABLE context_switches",
	};
	for (size_t i = 0; !err && i < sizeof(tail) / sizeof(tail[0]); i++)
		err = exec(s, tail[i]);
	for (int i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(s->st[i]);
		s->st[i] = NULL;
	}
	int rc = sqlite3_close(s->db);
	s->db = NULL;
	if (!err && rc != SQLITE_OK)
		err = db_error(s, rc, "close");
	return err;
}

static void sqlite_free(struct hwt_export *ex)
{
	struct sqlite_export *s = impl(ex);
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	if (s->db)
		sqlite3_close(s->db);
	hwt_strmap_free(&s->dsos);
	hwt_strmap_free(&s->symbols);
	free(s);
}

const struct export_format hwt_export_sqlite_format = {
	.element = sqlite_element,
	.enter = sqlite_enter,
	.exit = sqlite_exit,
	.finish = sqlite_finish,
	.free = sqlite_free,
};

/* The rows with id 0 ("unknown") perf writes first, the event, the host
 * machine, the branch types and the call path tree's root (id 1). */
static int fixed_rows(struct hwt_export *ex)
{
	struct sqlite_export *s = impl(ex);
	static const char *const rows[] = {
		"INSERT INTO selected_events VALUES (0, 'unknown')",
		"INSERT INTO machines VALUES (0, 0, 'unknown')",
		"INSERT INTO machines VALUES (1, -1, '')",
		"INSERT INTO threads VALUES (0, 0, 0, -1, -1)",
		"INSERT INTO comms VALUES (0, 'unknown', 0, 0, 0)",
		"INSERT INTO dsos VALUES (0, 0, 'unknown', 'unknown', '')",
		"INSERT INTO symbols VALUES (0, 0, 0, 0, 0, 'unknown')",
		"INSERT INTO samples VALUES (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,"
		" 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)",
		"INSERT INTO call_paths VALUES (0, 0, 0, 0)",
		"INSERT INTO calls VALUES (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,"
		" 0, 0)",
		"INSERT INTO call_paths VALUES (1, 0, 0, 0)",
	};
	int err = 0;
	for (size_t i = 0; !err && i < sizeof(rows) / sizeof(rows[0]); i++)
		err = exec(s, rows[i]);
	if (err)
		return err;
	sqlite3_stmt *ev;
	int rc = sqlite3_prepare_v2(s->db, "INSERT INTO selected_events VALUES"
				    " (1, ?)", -1, &ev, NULL);
	if (rc != SQLITE_OK)
		return db_error(s, rc, "prepare");
	sqlite3_bind_text(ev, 1, ex->opts.event ? ex->opts.event : "branches",
			  -1, SQLITE_STATIC);
	rc = sqlite3_step(ev);
	sqlite3_finalize(ev);
	if (rc != SQLITE_DONE)
		return db_error(s, rc, "insert");
	/* Each base type alone, with trace begin and with trace end. */
	size_t n = sizeof(hwt_sqlite_branch_types) /
		   sizeof(hwt_sqlite_branch_types[0]);
	for (size_t i = 0; !err && i < n; i++) {
		const struct hwt_sqlite_branch_type *b =
			&hwt_sqlite_branch_types[i];
		bool jump = b->id == 1;
		char begin[96], end[96];
		snprintf(begin, sizeof(begin), jump ? "trace begin"
			 : "trace begin / %s", b->name);
		snprintf(end, sizeof(end), jump ? "trace end"
			 : "%s / trace end", b->name);
		const struct hwt_sqlite_branch_type rows3[3] = {
			{b->id, b->name}, {b->id | 256, begin},
			{b->id | 512, end},
		};
		for (int k = 0; !err && k < 3; k++) {
			b_int(s, ST_BRANCH_TYPE, 1, rows3[k].id);
			b_text(s, ST_BRANCH_TYPE, 2, rows3[k].name);
			err = step(s, ST_BRANCH_TYPE);
		}
	}
	if (err)
		return err;
	bool created;
	uint64_t root;
	return hwt_export_path(ex, 0, 0, 0, &root, &created);
}

int hwt_export_sqlite_open(struct hwt_export *ex)
{
	if (!ex->opts.db_path)
		return hwt_error(HWT_ERR_INVAL, "sqlite export: no database");
	struct sqlite_export *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	ex->impl = s;
	s->path = ex->opts.db_name ? ex->opts.db_name : ex->opts.db_path;
	int rc = sqlite3_open_v2(ex->opts.db_path, &s->db,
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
	int err = exec(s, "PRAGMA journal_mode = OFF");
	if (!err)
		err = exec(s, "PRAGMA synchronous = OFF");
	/* Nobody else opens the temporary file; 64 MiB of page cache keeps
	 * the tables' growing pages in memory between commits. */
	if (!err)
		err = exec(s, "PRAGMA locking_mode = EXCLUSIVE");
	if (!err)
		err = exec(s, "PRAGMA cache_size = -65536");
	if (!err)
		err = exec(s, "BEGIN");
	size_t n = sizeof(hwt_sqlite_tables) / sizeof(hwt_sqlite_tables[0]);
	for (size_t i = 0; !err && i < n; i++)
		err = exec(s, hwt_sqlite_tables[i]);
	for (int i = 0; !err && i < ST_COUNT; i++) {
		rc = sqlite3_prepare_v2(s->db, insert_sql[i], -1, &s->st[i],
					NULL);
		if (rc != SQLITE_OK)
			err = db_error(s, rc, insert_sql[i]);
	}
	return err ? err : fixed_rows(ex);
}
