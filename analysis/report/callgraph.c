/* Caller -> callee edges from frames (include/hwtrace/callgraph.h), and
 * their tables: the callers or callees of one function, or every
 * function with both. Edges and functions live in string maps keyed by
 * "TID\x1fCALLER\x1fCALLEE" and "TID\x1fFUNCTION" (TID -1 when merged),
 * so a name from the namer is copied once, into its key. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/func_name.h"
#include "analysis/util/strmap.h"
#include "hwtrace/callgraph.h"
#include "hwtrace/error.h"
#include "hwtrace/text.h"

/* strmap values of an edge and of a function. */
enum { V_CALLS, V_FRAMES, V_INSNS_SELF, V_INSNS_TOTAL, V_TIME_SELF,
       V_TIME_TOTAL };

struct hwt_callgraph {
	struct hwt_func_namer namer;
	struct hwt_callgraph_opts opts;
	struct hwt_strmap edges, funcs;
	struct hwt_callgraph_edge *view; /* hwt_callgraph_edges' answer */
	char *view_names;
	char *key;
	size_t key_cap;
};

int hwt_callgraph_new(const struct hwt_func_namer *namer,
		      const struct hwt_callgraph_opts *opts,
		      struct hwt_callgraph **graph)
{
	if (!opts || opts->size < sizeof(*opts))
		return hwt_error(HWT_ERR_INVAL, "hwt_callgraph_opts: size not set");
	struct hwt_callgraph *g = calloc(1, sizeof(*g));
	if (!g)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (namer)
		g->namer = *namer;
	g->opts = *opts;
	*graph = g;
	return 0;
}

void hwt_callgraph_free(struct hwt_callgraph *g)
{
	if (!g)
		return;
	hwt_strmap_free(&g->edges);
	hwt_strmap_free(&g->funcs);
	free(g->view);
	free(g->view_names);
	free(g->key);
	free(g);
}

/* Appends @s to the scratch key at @len (a '\x1f' before it unless
 * first); returns the new length, 0 when out of memory. */
static size_t key_append(struct hwt_callgraph *g, size_t len, const char *s)
{
	size_t n = strlen(s);
	void *grown = g->key;
	if (!array_grow(&grown, &g->key_cap, 1, len + 1 + n + 1, 256))
		return 0;
	g->key = grown;
	if (len)
		g->key[len++] = '\x1f';
	memcpy(g->key + len, s, n + 1);
	return len + n;
}

/* Whether another activation of @f's function encloses @f. */
static bool enclosed(const struct hwt_frame *f)
{
	for (const struct hwt_frame *c = f->caller; c; c = c->caller)
		if (c->func == f->func && c->pid == f->pid)
			return true;
	return false;
}

static void add(uint64_t *v, const struct hwt_frame *f, bool total)
{
	uint64_t duration = f->has_time ? f->return_time - f->call_time : 0;
	v[V_CALLS] += hwt_frame_is_call(f);
	v[V_FRAMES]++;
	v[V_INSNS_SELF] += f->insns_self;
	v[V_TIME_SELF] += f->self_time;
	if (total) {
		v[V_INSNS_TOTAL] += f->insns_total;
		v[V_TIME_TOTAL] += duration;
	}
}

static int frame_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_callgraph *g = arg;
	char tid[16], buf[24];
	snprintf(tid, sizeof(tid), "%" PRId32, g->opts.per_thread ? f->tid : -1);
	size_t len = key_append(g, 0, tid);
	const char *caller = f->caller ? hwt_func_name(&g->namer, f->caller->pid,
						       f->caller->func, buf)
				       : "-";
	size_t at_callee = len ? key_append(g, len, caller) : 0;
	const char *callee = hwt_func_name(&g->namer, f->pid, f->func, buf);
	size_t elen = at_callee ? key_append(g, at_callee, callee) : 0;
	struct hwt_strmap_entry *e = elen ? hwt_strmap_get(&g->edges, g->key, elen)
					  : NULL;
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	add(e->v, f, true);
	/* The function's own row: "TID\x1fCALLEE", cut out of the edge's. */
	memmove(g->key + len + 1, g->key + at_callee + 1, elen - at_callee);
	e = hwt_strmap_get(&g->funcs, g->key, len + elen - at_callee);
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	add(e->v, f, !enclosed(f));
	return 0;
}

struct hwt_stack_ops hwt_callgraph_ops(struct hwt_callgraph *g)
{
	struct hwt_stack_ops ops = {.on_exit = frame_exit, .arg = g};
	return ops;
}

/* The parts of an entry: its tid, and pointers into its key for the
 * names (NUL-terminated copies in @names). */
static void edge_of(const struct hwt_strmap_entry *e, char *names,
		    struct hwt_callgraph_edge *out, bool is_edge)
{
	strcpy(names, e->key);
	char *a = strchr(names, '\x1f');
	*a++ = 0;
	out->tid = (int32_t)strtol(names, NULL, 10);
	if (is_edge) {
		char *b = strchr(a, '\x1f');
		*b++ = 0;
		out->caller = a;
		out->callee = b;
	} else {
		out->caller = NULL;
		out->callee = a;
	}
	out->calls = e->v[V_CALLS];
	out->frames = e->v[V_FRAMES];
	out->insns_self = e->v[V_INSNS_SELF];
	out->insns_total = e->v[V_INSNS_TOTAL];
	out->time_self = e->v[V_TIME_SELF];
	out->time_total = e->v[V_TIME_TOTAL];
}

/* A map's entries as edges, their names in one block (@block, freed by
 * the caller); NULL when out of memory. */
static struct hwt_callgraph_edge *entries(const struct hwt_strmap *m,
					  bool is_edge, char **block)
{
	size_t bytes = 1;
	for (size_t i = 0; i < m->n; i++)
		bytes += strlen(m->e[i].key) + 1;
	struct hwt_callgraph_edge *v = calloc(m->n + 1, sizeof(*v));
	char *names = malloc(bytes);
	if (!v || !names) {
		free(v);
		free(names);
		return NULL;
	}
	char *at = names;
	for (size_t i = 0; i < m->n; i++) {
		edge_of(&m->e[i], at, &v[i], is_edge);
		at += strlen(m->e[i].key) + 1;
	}
	*block = names;
	return v;
}

const struct hwt_callgraph_edge *
hwt_callgraph_edges(const struct hwt_callgraph *cg, size_t *count)
{
	/* The answer is kept (as report's funcs are) until the next call. */
	struct hwt_callgraph *g = (struct hwt_callgraph *)cg;
	free(g->view);
	free(g->view_names);
	g->view = entries(&g->edges, true, &g->view_names);
	*count = g->view ? g->edges.n : 0;
	return g->view;
}

static int by_total(const void *a, const void *b)
{
	const struct hwt_callgraph_edge *x = a, *y = b;
	if (x->insns_total != y->insns_total)
		return x->insns_total < y->insns_total ? 1 : -1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	int c = strcmp(x->caller ? x->caller : "", y->caller ? y->caller : "");
	return c ? c : strcmp(x->callee, y->callee);
}

static int by_self(const void *a, const void *b)
{
	const struct hwt_callgraph_edge *x = a, *y = b;
	if (x->insns_self != y->insns_self)
		return x->insns_self < y->insns_self ? 1 : -1;
	return by_total(a, b);
}

static void header(const struct hwt_callgraph *g, FILE *out, bool has_time,
		   const char *what)
{
	fprintf(out, "# %11s %12s %12s", "calls", "self insns", "total insns");
	if (has_time) {
		const char *unit = g->opts.time_unit ? g->opts.time_unit : "ns";
		char self[24], total[24];
		snprintf(self, sizeof(self), "self %s", unit);
		snprintf(total, sizeof(total), "total %s", unit);
		fprintf(out, " %12s %12s", self, total);
	}
	if (g->opts.per_thread)
		fprintf(out, " %8s", "tid");
	fprintf(out, "  %s\n", what);
}

static void row(const struct hwt_callgraph *g, FILE *out, bool has_time,
		const char *mark, const struct hwt_callgraph_edge *e,
		const char *name)
{
	fprintf(out, "%-2s%11" PRIu64 " %12" PRIu64 " %12" PRIu64, mark,
		e->calls, e->insns_self, e->insns_total);
	if (has_time)
		fprintf(out, " %12" PRIu64 " %12" PRIu64, e->time_self,
			e->time_total);
	if (g->opts.per_thread)
		fprintf(out, " %8" PRId32, e->tid);
	/* Names come from the traced binaries: no raw control bytes. */
	fputs("  ", out);
	hwt_term_fwrite(out, name, strlen(name));
	fputc('\n', out);
}

static int io_error(FILE *out)
{
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing the call graph "
				       "failed: %s", strerror(errno))
			   : 0;
}

int hwt_callgraph_write_peek(const struct hwt_callgraph *g, FILE *out,
			     const char *func, bool callees, bool has_time)
{
	char *names = NULL;
	struct hwt_callgraph_edge *v = entries(&g->edges, true, &names);
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < g->edges.n; i++)
		if (!strcmp(callees ? v[i].caller : v[i].callee, func))
			v[n++] = v[i];
	int err = 0;
	if (!n) {
		err = hwt_error(HWT_ERR_NOENT, "no function named %s %s in this "
				"trace (`hwtrace report FILE --top 0` lists the "
				"functions that ran, by the names used here)",
				func, callees ? "called anything" : "was called");
	} else {
		qsort(v, n, sizeof(*v), by_total);
		fprintf(out, "# %s of %s%s; each row: the calls from caller to "
			"callee and what those activations of the callee cost\n",
			callees ? "callees" : "callers", func,
			g->opts.per_thread ? ", per thread" : "");
		header(g, out, has_time, callees ? "callee" : "caller");
		for (size_t i = 0; i < n; i++)
			row(g, out, has_time, "", &v[i],
			    callees ? v[i].callee : v[i].caller);
		err = io_error(out);
	}
	free(v);
	free(names);
	return err;
}

int hwt_callgraph_write(const struct hwt_callgraph *g, FILE *out, size_t top,
			bool has_time)
{
	char *enames = NULL, *fnames = NULL;
	struct hwt_callgraph_edge *ev = entries(&g->edges, true, &enames);
	struct hwt_callgraph_edge *fv = ev ? entries(&g->funcs, false, &fnames)
					   : NULL;
	int err = 0;
	if (!fv) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		goto out;
	}
	qsort(fv, g->funcs.n, sizeof(*fv), g->opts.children ? by_total : by_self);
	qsort(ev, g->edges.n, sizeof(*ev), by_total);
	fprintf(out, "# every function by %s instructions, its callers (<-) "
		"above it and its callees (->) below it\n",
		g->opts.children ? "total" : "self");
	header(g, out, has_time, "function");
	size_t n = top && top < g->funcs.n ? top : g->funcs.n;
	for (size_t i = 0; i < n; i++) {
		const struct hwt_callgraph_edge *f = &fv[i];
		for (size_t j = 0; j < g->edges.n; j++)
			if (ev[j].tid == f->tid && !strcmp(ev[j].callee, f->callee))
				row(g, out, has_time, "<-", &ev[j], ev[j].caller);
		row(g, out, has_time, "", f, f->callee);
		for (size_t j = 0; j < g->edges.n; j++)
			if (ev[j].tid == f->tid && !strcmp(ev[j].caller, f->callee))
				row(g, out, has_time, "->", &ev[j], ev[j].callee);
		fputc('\n', out);
	}
	err = io_error(out);
out:
	free(ev);
	free(fv);
	free(enames);
	free(fnames);
	return err;
}
