/* Function totals and folded stacks from frames (include/hwtrace/report.h).
 * Each thread keeps the names of its open frames, pushed and popped with
 * them, so a frame's folded stack is known when it ends without asking
 * the namer again. A caller inferred after its callees ended (the trace
 * began inside main, main returned) was their caller all along: each
 * stack remembers the run of stacks it belongs to (a segment: from the
 * thread's start, or a cut, to the next cut) and how many such callers
 * were known when it ended, and the callers found later are put in front
 * of it when the stacks are written. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/func_name.h"
#include "analysis/util/strmap.h"
#include "hwtrace/error.h"
#include "analysis/report/report_internal.h"
#include "hwtrace/text.h"

/* Adds the stacks of segment @g to @tree, each with the callers found
 * after it ended in front: a stack that ended when K callers were known
 * goes under callers[n - 1] ... callers[K], outermost first. */
static int segment_fold(const struct hwt_report *r, struct call_tree *tree,
			const struct segment *g, uint64_t **prefix,
			size_t *prefix_cap)
{
	/* (*prefix)[K]: the node of the callers' path above a stack that
	 * ended when K were known. */
	void *grown = *prefix;
	if (!array_grow(&grown, prefix_cap, sizeof(**prefix), g->n + 1, 16))
		return -1;
	*prefix = grown;
	uint64_t *above = *prefix;
	above[g->n] = 0;
	for (size_t k = g->n; k-- > 0;)
		if (!(above[k] = call_tree_child(tree, above[k + 1],
						 g->callers[k])))
			return -1;
	(void)r;
	for (size_t i = 0; i < g->stacks.n; i++) {
		const struct hwt_pairmap_entry *e = &g->stacks.e[i];
		uint64_t node = e->a < g->n ? call_tree_graft(tree, above[e->a],
							       e->b)
					    : e->b;
		if (!node)
			return -1;
		uint64_t *v = call_tree_values(tree, node);
		for (unsigned w = S_INSNS; w <= S_CALLS; w++)
			v[w] += e->v[w];
		v[S_SEEN] = 1;
	}
	return 0;
}

/* Ends @t's segment (its callers are all known: they go into the tree)
 * and starts the next: its stack starts over. */
static int segment_start(struct hwt_report *r, struct thread_path *t)
{
	if (segment_fold(r, &r->tree, &t->seg, &r->prefix, &r->prefix_cap))
		return -1;
	t->seg.n = 0;
	hwt_pairmap_clear(&t->seg.stacks);
	return 0;
}

/* The caller @frame found under the stacks of @t's segment. */
static int segment_add_caller(struct thread_path *t, uint64_t frame)
{
	struct segment *g = &t->seg;
	void *grown = g->callers;
	if (!array_grow(&grown, &g->cap, sizeof(*g->callers), g->n + 1, 4))
		return -1;
	g->callers = grown;
	g->callers[g->n++] = frame;
	return 0;
}

static void segment_free(struct segment *g)
{
	free(g->callers);
	hwt_pairmap_free(&g->stacks);
}

static int64_t frame_key(const struct hwt_frame *f)
{
	return f->tid >= 0 ? f->tid : -2 - (int64_t)f->cpu;
}

static struct thread_path *thread_of(struct hwt_report *r,
				     const struct hwt_frame *f)
{
	return report_thread(r, frame_key(f));
}

struct thread_path *report_thread(struct hwt_report *r, int64_t key)
{
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

struct hwt_strmap_entry *report_row(struct hwt_strmap *rows,
				    struct hwt_strmap *dsos, const char *dso,
				    const char *name, const char **name_out,
				    const char **dso_out)
{
	if (!dso)
		dso = "[unknown]";
	size_t dlen = strlen(dso), nlen = strlen(name);
	struct hwt_strmap_entry *d = hwt_strmap_get(dsos, dso, dlen);
	char small[256], *key = dlen + nlen + 2 <= sizeof(small)
					? small : malloc(dlen + nlen + 2);
	if (!d || !key)
		return NULL;
	memcpy(key, dso, dlen);
	key[dlen] = '/';
	memcpy(key + dlen + 1, name, nlen + 1);
	struct hwt_strmap_entry *e = hwt_strmap_get(rows, key, dlen + 1 + nlen);
	if (key != small)
		free(key);
	if (e) {
		*name_out = e->key + dlen + 1;
		*dso_out = d->key;
	}
	return e;
}

/* The interned name of @f's thread ("[unknown]" when none is known);
 * NULL when out of memory. */
static const char *thread_comm(struct hwt_report *r, const struct hwt_frame *f)
{
	const char *name = r->comm && f->tid >= 0
				   ? r->comm(r->comm_arg, f->pid, f->tid)
				   : NULL;
	if (!name)
		name = "[unknown]";
	struct hwt_strmap_entry *e = hwt_strmap_get(&r->comms, name, strlen(name));
	return e ? e->key : NULL;
}

/* The function's index, its entry (and its folded name's frame id)
 * created on first sight; -1 when out of memory. */
static long func_of(struct hwt_report *r, const struct hwt_frame *f,
		    uint64_t *frame)
{
	char buf[24];
	const char *name = hwt_func_name(&r->namer, f->pid, f->func, buf);
	const char *dso = r->namer.dso ? r->namer.dso(r->namer.arg, f->pid,
						      f->func)
				       : NULL;
	const char *row_name = NULL, *row_dso = NULL, *comm = NULL;
	char *keyed = NULL;
	size_t plen = 0;
	/* Rows by thread: the binary's key gets the thread (or its name)
	 * in front, "T815\x1f" or "Cname\x1f" (no binary name holds 0x1f),
	 * so one function is a row per thread. */
	if (r->rows_by_tid || r->rows_by_comm) {
		if (!(comm = thread_comm(r, f)))
			return -1;
		if (!dso)
			dso = "[unknown]";
		char tid[24];
		snprintf(tid, sizeof(tid), "T%" PRId32, f->tid);
		const char *who = r->rows_by_tid ? tid : comm;
		plen = strlen(who) + 1 + (r->rows_by_tid ? 0 : 1);
		keyed = malloc(plen + strlen(dso) + 1);
		if (!keyed)
			return -1;
		sprintf(keyed, "%s%s\x1f%s", r->rows_by_tid ? "" : "C", who, dso);
		dso = keyed;
	}
	struct hwt_strmap_entry *e = report_row(&r->names, &r->dsos, dso, name,
						&row_name, &row_dso);
	free(keyed);
	if (!e)
		return -1;
	if (e->v[F_INDEX]) {
		*frame = e->v[F_FRAME];
		return (long)e->v[F_INDEX] - 1;
	}
	if (call_tree_frame(&r->frames, row_name, frame))
		return -1;
	void *grown = r->funcs;
	if (!array_grow(&grown, &r->cap, sizeof(*r->funcs), r->nfuncs + 1, 64))
		return -1;
	r->funcs = grown;
	memset(&r->funcs[r->nfuncs], 0, sizeof(r->funcs[0]));
	r->funcs[r->nfuncs].name = row_name;
	r->funcs[r->nfuncs].dso = row_dso + plen;
	r->funcs[r->nfuncs].pid = comm ? f->pid : -1;
	r->funcs[r->nfuncs].tid = comm ? f->tid : -1;
	r->funcs[r->nfuncs].comm = comm;
	e->v[F_INDEX] = ++r->nfuncs;
	e->v[F_FRAME] = *frame;
	return (long)r->nfuncs - 1;
}

uint64_t *report_stack(struct thread_path *t, uint64_t node)
{
	struct hwt_pairmap_entry *e = hwt_pairmap_get(&t->seg.stacks, t->seg.n,
						      node);
	return e ? e->v : NULL;
}

size_t report_frame_append(char **buf, size_t *cap, size_t len,
			   const char *name)
{
	void *grown = *buf;
	if (!array_grow(&grown, cap, 1, len + 1 + strlen(name) + 1, 256))
		return 0;
	*buf = grown;
	if (len)
		(*buf)[len++] = ';';
	for (const char *c = name; *c; c++)
		(*buf)[len++] = (*c == ' ' || *c == ';') ? '_' : *c;
	(*buf)[len] = 0;
	return len;
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
	uint64_t frame = 0;
	long func = t ? func_of(r, f, &frame) : -1;
	if (func < 0)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	void *grown = t->v;
	if (!array_grow(&grown, &t->cap, sizeof(*t->v), t->n + 1, 64))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->v = grown;
	/* An inferred caller comes in under frames that already ended: it
	 * is the bottom of the stack from now on, and the caller of the
	 * segment's stacks so far; an inferred frame at depth 0 starts a
	 * stack of its own. */
	if (f->start == HWT_FRAME_INFERRED) {
		t->n = 0;
		int err = f->depth < 0 ? segment_add_caller(t, frame)
				       : segment_start(r, t);
		if (err)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	uint64_t parent = t->n ? t->v[t->n - 1].node : 0;
	uint64_t node = call_tree_child(&r->tree, parent, frame);
	if (!node)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->v[t->n++] = (struct open_frame){(size_t)func, node};
	uint64_t *active = active_of(r, t, (size_t)func);
	if (!active)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	(*active)++;
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
	bool call = hwt_frame_is_call(f);
	fn->calls += call;
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
	uint64_t *s = report_stack(t, of.node);
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	/* By source line, the instructions count where they ran. */
	if (!r->lines.line)
		s[S_INSNS] += f->insns_self;
	s[S_TIME] += f->self_time;
	s[S_CALLS] += call;
	t->n--;
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
	hwt_strmap_free(&r->dsos);
	hwt_strmap_free(&r->comms);
	call_tree_free(&r->tree);
	hwt_strmap_free(&r->frames);
	free(r->prefix);
	free(r->time_unit);
	free(r->time_meaning);
	hwt_strmap_free(&r->line_rows);
	hwt_strmap_free(&r->addr_lines);
	hwt_strmap_free(&r->leaves);
	free(r->leaf_frames);
	for (size_t i = 0; i < r->nthreads; i++) {
		free(r->threads[i].v);
		segment_free(&r->threads[i].seg);
	}
	free(r->threads);
	free(r->funcs);
	hwt_strmap_free(&r->active);
	free(r);
}

int hwt_report_set_time(struct hwt_report *r, const char *unit,
			const char *meaning)
{
	char *u = unit ? strdup(unit) : NULL;
	char *m = meaning ? strdup(meaning) : NULL;
	if ((unit && !u) || (meaning && !m)) {
		free(u);
		free(m);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	free(r->time_unit);
	free(r->time_meaning);
	r->time_unit = u;
	r->time_meaning = m;
	return 0;
}

static int hidden_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_report *r = arg;
	r->hidden = true;
	r->hidden_insns += f->insns_self;
	return 0;
}

struct hwt_stack_ops hwt_report_hidden_ops(struct hwt_report *r)
{
	struct hwt_stack_ops ops = {.on_exit = hidden_exit, .arg = r};
	return ops;
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

/* qsort has no argument for its comparison: the keys of the sort under
 * way, one per thread. */
static _Thread_local const struct report_sort *sorting;

static int by_count(uint64_t x, uint64_t y)
{
	return x == y ? 0 : x < y ? 1 : -1;
}

static int by_key(const struct hwt_report_func *x,
		  const struct hwt_report_func *y, enum hwt_report_sort_key k)
{
	switch (k) {
	case HWT_SORT_SELF:
		return by_count(x->insns_self, y->insns_self);
	case HWT_SORT_TOTAL:
		return by_count(x->insns_total, y->insns_total);
	case HWT_SORT_CALLS:
		return by_count(x->calls, y->calls);
	case HWT_SORT_DSO:
		return strcmp(x->dso, y->dso);
	case HWT_SORT_SYM:
		return strcmp(x->name, y->name);
	case HWT_SORT_TID:
		return x->tid == y->tid ? 0 : x->tid < y->tid ? -1 : 1;
	case HWT_SORT_COMM:
		return strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
	}
	return 0;
}

static int by_sort(const void *a, const void *b)
{
	const struct hwt_report_func *x = *(const struct hwt_report_func *const *)a;
	const struct hwt_report_func *y = *(const struct hwt_report_func *const *)b;
	static const enum hwt_report_sort_key ties[] = {
		HWT_SORT_SELF, HWT_SORT_SYM, HWT_SORT_DSO,
	};
	int c = 0;
	for (size_t i = 0; !c && i < sorting->n; i++)
		c = by_key(x, y, sorting->keys[i]);
	for (size_t i = 0; !c && i < sizeof(ties) / sizeof(ties[0]); i++)
		c = by_key(x, y, ties[i]);
	return c;
}

int hwt_report_set_sort(struct hwt_report *r,
			const enum hwt_report_sort_key *keys, size_t n)
{
	if (!n || n > HWT_REPORT_SORT_MAX)
		return hwt_error(HWT_ERR_INVAL, "a report sorts by 1 to %d keys, "
				 "not %zu", HWT_REPORT_SORT_MAX, n);
	bool tid = false, comm = false;
	for (size_t i = 0; i < n; i++) {
		if (keys[i] > HWT_SORT_COMM)
			return hwt_error(HWT_ERR_INVAL, "no sort key %d",
					 (int)keys[i]);
		tid |= keys[i] == HWT_SORT_TID;
		comm |= keys[i] == HWT_SORT_COMM;
	}
	if ((tid || comm) && r->nfuncs)
		return hwt_error(HWT_ERR_INVAL, "a report splits its rows by "
				 "thread only when told before the first frame");
	memcpy(r->sort.keys, keys, n * sizeof(*keys));
	r->sort.n = n;
	r->rows_by_tid = tid;
	r->rows_by_comm = comm && !tid;
	return 0;
}

void hwt_report_set_comm(struct hwt_report *r,
			 const char *(*comm)(void *arg, int32_t pid, int32_t tid),
			 void *arg)
{
	r->comm = comm;
	r->comm_arg = arg;
}

void hwt_report_set_children(struct hwt_report *r, bool children)
{
	r->children = children;
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

/* The bytes @s takes on a terminal (escaped): binaries' names are ASCII
 * but for rare exceptions, so bytes pad the column well enough. */
static size_t term_len(const char *s)
{
	return hwt_term_escape(NULL, 0, s, strlen(s));
}

/* The width of the dso column (or with @comm the comm column) over the
 * first @n rows of @order: the widest name, at least @least, at most 64. */
static int column_width(const struct hwt_report_func *const *order, size_t n,
			int least, bool comm)
{
	int width = least;
	for (size_t i = 0; i < n; i++) {
		const char *s = comm ? order[i]->comm : order[i]->dso;
		size_t w = term_len(s ? s : "[unknown]");
		if (w > (size_t)width)
			width = w > 64 ? 64 : (int)w;
	}
	return width;
}

/* "  NAME" escaped for a terminal, padded to @width. */
static void write_padded(FILE *out, const char *name, int width)
{
	fputs("  ", out);
	size_t w = term_len(name);
	hwt_term_fwrite(out, name, strlen(name));
	fprintf(out, "%*s", w < (size_t)width ? width - (int)w : 0, "");
}

int report_write_table(const struct hwt_report_func *funcs, size_t nfuncs,
		       const char *time_unit, const char *time_meaning,
		       FILE *out, size_t top, bool has_time, bool children,
		       const struct report_sort *sort, const uint64_t *hidden)
{
	static const struct report_sort by_self = {{HWT_SORT_SELF}, 1},
					by_total = {{HWT_SORT_TOTAL}, 1};
	if (!sort || !sort->n)
		sort = children ? &by_total : &by_self;
	const struct hwt_report_func **order = malloc((nfuncs + 1) *
						      sizeof(*order));
	if (!order)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	uint64_t all = 0, calls = 0;
	for (size_t i = 0; i < nfuncs; i++) {
		order[i] = &funcs[i];
		all += funcs[i].insns_self;
		calls += funcs[i].calls;
	}
	sorting = sort;
	qsort(order, nfuncs, sizeof(*order), by_sort);
	fprintf(out, "# %" PRIu64 " instructions in %zu functions, %" PRIu64
		" calls (tail calls and signal/trap entries included)\n", all,
		nfuncs, calls);
	if (hidden) {
		fprintf(out, "# filtered: %" PRIu64 " instructions of the "
			"trace in frames filtered out; the percentages are "
			"of all %" PRIu64 "\n", *hidden, all + *hidden);
		all += *hidden;
	}
	if (has_time && time_meaning)
		fprintf(out, "# time: %s\n", time_meaning);
	fprintf(out, "# %12s %7s %12s %7s %9s", "self insns", "self%",
		"total insns", "total%", "calls");
	const char *unit = time_unit ? time_unit : "ns";
	if (has_time) {
		char head[4][24];
		const char *what[] = {"self", "total", "avg", "max"};
		for (int i = 0; i < 4; i++)
			snprintf(head[i], sizeof(head[i]), "%s %s", what[i], unit);
		fprintf(out, " %12s %12s %12s %12s", head[0], head[1], head[2],
			head[3]);
	}
	size_t n = top && top < nfuncs ? top : nfuncs;
	/* The binaries' and threads' names are as wide as the widest shown. */
	bool show_tid = false, show_comm = false;
	for (size_t i = 0; i < sort->n; i++) {
		show_tid |= sort->keys[i] == HWT_SORT_TID;
		show_comm |= sort->keys[i] == HWT_SORT_COMM;
	}
	int dso_width = column_width(order, n, 3, false);
	int comm_width = show_comm ? column_width(order, n, 4, true) : 0;
	if (show_tid)
		fprintf(out, "  %7s", "tid");
	if (show_comm)
		fprintf(out, "  %-*s", comm_width, "comm");
	fprintf(out, "  %-*s  function\n", dso_width, "dso");
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
		if (show_tid)
			fprintf(out, "  %7" PRId32, f->tid);
		/* Names come from the traced binaries and programs: never
		 * raw control bytes on a terminal. */
		if (show_comm)
			write_padded(out, f->comm ? f->comm : "[unknown]", comm_width);
		write_padded(out, f->dso, dso_width);
		fputs("  ", out);
		hwt_term_fwrite(out, f->name, strlen(f->name));
		fputc('\n', out);
	}
	free(order);
	return io_error(out);
}

int hwt_report_write(const struct hwt_report *r, FILE *out, size_t top,
		     bool has_time)
{
	if (r->lines.line)
		return report_write_lines(r, out, top);
	return report_write_table(r->funcs, r->nfuncs, r->time_unit,
				  r->time_meaning, out, top, has_time,
				  r->children, &r->sort,
				  r->hidden ? &r->hidden_insns : NULL);
}

/* *@tree: the report's tree with the live threads' segments added (their
 * callers found so far in front), so that writing does not end them. */
static int final_tree(const struct hwt_report *r, struct call_tree *tree)
{
	if (r->stacks_lost)
		return hwt_error(HWT_ERR_NOMEM, "out of memory while ending a "
				 "capture: its stacks are incomplete");
	uint64_t *prefix = NULL;
	size_t prefix_cap = 0;
	int err = call_tree_copy(tree, &r->tree);
	for (size_t i = 0; i < r->nthreads && !err; i++)
		err = segment_fold(r, tree, &r->threads[i].seg, &prefix,
				   &prefix_cap);
	free(prefix);
	if (err) {
		call_tree_free(tree);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	return 0;
}

int report_full_stacks(const struct hwt_report *r, struct hwt_strmap *full)
{
	struct call_tree tree;
	int err = final_tree(r, &tree);
	if (err)
		return err;
	err = call_tree_add_text(&tree, &r->frames, full);
	call_tree_free(&tree);
	return err;
}

static int by_stack(const void *a, const void *b)
{
	const struct hwt_strmap_entry *x = *(const struct hwt_strmap_entry *const *)a;
	const struct hwt_strmap_entry *y = *(const struct hwt_strmap_entry *const *)b;
	return strcmp(x->key, y->key);
}

int report_write_folded(const struct hwt_strmap *full, unsigned which,
			FILE *out)
{
	const struct hwt_strmap_entry **order = malloc((full->n + 1) *
						       sizeof(*order));
	if (!order)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < full->n; i++)
		order[i] = &full->e[i];
	qsort(order, full->n, sizeof(*order), by_stack);
	/* One stack a line: a newline in a name would cut it. */
	for (size_t i = 0; i < full->n; i++)
		if (order[i]->v[which]) {
			hwt_term_fwrite(out, order[i]->key, strlen(order[i]->key));
			fprintf(out, " %" PRIu64 "\n", order[i]->v[which]);
		}
	free(order);
	return io_error(out);
}

unsigned report_weight_slot(enum hwt_report_weight weight)
{
	return weight == HWT_WEIGHT_TIME ? S_TIME
	     : weight == HWT_WEIGHT_CALLS ? S_CALLS : S_INSNS;
}

int hwt_report_write_collapsed(const struct hwt_report *r, FILE *out,
			       enum hwt_report_weight weight)
{
	struct call_tree tree;
	int err = final_tree(r, &tree);
	if (err)
		return err;
	err = call_tree_write_folded(&tree, &r->frames,
				     report_weight_slot(weight), out);
	call_tree_free(&tree);
	return err;
}

void hwt_report_end_capture(struct hwt_report *r)
{
	/* A capture's threads are not the next one's (their tids may be
	 * reused): each starts over, in segments of its own, with nothing
	 * open. Their callers are all known now. */
	for (size_t i = 0; i < r->nthreads; i++) {
		struct thread_path *t = &r->threads[i];
		if (segment_fold(r, &r->tree, &t->seg, &r->prefix,
				 &r->prefix_cap))
			r->stacks_lost = true;
		free(t->v);
		segment_free(&t->seg);
	}
	r->nthreads = 0;
	hwt_strmap_free(&r->active);
	memset(&r->active, 0, sizeof(r->active));
}
