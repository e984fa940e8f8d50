/* pprof export: a gzip-compressed profile.proto (export/profile.proto,
 * pprof's field numbers). A location per function entered (its address,
 * the binary's mapping, the function's name and, with source lines, its
 * file and line and the functions inlined there); one sample per distinct
 * call stack and thread, whose values are what its leaf frame executed
 * itself: instructions, taken branches and, with time, nanoseconds.
 * What each capture adds goes into one profile identified by content
 * (pprof_profile.h), written in its canonical order (pprof_write.c), so
 * that several captures, or the merge of their partial results, give the
 * same bytes whatever their order. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/export_internal.h"
#include "analysis/export/pprof_profile.h"
#include "hwtrace/error.h"

/* samples' strmap values (V_PATH: the leaf's path; thread index + 1,
 * cpu + 1): */
enum { V_PATH, S_INSNS, S_BRANCHES, S_TIME, S_THREAD, S_CPU };

struct path {
	uint64_t parent;
	size_t loc;                   /* index in the profile's locations */
};

struct pprof_export {
	struct pprof_profile prof;    /* every capture's, added up */
	/* This capture's: */
	struct hwt_strmap locations;  /* "pid:addr" -> v[0] index + 1 */
	struct hwt_strmap samples;    /* "thread:cpu:path" -> V_PATH, S_* */
	struct pprof_line *lines;     /* one location's, while built */
	size_t lines_cap;
	struct path *paths;           /* by path id - 1 */
	size_t paths_cap;
	/* Branch records (HWT_FIELD_SAMPLED): how many, and their samples'
	 * periods, which the profile names in a comment. */
	uint64_t records, period_min, period_max;
};

static struct pprof_export *impl(struct hwt_export *ex)
{
	return ex->impl;
}

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

static int add_line(struct pprof_export *p, size_t *n, const char *name,
		    const char *file, int64_t line, int64_t start_line)
{
	if (hwt_export_grow(&p->lines, &p->lines_cap, *n, sizeof(*p->lines)))
		return -1;
	p->lines[(*n)++] = (struct pprof_line){
		name, file ? file : "", line > 0 ? (uint64_t)line : 0,
		start_line > 0 ? (uint64_t)start_line : 0,
	};
	return 0;
}

/* The location of the function entered at @addr in process @pid. */
static int location_id(struct hwt_export *ex, int32_t pid, uint64_t addr,
		       size_t *id)
{
	struct pprof_export *p = impl(ex);
	struct hwt_symbol sym;
	int rc = ex->opts.sym ? hwt_symbolizer_lookup(ex->opts.sym,
						       pid < 0 ? HWT_PID_ANY : pid,
						       addr, &sym)
			      : 0;
	if (rc < 0)
		return rc;
	/* Frames of one function share its location: key by its start. */
	uint64_t at = rc == 1 && sym.name ? sym.start : addr;
	char key[48];
	int len = snprintf(key, sizeof(key), "%d:%" PRIx64, (int)pid, at);
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->locations, key,
						    (size_t)len);
	if (!e)
		return nomem();
	if (e->v[0]) {
		*id = e->v[0] - 1;
		return 0;
	}
	struct pprof_loc l = {.pid = pid < 0 ? -1 : pid, .addr = at};
	if (rc == 1 && sym.dso) {
		struct pprof_map m = {
			sym.dso, hwt_export_build_id(ex, sym.dso),
			at - sym.dso_offset,
		};
		if (!(l.map = pprof_add_map(&p->prof, &m)))
			return nomem();
	}
	char hex[512];
	const char *name = rc == 1 && sym.name ? sym.name : NULL;
	if (!name && rc == 1 && hwt_symbol_dso_name(&sym, hex, sizeof(hex))) {
		name = hex;
		ex->stats.unknown_addrs++;
	} else if (!name) {
		snprintf(hex, sizeof(hex), "0x%" PRIx64, addr);
		name = hex;
		ex->stats.unknown_addrs++;
	}
	/* Inlined functions first, the function holding the code last. */
	size_t n = 0;
	for (size_t i = 0; rc == 1 && i + 1 < sym.ninlines; i++) {
		const struct hwt_sym_frame *f = &sym.inlines[i];
		if (add_line(p, &n, f->name ? f->name : "??", f->file, f->line,
			     0))
			return nomem();
	}
	if (add_line(p, &n, name, rc == 1 ? sym.file : NULL,
		     rc == 1 ? sym.line : 0, rc == 1 ? sym.line : 0))
		return nomem();
	l.nlines = n;
	size_t i = pprof_add_loc(&p->prof, &l, p->lines);
	if (i == SIZE_MAX)
		return nomem();
	e->v[0] = i + 1;
	*id = i;
	return 0;
}

static int pprof_enter(struct hwt_export *ex, struct export_thread *t,
		       const struct hwt_frame *f, struct export_open *top)
{
	struct pprof_export *p = impl(ex);
	size_t loc = 0;
	int err = location_id(ex, f->pid >= 0 ? f->pid : t->pid, f->func, &loc);
	if (err)
		return err;
	uint64_t parent = t->n > 1 ? t->v[t->n - 2].path_id : 0;
	bool created;
	/* The profile numbers locations by content across captures, so a
	 * path's location index means the same in every capture. */
	err = hwt_export_path(ex, parent, loc + 1, 0, &top->path_id, &created);
	if (err)
		return err;
	if (created) {
		if (hwt_export_grow(&p->paths, &p->paths_cap,
				    top->path_id - 1, sizeof(*p->paths)))
			return nomem();
		p->paths[top->path_id - 1].parent = parent;
		p->paths[top->path_id - 1].loc = loc;
	}
	return 0;
}

static int pprof_exit(struct hwt_export *ex, struct export_thread *t,
		      const struct hwt_frame *f)
{
	struct pprof_export *p = impl(ex);
	if (!f->insns_self && !f->branches_self && !f->self_time)
		return 0;
	char key[64];
	int len = ex->opts.no_labels
			  ? snprintf(key, sizeof(key), "%" PRIu64,
				     t->v[t->n - 1].path_id)
			  : snprintf(key, sizeof(key), "%zu:%d:%" PRIu64,
				     (size_t)(t - ex->threads), (int)f->cpu,
				     t->v[t->n - 1].path_id);
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->samples, key,
						    (size_t)len);
	if (!e)
		return nomem();
	if (!e->v[V_PATH]) {
		e->v[V_PATH] = t->v[t->n - 1].path_id;
		e->v[S_THREAD] = (uint64_t)(t - ex->threads) + 1;
		e->v[S_CPU] = (uint64_t)((int64_t)f->cpu + 1);
	}
	e->v[S_INSNS] += f->insns_self;
	e->v[S_BRANCHES] += f->branches_self;
	e->v[S_TIME] += f->has_time ? f->self_time : 0;
	return 0;
}

static int pprof_element(struct hwt_export *ex, struct export_thread *t,
			 const struct hwt_elem *e)
{
	(void)t;
	struct pprof_export *p = impl(ex);
	if (e->type != HWT_ELEM_BRANCH || !(e->fields & HWT_FIELD_SAMPLED))
		return 0;
	uint64_t w = e->u.branch.weight;
	if (!p->records++ || w < p->period_min)
		p->period_min = w;
	if (w > p->period_max)
		p->period_max = w;
	return 0;
}

/* The labels of a sample of thread @t on @cpu (-1: none): its process,
 * thread, the thread's name, or its process's main thread's. */
static void sample_labels(const struct hwt_export *ex,
			  const struct export_thread *t, int64_t cpu,
			  struct pprof_sample *s)
{
	s->pid = s->tid = s->cpu = -1;
	s->comm = NULL;
	if (ex->opts.no_labels)
		return;
	s->pid = t->pid >= 0 ? t->pid : -1;
	s->tid = t->tid >= 0 ? t->tid : -1;
	s->cpu = cpu >= 0 ? cpu : -1;
	s->comm = t->comm;
	for (size_t j = 0; j < ex->nthreads && !s->comm; j++)
		if (t->pid >= 0 && ex->threads[j].tid == t->pid)
			s->comm = ex->threads[j].comm;
}

/* This capture's samples into the profile, with its labels resolved
 * now that its threads are all named; its tables emptied for the next
 * capture, whose symbols and threads are its own. */
static int pprof_end_capture(struct hwt_export *ex)
{
	struct pprof_export *p = impl(ex);
	size_t *stack = NULL, cap = 0;
	int err = 0;
	for (size_t i = 0; !err && i < p->samples.n; i++) {
		const struct hwt_strmap_entry *e = &p->samples.e[i];
		size_t n = 0;
		for (uint64_t id = e->v[V_PATH]; id; id = p->paths[id - 1].parent) {
			if (hwt_export_grow(&stack, &cap, n, sizeof(*stack))) {
				err = nomem();
				break;
			}
			stack[n++] = p->paths[id - 1].loc;
		}
		struct pprof_sample s = {
			.nlocs = n,
			.v = {e->v[S_INSNS], e->v[S_BRANCHES], e->v[S_TIME]},
		};
		if (!err) {
			sample_labels(ex, &ex->threads[e->v[S_THREAD] - 1],
				      (int64_t)e->v[S_CPU] - 1, &s);
			err = pprof_add_sample(&p->prof, &s, stack);
		}
	}
	free(stack);
	if (err)
		return err;
	pprof_add_records(&p->prof, p->records, p->period_min, p->period_max);
	p->records = 0;
	if (ex->opts.sym && hwt_symbolizer_srcline(ex->opts.sym))
		p->prof.srcline = true;
	hwt_strmap_free(&p->locations);
	hwt_strmap_free(&p->samples);
	memset(&p->locations, 0, sizeof(p->locations));
	memset(&p->samples, 0, sizeof(p->samples));
	hwt_export_forget_threads(ex);
	return 0;
}

static int pprof_finish(struct hwt_export *ex, bool has_time)
{
	struct pprof_export *p = impl(ex);
	int err = pprof_end_capture(ex);
	if (err)
		return err;
	p->prof.has_time |= has_time;
	ex->stats.samples = p->prof.nsamples;
	ex->stats.call_paths = p->prof.nlocs; /* reported as locations */
	if (ex->opts.partial)
		return 0;
	size_t nfuncs = 0;
	err = pprof_profile_write(&p->prof, ex->opts.out, &nfuncs);
	ex->stats.symbols = nfuncs;
	return err;
}

static void pprof_free(struct hwt_export *ex)
{
	struct pprof_export *p = impl(ex);
	pprof_profile_free(&p->prof);
	hwt_strmap_free(&p->locations);
	hwt_strmap_free(&p->samples);
	free(p->lines);
	free(p->paths);
	free(p);
}

const struct pprof_profile *hwt_pprof_profile(const struct hwt_export *ex)
{
	return ex->opts.format == HWT_EXPORT_PPROF && ex->opts.partial
		       ? &((const struct pprof_export *)ex->impl)->prof : NULL;
}

const struct export_format hwt_export_pprof_format = {
	.element = pprof_element,
	.enter = pprof_enter,
	.exit = pprof_exit,
	.finish = pprof_finish,
	.end_capture = pprof_end_capture,
	.free = pprof_free,
};

int hwt_export_pprof_open(struct hwt_export *ex)
{
	if (!ex->opts.out && !ex->opts.partial)
		return hwt_error(HWT_ERR_INVAL, "pprof export: no output");
	ex->impl = calloc(1, sizeof(struct pprof_export));
	return ex->impl ? 0 : nomem();
}
