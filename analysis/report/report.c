/* Function totals and folded stacks from frames (include/hwtrace/report.h).
 * Each thread keeps the names of its open frames, pushed and popped with
 * them, so a frame's folded stack is known when it ends without asking
 * the namer again. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/func_name.h"
#include "analysis/util/strmap.h"
#include "hwtrace/error.h"
#include "hwtrace/report.h"
#include "hwtrace/text.h"

/* strmap value of a function: its index in funcs, plus one. */
enum { F_INDEX };
/* strmap values of a folded stack: */
enum { S_INSNS, S_TIME, S_CALLS };

struct open_frame {
	size_t func;      /* index in funcs */
	size_t path_len;  /* the folded path up to and including it */
};

struct thread_path {
	int64_t key;
	struct open_frame *v;
	size_t n, cap;
	char *path;       /* "outer;...;inner" of the open frames */
	size_t path_cap;
};

struct hwt_report {
	struct hwt_func_namer namer;
	struct hwt_strmap names;        /* name -> F_INDEX */
	struct hwt_report_func *funcs;
	/* Open activations of each function in each thread ("T:F" ->
	 * v[0]): recursion is a function open twice in one thread. */
	struct hwt_strmap active;
	size_t nfuncs, cap;
	struct hwt_strmap stacks;       /* folded path -> S_* */
	struct thread_path *threads;
	size_t nthreads, threads_cap;
};

static int64_t frame_key(const struct hwt_frame *f)
{
	return f->tid >= 0 ? f->tid : -2 - (int64_t)f->cpu;
}

static struct thread_path *thread_of(struct hwt_report *r,
				     const struct hwt_frame *f)
{
	int64_t key = frame_key(f);
	for (size_t i = r->nthreads; i-- > 0;)
		if (r->threads[i].key == key)
			return &r->threads[i];
	void *grown = r->threads;
	if (!array_grow(&grown, &r->threads_cap, sizeof(*r->threads),
			r->nthreads + 1, 16))
		return NULL;
	r->threads = grown;
	struct thread_path *t = &r->threads[r->nthreads++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	return t;
}

/* The function's index, its entry created on first sight; -1 when out of
 * memory. */
static long func_of(struct hwt_report *r, const struct hwt_frame *f)
{
	char buf[24];
	const char *name = hwt_func_name(&r->namer, f->pid, f->func, buf);
	struct hwt_strmap_entry *e = hwt_strmap_get(&r->names, name,
						    strlen(name));
	if (!e)
		return -1;
	if (e->v[F_INDEX])
		return (long)e->v[F_INDEX] - 1;
	void *grown = r->funcs;
	if (!array_grow(&grown, &r->cap, sizeof(*r->funcs), r->nfuncs + 1, 64))
		return -1;
	r->funcs = grown;
	memset(&r->funcs[r->nfuncs], 0, sizeof(r->funcs[0]));
	r->funcs[r->nfuncs].name = e->key;
	e->v[F_INDEX] = ++r->nfuncs;
	return (long)r->nfuncs - 1;
}

/* Extends the parent's path by the top frame's @name, as a flame graph
 * frame (no spaces or semicolons inside). */
static int path_push(struct thread_path *t, const char *name)
{
	size_t len = t->n > 1 ? t->v[t->n - 2].path_len : 0;
	size_t need = len + 1 + strlen(name) + 1;
	void *grown = t->path;
	if (!array_grow(&grown, &t->path_cap, 1, need, 256))
		return -1;
	t->path = grown;
	if (len)
		t->path[len++] = ';';
	for (const char *c = name; *c; c++)
		t->path[len++] = (*c == ' ' || *c == ';') ? '_' : *c;
	t->path[len] = 0;
	t->v[t->n - 1].path_len = len;
	return 0;
}

/* The count of open activations of @func in thread @t. */
static uint64_t *active_of(struct hwt_report *r, const struct thread_path *t,
			   size_t func)
{
	char key[48];
	int len = snprintf(key, sizeof(key), "%zu:%zu",
			   (size_t)(t - r->threads), func);
	struct hwt_strmap_entry *e = hwt_strmap_get(&r->active, key,
						    (size_t)len);
	return e ? &e->v[0] : NULL;
}

static int frame_enter(void *arg, const struct hwt_frame *f)
{
	struct hwt_report *r = arg;
	struct thread_path *t = thread_of(r, f);
	long func = t ? func_of(r, f) : -1;
	if (func < 0)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	void *grown = t->v;
	if (!array_grow(&grown, &t->cap, sizeof(*t->v), t->n + 1, 64))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->v = grown;
	/* An inferred caller comes in under frames that already ended: it
	 * is the bottom of the stack from now on. */
	if (f->start == HWT_FRAME_INFERRED)
		t->n = 0;
	t->v[t->n++] = (struct open_frame){(size_t)func, 0};
	uint64_t *active = active_of(r, t, (size_t)func);
	if (!active)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	(*active)++;
	if (path_push(t, r->funcs[func].name))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	return 0;
}

static int frame_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_report *r = arg;
	struct thread_path *t = thread_of(r, f);
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!t->n)
		return 0;
	struct open_frame of = t->v[t->n - 1];
	struct hwt_report_func *fn = &r->funcs[of.func];
	fn->frames++;
	if (f->start == HWT_FRAME_CALLED || f->start == HWT_FRAME_TAIL)
		fn->calls++;
	fn->insns_self += f->insns_self;
	fn->branches_self += f->branches_self;
	fn->time_self += f->self_time;
	uint64_t duration = f->has_time ? f->return_time - f->call_time : 0;
	if (f->has_time) {
		fn->timed++;
		fn->duration_sum += duration;
		if (duration > fn->duration_max)
			fn->duration_max = duration;
	}
	/* Recursion: only the outermost activation in its thread adds to
	 * the total. */
	uint64_t *active = active_of(r, t, of.func);
	if (!active)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (*active && --*active == 0) {
		fn->insns_total += f->insns_total;
		fn->time_total += duration;
	}
	struct hwt_strmap_entry *s = hwt_strmap_get(&r->stacks, t->path,
						    of.path_len);
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->v[S_INSNS] += f->insns_self;
	s->v[S_TIME] += f->self_time;
	s->v[S_CALLS]++;
	t->n--;
	if (t->n)
		t->path[t->v[t->n - 1].path_len] = 0;
	return 0;
}


int hwt_report_new(const struct hwt_func_namer *namer,
		   struct hwt_report **report)
{
	struct hwt_report *r = calloc(1, sizeof(*r));
	if (!r)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (namer)
		r->namer = *namer;
	*report = r;
	return 0;
}

void hwt_report_free(struct hwt_report *r)
{
	if (!r)
		return;
	hwt_strmap_free(&r->names);
	hwt_strmap_free(&r->stacks);
	for (size_t i = 0; i < r->nthreads; i++) {
		free(r->threads[i].v);
		free(r->threads[i].path);
	}
	free(r->threads);
	free(r->funcs);
	hwt_strmap_free(&r->active);
	free(r);
}

struct hwt_stack_ops hwt_report_ops(struct hwt_report *r)
{
	struct hwt_stack_ops ops = {
		.on_enter = frame_enter,
		.on_exit = frame_exit,
		.arg = r,
	};
	return ops;
}

const struct hwt_report_func *hwt_report_funcs(const struct hwt_report *r,
					       size_t *count)
{
	*count = r->nfuncs;
	return r->funcs;
}

static int by_self_insns(const void *a, const void *b)
{
	const struct hwt_report_func *x = *(const struct hwt_report_func *const *)a;
	const struct hwt_report_func *y = *(const struct hwt_report_func *const *)b;
	if (x->insns_self != y->insns_self)
		return x->insns_self < y->insns_self ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int io_error(FILE *out)
{
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing the report failed: %s",
				       strerror(errno))
			   : 0;
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int hwt_report_write(const struct hwt_report *r, FILE *out, size_t top,
		     bool has_time)
{
	const struct hwt_report_func **order = malloc((r->nfuncs + 1) *
						      sizeof(*order));
	if (!order)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	uint64_t all = 0, calls = 0;
	for (size_t i = 0; i < r->nfuncs; i++) {
		order[i] = &r->funcs[i];
		all += r->funcs[i].insns_self;
		calls += r->funcs[i].calls;
	}
	qsort(order, r->nfuncs, sizeof(*order), by_self_insns);
	fprintf(out, "# %" PRIu64 " instructions in %zu functions, %" PRIu64
		" calls\n", all, r->nfuncs, calls);
	fprintf(out, "# %12s %7s %12s %7s %9s", "self insns", "self%",
		"total insns", "total%", "calls");
	if (has_time)
		fprintf(out, " %12s %12s %12s %12s", "self time", "total time",
			"avg time", "max time");
	fputs("  function\n", out);
	size_t n = top && top < r->nfuncs ? top : r->nfuncs;
	for (size_t i = 0; i < n; i++) {
		const struct hwt_report_func *f = order[i];
		fprintf(out, "  %12" PRIu64 " %6.2f%% %12" PRIu64 " %6.2f%% %9"
			PRIu64, f->insns_self, percent(f->insns_self, all),
			f->insns_total, percent(f->insns_total, all), f->calls);
		if (has_time)
			fprintf(out, " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
				" %12" PRIu64, f->time_self, f->time_total,
				f->timed ? f->duration_sum / f->timed : 0,
				f->duration_max);
		/* Names come from the traced binaries: never raw control
		 * bytes on a terminal. */
		fputs("  ", out);
		hwt_term_fwrite(out, f->name, strlen(f->name));
		fputc('\n', out);
	}
	free(order);
	return io_error(out);
}

int hwt_report_write_collapsed(const struct hwt_report *r, FILE *out,
			       enum hwt_report_weight weight)
{
	unsigned which = weight == HWT_WEIGHT_TIME ? S_TIME
		       : weight == HWT_WEIGHT_CALLS ? S_CALLS : S_INSNS;
	for (size_t i = 0; i < r->stacks.n; i++) {
		const struct hwt_strmap_entry *e = &r->stacks.e[i];
		/* One stack a line: a newline in a name would cut it. */
		if (e->v[which]) {
			hwt_term_fwrite(out, e->key, strlen(e->key));
			fprintf(out, " %" PRIu64 "\n", e->v[which]);
		}
	}
	return io_error(out);
}
