/* The rows of perf's export schema (perfdb.h) from hwtrace's stream: one
 * sample per taken branch (and per trace begin/end, as perf has them),
 * one calls row per frame, the call path tree, the binaries, symbols and
 * threads they refer to, and the capture's context switches. The
 * database they go to is the backend's business. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "analysis/export/perfdb.h"
#include "analysis/util/array_grow.h"
#include "analysis/util/text_append.h"
#include "hwtrace/error.h"

/* perf's PERF_MEM_DATA_SRC_NONE (tools/perf/util/event.h): op, level,
 * snoop, lock and TLB each "not available" (PERF_MEM_*_NA in
 * linux/perf_event.h). */
#define PERF_DATA_SRC_NONE                                                   \
	((int64_t)((PERF_MEM_OP_NA << PERF_MEM_OP_SHIFT) |                   \
		   (PERF_MEM_LVL_NA << PERF_MEM_LVL_SHIFT) |                 \
		   (PERF_MEM_SNOOP_NA << PERF_MEM_SNOOP_SHIFT) |             \
		   (PERF_MEM_LOCK_NA << PERF_MEM_LOCK_SHIFT) |               \
		   (PERF_MEM_TLB_NA << PERF_MEM_TLB_SHIFT)))

const struct perfdb_table_info hwt_perfdb_tables[PT_COUNT] = {
	[PT_SELECTED_EVENTS] = {"selected_events", "qs"},
	[PT_MACHINES] = {"machines", "qis"},
	[PT_THREADS] = {"threads", "qqqii"},
	[PT_COMMS] = {"comms", "qsqqb"},
	[PT_COMM_THREADS] = {"comm_threads", "qqq"},
	[PT_DSOS] = {"dsos", "qqsss"},
	[PT_SYMBOLS] = {"symbols", "qqqqis"},
	[PT_BRANCH_TYPES] = {"branch_types", "is"},
	[PT_SAMPLES] = {"samples", "qqqqqqqqqqiqqqqibqqqi"},
	[PT_CALL_PATHS] = {"call_paths", "qqqq"},
	[PT_CALLS] = {"calls", "qqqqqqqqqqiqqq"},
	[PT_CONTEXT_SWITCHES] = {"context_switches", "qqqiqqqqi"},
	[PT_SAMPLES_ALL] = {"samples", "qqqqqqqqqqiqqqqqqqqibqqqi"},
};

/* perf's branch types: PERF_IP_FLAG_* bits (branch 1, call 2, return 4,
 * conditional 8, syscall/sysret 16, async 32, interrupt 64, tx abort
 * 128, trace begin 256, trace end 512, vm entry 2048, vm exit 4096) with
 * its names. Each base type is also written with trace begin and with
 * trace end, as perf's table has them. */
struct perfdb_branch_type {
	int id;
	const char *name;
};

static const struct perfdb_branch_type perfdb_branch_types[] = {
	{0, "no branch"}, {1, "unconditional jump"}, {3, "call"},
	{5, "return"}, {9, "conditional jump"}, {19, "system call"},
	{21, "return from system call"}, {33, "asynchronous branch"},
	{67, "software interrupt"}, {69, "return from interrupt"},
	{99, "hardware interrupt"}, {129, "transaction abort"},
	{2051, "vm entry"}, {4099, "vm exit"},
};

#define CACHE_SLOTS 4096 /* addresses whose symbol is remembered */
#define MAX_COLUMNS PERFDB_MAX_COLUMNS

/* Where an address is: 0 ids when unknown. */
struct place {
	uint64_t addr;
	int32_t pid;
	bool valid;
	uint64_t dso_id, symbol_id, sym_offset;
	uint64_t sym_addr;    /* the function's address as traced */
};

/* A context switch, written after the threads: its comms need their
 * ids. */
struct pending_switch {
	uint64_t time;
	int32_t cpu;
	int flags;
	uint64_t out, in;        /* thread ids, 0 unknown */
	char *out_comm, *in_comm;
};

struct perfdb {
	const struct perfdb_backend *be;
	void *db;
	uint64_t next_sample, next_call;
	struct pending_switch *sw;
	size_t nsw, sw_cap;
	struct hwt_strmap dsos;    /* path -> v[0] id */
	struct hwt_strmap symbols; /* "dso_id:name" -> v[0] id */
	/* The counts of the captures before this one (the stats are of all
	 * the captures, the ids of each its own). */
	uint64_t dsos_before, symbols_before, paths_before;
	struct place cache[CACHE_SLOTS];
};

static struct perfdb *impl(struct hwt_export *ex)
{
	return ex->impl;
}

static int row(struct perfdb *s, enum perfdb_table t,
	       const struct perfdb_val *v)
{
	return s->be->row(s->db, t, v);
}

int hwt_perfdb_row_of_ints(const struct perfdb_backend *be, void *db,
			   enum perfdb_table t, const int64_t *v)
{
	if (be->row_ints)
		return be->row_ints(db, t, v);
	struct perfdb_val vals[MAX_COLUMNS];
	size_t n = strlen(hwt_perfdb_tables[t].types);
	for (size_t i = 0; i < n; i++)
		vals[i] = (struct perfdb_val){.i = v[i]};
	return be->row(db, t, vals);
}

/* A row of integers only. */
static int ints(struct perfdb *s, enum perfdb_table t, const int64_t *v)
{
	return hwt_perfdb_row_of_ints(s->be, s->db, t, v);
}

static struct perfdb_val I(int64_t i)
{
	return (struct perfdb_val){.i = i};
}

static struct perfdb_val S(const char *text)
{
	return (struct perfdb_val){.s = text};
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int dso_id(struct hwt_export *ex, const char *path, uint64_t *id)
{
	struct perfdb *s = impl(ex);
	struct hwt_strmap_entry *e = hwt_strmap_get(&s->dsos, path,
						    strlen(path));
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (e->v[0]) {
		*id = e->v[0];
		return 0;
	}
	e->v[0] = *id = s->dsos.n;
	struct perfdb_val v[5] = {I((int64_t)*id), I(1), S(base_name(path)),
				  S(path), S(hwt_export_build_id(ex, path))};
	return row(s, PT_DSOS, v);
}

/* Looks @addr up and fills *p (cached by address). */
static int place_of(struct hwt_export *ex, int32_t pid, uint64_t addr,
		    struct place *out)
{
	struct perfdb *s = impl(ex);
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
		/* "DSO_ID:NAME", cut as snprintf would (without printf: a
		 * new address looks its symbol up here). */
		char key[2560];
		struct hwt_text t = {key, sizeof(key) - 1, 0};
		hwt_text_u64(&t, p->dso_id);
		hwt_text_char(&t, ':');
		hwt_text_str(&t, sym.name);
		size_t len = t.len < t.size ? t.len : t.size;
		struct hwt_strmap_entry *e = hwt_strmap_get(&s->symbols, key, len);
		if (!e)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		if (!e->v[0]) {
			e->v[0] = s->symbols.n;
			ex->stats.symbols = s->symbols_before + s->symbols.n;
			/* perf's sym_start/sym_end are addresses in the
			 * binary, not where it was loaded. */
			uint64_t start = sym.dso ? sym.dso_offset - sym.offset
						 : sym.start;
			/* The symbolizer does not say a symbol's binding:
			 * NULL rather than a guess. */
			struct perfdb_val v[6] = {
				I((int64_t)e->v[0]), I((int64_t)p->dso_id),
				I((int64_t)start), I((int64_t)(start + sym.size)),
				{.null = true}, S(sym.name),
			};
			int err = row(s, PT_SYMBOLS, v);
			if (err)
				return err;
		}
		p->symbol_id = e->v[0];
		p->sym_offset = sym.offset;
		p->sym_addr = sym.start;
	}
	ex->stats.dsos = s->dsos_before + s->dsos.n;
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

static int perfdb_element(struct hwt_export *ex, struct export_thread *t,
			  const struct hwt_elem *e)
{
	struct perfdb *s = impl(ex);
	uint64_t from = 0, to = 0;
	int type;
	/* A branch whose source the trace does not give is, as in perf's
	 * export, the trace beginning at its target. */
	bool no_from = e->type == HWT_ELEM_BRANCH &&
		       (e->fields & HWT_FIELD_NO_FROM);
	switch (e->type) {
	case HWT_ELEM_BRANCH:
		if (no_from) {
			to = e->u.branch.to;
			type = TRACE_BEGIN;
			ex->stats.trace_marks++;
			break;
		}
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
		(int64_t)pt.sym_offset, (int64_t)to, type,
		/* A branch record says what a trace does not. */
		e->type == HWT_ELEM_BRANCH && (e->u.branch.flags & HWT_BRANCH_IN_TX) &&
			(e->fields & HWT_FIELD_SAMPLED),
		(int64_t)(t->n ? t->v[t->n - 1].path_id : 1),
		(int64_t)t->insns,
		e->type == HWT_ELEM_BRANCH && (e->fields & HWT_FIELD_CYCLES)
			? (int64_t)e->u.branch.cycles : 0,
		type,
	};
	t->last_sample = id;
	t->insns = 0;
	if (!ex->opts.all_columns)
		return ints(s, PT_SAMPLES, v);
	/* perf's "all" columns after to_ip: the period of the sample a
	 * branch record came with; a full trace's branch is one branch,
	 * as perf's --itrace=b samples are (period 1). Weight and
	 * transaction: nothing here has them. The data source of a sample
	 * without one is what perf reads for it, "not available" in each
	 * field; its synthesized branch samples have 0. */
	bool sampled = e->type == HWT_ELEM_BRANCH &&
		       (e->fields & HWT_FIELD_SAMPLED);
	int64_t all[25];
	memcpy(all, v, 15 * sizeof(*v));
	all[15] = sampled ? (int64_t)e->u.branch.weight : 1;
	all[16] = all[17] = 0;
	all[18] = sampled ? PERF_DATA_SRC_NONE : 0;
	memcpy(all + 19, v + 15, 6 * sizeof(*v));
	return ints(s, PT_SAMPLES_ALL, all);
}

static int perfdb_enter(struct hwt_export *ex, struct export_thread *t,
			const struct hwt_frame *f, struct export_open *top)
{
	struct perfdb *s = impl(ex);
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
		err = ints(s, PT_CALL_PATHS, v);
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

static int perfdb_exit(struct hwt_export *ex, struct export_thread *t,
		       const struct hwt_frame *f)
{
	struct perfdb *s = impl(ex);
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
	return ints(s, PT_CALLS, v);
}

/* The thread row's comm: its last COMM name, else its process's (a new
 * thread inherits it), else the idle task's name, else ":TID" as perf
 * shows a thread without one. */
static void comm_name(const struct hwt_export *ex,
		      const struct export_thread *t, char *name, size_t size)
{
	const char *comm = t->comm;
	for (size_t j = 0; !comm && j < ex->nthreads; j++)
		if (t->pid >= 0 && ex->threads[j].tid == t->pid)
			comm = ex->threads[j].comm;
	if (comm)
		snprintf(name, size, "%s", comm);
	else if (t->pid == 0 && t->tid == 0)
		snprintf(name, size, "swapper");
	else
		snprintf(name, size, ":%d", (int)t->tid);
}

/* threads, comms and comm_threads for the threads that were traced or
 * switched, and their processes: one comm per thread, id = the thread's. */
static int write_threads(struct hwt_export *ex)
{
	struct perfdb *s = impl(ex);
	for (size_t i = 0; i < ex->nthreads; i++) {
		struct export_thread *t = &ex->threads[i];
		if (!t->traced && !t->listed)
			continue;
		for (size_t j = 0; j < ex->nthreads; j++)
			if (t->pid >= 0 && ex->threads[j].tid == t->pid)
				ex->threads[j].listed = true;
	}
	for (size_t i = 0; i < ex->nthreads; i++) {
		const struct export_thread *t = &ex->threads[i];
		if (!t->traced && !t->listed)
			continue;
		uint64_t process = t->id;
		for (size_t j = 0; j < ex->nthreads; j++)
			if (t->pid >= 0 && ex->threads[j].tid == t->pid)
				process = ex->threads[j].id;
		int64_t th[5] = {(int64_t)t->id, 1, (int64_t)process, t->pid,
				 t->tid};
		int err = ints(s, PT_THREADS, th);
		char name[32];
		comm_name(ex, t, name, sizeof(name));
		struct perfdb_val c[5] = {I((int64_t)t->id), S(name),
					  I((int64_t)t->id), I(0), I(0)};
		if (!err)
			err = row(s, PT_COMMS, c);
		int64_t ct[3] = {(int64_t)t->id, (int64_t)t->id, (int64_t)t->id};
		if (!err)
			err = ints(s, PT_COMM_THREADS, ct);
		if (err)
			return err;
	}
	return 0;
}

/* A side of a switch: its thread's id, 0 when unknown, and a copy of
 * its name then. */
static int switch_side(struct hwt_export *ex, int32_t pid, int32_t tid,
		       const char *comm, uint64_t *id, char **copy)
{
	*id = 0;
	*copy = NULL;
	if (tid < 0)
		return 0;
	struct export_thread *t = hwt_export_thread(ex, pid, tid, -1);
	if (!t || (comm && !(*copy = strdup(comm))))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->listed = true;
	*id = t->id;
	return 0;
}

int hwt_export_context_switch(struct hwt_export *ex,
			      const struct hwt_export_switch *sw)
{
	if (ex->fmt != &hwt_export_perfdb_format)
		return 0;
	struct perfdb *s = impl(ex);
	void *grown = s->sw;
	if (!array_grow(&grown, &s->sw_cap, sizeof(*s->sw), s->nsw + 1, 64))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->sw = grown;
	struct pending_switch *p = &s->sw[s->nsw++];
	memset(p, 0, sizeof(*p));
	p->time = sw->time;
	p->cpu = sw->cpu;
	p->flags = sw->flags;
	int err = switch_side(ex, sw->out_pid, sw->out_tid, sw->out_comm,
			      &p->out, &p->out_comm);
	if (!err)
		err = switch_side(ex, sw->in_pid, sw->in_tid, sw->in_comm,
				  &p->in, &p->in_comm);
	ex->stats.switches++;
	return err;
}

/* The comm id of thread @id named @name at a switch: the thread's own
 * comm row when the name is its row's, else a row of its own (perf has
 * a comm row per name a thread had) numbered after the threads. */
static int switch_comm(struct hwt_export *ex, uint64_t id, const char *name,
		       struct hwt_strmap *comms, uint64_t *comm)
{
	struct perfdb *s = impl(ex);
	*comm = id;
	if (!id || !name)
		return 0;
	char row_name[32];
	comm_name(ex, &ex->threads[id - 1], row_name, sizeof(row_name));
	if (!strcmp(row_name, name))
		return 0;
	char key[64];
	int len = snprintf(key, sizeof(key), "%" PRIu64 ":%s", id, name);
	struct hwt_strmap_entry *e = hwt_strmap_get(comms, key, (size_t)len);
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!e->v[0]) {
		e->v[0] = ex->nthreads + comms->n;
		struct perfdb_val c[5] = {I((int64_t)e->v[0]), S(name),
					  I((int64_t)id), I(0), I(0)};
		int64_t ct[3] = {(int64_t)e->v[0], (int64_t)e->v[0],
				 (int64_t)id};
		int err = row(s, PT_COMMS, c);
		if (!err)
			err = ints(s, PT_COMM_THREADS, ct);
		if (err)
			return err;
	}
	*comm = e->v[0];
	return 0;
}

static int write_switches(struct hwt_export *ex)
{
	struct perfdb *s = impl(ex);
	struct hwt_strmap comms = {0};
	int err = 0;
	for (size_t i = 0; !err && i < s->nsw; i++) {
		const struct pending_switch *p = &s->sw[i];
		uint64_t cout = 0, cin = 0;
		err = switch_comm(ex, p->out, p->out_comm, &comms, &cout);
		if (!err)
			err = switch_comm(ex, p->in, p->in_comm, &comms, &cin);
		int64_t v[9] = {(int64_t)i + 1, 1, (int64_t)p->time, p->cpu,
				(int64_t)p->out, (int64_t)cout, (int64_t)p->in,
				(int64_t)cin, p->flags};
		if (!err)
			err = ints(s, PT_CONTEXT_SWITCHES, v);
	}
	hwt_strmap_free(&comms);
	return err;
}

/* The threads and the context switches, the rows written last. */
static int write_last_rows(struct hwt_export *ex)
{
	int err = write_threads(ex);
	return err ? err : write_switches(ex);
}

static int perfdb_finish(struct hwt_export *ex, bool has_time)
{
	(void)has_time;
	struct perfdb *s = impl(ex);
	ex->stats.call_paths += s->paths_before;
	int err = write_last_rows(ex);
	return err ? err : s->be->finish(s->db, s->nsw != 0);
}

static void free_switches(struct perfdb *s)
{
	for (size_t i = 0; i < s->nsw; i++) {
		free(s->sw[i].out_comm);
		free(s->sw[i].in_comm);
	}
	free(s->sw);
	s->sw = NULL;
	s->nsw = s->sw_cap = 0;
}

static int fixed_rows(struct hwt_export *ex);

/* Several captures: each one's rows go to a database of its own, numbered
 * as an export of that capture alone numbers them (its threads, binaries,
 * symbols and call paths from 1), and the backend puts the databases
 * together (sqlite_shards.h). */
static int perfdb_end_capture(struct hwt_export *ex)
{
	struct perfdb *s = impl(ex);
	if (!s->be->next_capture)
		return hwt_error(HWT_ERR_NOSUP, "export --to postgresql takes "
				 "one capture: export the others apart");
	for (size_t i = 0; i < ex->nthreads; i++)
		if (ex->threads[i].n)
			return hwt_error(HWT_ERR_INVAL, "export: a call of thread "
					 "%d is still open at the end of the "
					 "capture", (int)ex->threads[i].tid);
	int err = write_last_rows(ex);
	if (!err)
		err = s->be->next_capture(s->db, s->nsw != 0);
	if (err)
		return err;
	free_switches(s);
	s->dsos_before += s->dsos.n;
	s->symbols_before += s->symbols.n;
	s->paths_before += ex->stats.call_paths;
	ex->stats.call_paths = 0;
	hwt_strmap_free(&s->dsos);
	hwt_strmap_free(&s->symbols);
	hwt_strmap_free(&ex->paths);
	memset(s->cache, 0, sizeof(s->cache));
	s->next_sample = s->next_call = 0;
	hwt_export_forget_threads(ex);
	return fixed_rows(ex);
}

const struct sqlite_shards *hwt_perfdb_shards(const struct hwt_export *ex)
{
	if (ex->fmt != &hwt_export_perfdb_format)
		return NULL;
	const struct perfdb *s = ex->impl;
	return s->be->shards ? s->be->shards(s->db) : NULL;
}

static void perfdb_free(struct hwt_export *ex)
{
	struct perfdb *s = impl(ex);
	if (s->be)
		s->be->free(s->db);
	hwt_strmap_free(&s->dsos);
	hwt_strmap_free(&s->symbols);
	free_switches(s);
	free(s);
}

const struct export_format hwt_export_perfdb_format = {
	.element = perfdb_element,
	.enter = perfdb_enter,
	.exit = perfdb_exit,
	.finish = perfdb_finish,
	.end_capture = perfdb_end_capture,
	.free = perfdb_free,
};

/* The rows with id 0 ("unknown") perf writes first, the event, the host
 * machine, the branch types and the call path tree's root (id 1). */
static int fixed_rows(struct hwt_export *ex)
{
	struct perfdb *s = impl(ex);
	const char *event = ex->opts.event ? ex->opts.event : "branches";
	static const int64_t zeros[MAX_COLUMNS];
	const struct perfdb_val ev0[2] = {I(0), S("unknown")},
				ev1[2] = {I(1), S(event)},
				m0[3] = {I(0), I(0), S("unknown")},
				m1[3] = {I(1), I(-1), S("")},
				th0[5] = {I(0), I(0), I(0), I(-1), I(-1)},
				c0[5] = {I(0), S("unknown"), I(0), I(0), I(0)},
				d0[5] = {I(0), I(0), S("unknown"), S("unknown"),
					 S("")},
				sy0[6] = {I(0), I(0), I(0), I(0), I(0),
					  S("unknown")};
	int err = row(s, PT_SELECTED_EVENTS, ev0);
	if (!err)
		err = row(s, PT_SELECTED_EVENTS, ev1);
	if (!err)
		err = row(s, PT_MACHINES, m0);
	if (!err)
		err = row(s, PT_MACHINES, m1);
	if (!err)
		err = row(s, PT_THREADS, th0);
	if (!err)
		err = row(s, PT_COMMS, c0);
	if (!err)
		err = row(s, PT_DSOS, d0);
	if (!err)
		err = row(s, PT_SYMBOLS, sy0);
	if (!err)
		err = ints(s, ex->opts.all_columns ? PT_SAMPLES_ALL : PT_SAMPLES,
			   zeros);
	if (!err)
		err = ints(s, PT_CALL_PATHS, zeros);
	if (!err)
		err = ints(s, PT_CALLS, zeros);
	const int64_t root[4] = {1, 0, 0, 0};
	if (!err)
		err = ints(s, PT_CALL_PATHS, root);
	/* Each base type alone, with trace begin and with trace end. */
	size_t n = sizeof(perfdb_branch_types) /
		   sizeof(perfdb_branch_types[0]);
	for (size_t i = 0; !err && i < n; i++) {
		const struct perfdb_branch_type *b =
			&perfdb_branch_types[i];
		bool jump = b->id == 1;
		char begin[96], end[96];
		snprintf(begin, sizeof(begin), jump ? "trace begin"
			 : "trace begin / %s", b->name);
		snprintf(end, sizeof(end), jump ? "trace end"
			 : "%s / trace end", b->name);
		const struct perfdb_val rows3[3][2] = {
			{I(b->id), S(b->name)}, {I(b->id | 256), S(begin)},
			{I(b->id | 512), S(end)},
		};
		for (int k = 0; !err && k < 3; k++)
			err = row(s, PT_BRANCH_TYPES, rows3[k]);
	}
	if (err)
		return err;
	bool created;
	uint64_t root_id;
	return hwt_export_path(ex, 0, 0, 0, &root_id, &created);
}

int hwt_perfdb_open(struct hwt_export *ex, const struct perfdb_backend *be,
		    void *db)
{
	if (ex->opts.jobs > 1) {
		int err = hwt_perfdb_thread_new(&be, &db);
		if (err)
			return err;
	}
	struct perfdb *s = calloc(1, sizeof(*s));
	if (!s) {
		be->free(db);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	s->be = be;
	s->db = db;
	ex->impl = s;
	ex->fmt = &hwt_export_perfdb_format;
	return fixed_rows(ex);
}
