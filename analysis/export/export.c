/* The export driver (include/hwtrace/export.h): routes elements and
 * frames to their thread, keeps each thread's open frames in step with
 * the stacks, and hands both to the format. */
#include <inttypes.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/export_internal.h"
#include "analysis/util/array_grow.h"
#include "analysis/util/text_append.h"
#include "hwtrace/error.h"

int hwt_export_grow(void *arrp, size_t *cap, size_t n, size_t size)
{
	void *v;
	memcpy(&v, arrp, sizeof(v));
	if (n == SIZE_MAX || !array_grow(&v, cap, size, n + 1, 64))
		return -1;
	memcpy(arrp, &v, sizeof(v));
	return 0;
}

int hwt_export_path(struct hwt_export *ex, uint64_t parent, uint64_t func,
		    uint64_t ip, uint64_t *id, bool *created)
{
	/* "PARENT:FUNC:IP" in hex, without printf (a call a key). */
	char key[64];
	struct hwt_text t = {key, sizeof(key), 0};
	hwt_text_hex(&t, parent);
	hwt_text_char(&t, ':');
	hwt_text_hex(&t, func);
	hwt_text_char(&t, ':');
	hwt_text_hex(&t, ip);
	struct hwt_strmap_entry *e = hwt_strmap_get(&ex->paths, key, t.len);
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	*created = !e->v[0];
	if (!e->v[0])
		e->v[0] = ++ex->stats.call_paths;
	*id = e->v[0];
	return 0;
}

/* A thread by its id; where the trace has none, its CPU's. */
static int64_t thread_key(int32_t tid, int32_t cpu)
{
	return tid >= 0 ? tid : -2 - (int64_t)cpu;
}

struct export_thread *hwt_export_thread(struct hwt_export *ex, int32_t pid,
					int32_t tid, int32_t cpu)
{
	int64_t key = thread_key(tid, cpu);
	/* Newest first: the thread running now is usually the last seen. */
	for (size_t i = ex->nthreads; i-- > 0;) {
		struct export_thread *t = &ex->threads[i];
		if (t->key != key)
			continue;
		if (t->pid < 0 && pid >= 0)
			t->pid = pid;
		return t;
	}
	void *grown = ex->threads;
	if (!array_grow(&grown, &ex->threads_cap, sizeof(*ex->threads),
			ex->nthreads + 1, 16))
		return NULL;
	ex->threads = grown;
	struct export_thread *t = &ex->threads[ex->nthreads++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	t->pid = pid;
	t->tid = tid;
	t->id = ex->nthreads;
	return t;
}

void hwt_export_forget_threads(struct hwt_export *ex)
{
	for (size_t i = 0; i < ex->nthreads; i++)
		if (ex->threads[i].n)
			return; /* a frame still open: the threads stay */
	for (size_t i = 0; i < ex->nthreads; i++) {
		ex->threads_forgotten += ex->threads[i].traced;
		free(ex->threads[i].comm);
		free(ex->threads[i].v);
	}
	ex->nthreads = 0;
}

int hwt_export_new(const struct hwt_export_opts *opts, struct hwt_export **out)
{
	*out = NULL;
	/* A caller built before the last fields were added passes a
	 * smaller size: those fields are then zero. */
	size_t oldest = offsetof(struct hwt_export_opts, jobs);
	if (!opts || opts->size < oldest)
		return hwt_error(HWT_ERR_INVAL, "struct hwt_export_opts: size %zu "
				 "is too small (set it to sizeof(struct "
				 "hwt_export_opts))", opts ? opts->size : 0);
	struct hwt_export *ex = calloc(1, sizeof(*ex));
	if (!ex)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	memcpy(&ex->opts, opts, opts->size < sizeof(*opts) ? opts->size
							   : sizeof(*opts));
	ex->opts.size = sizeof(*opts);
	int err;
	switch (opts->format) {
	case HWT_EXPORT_SQLITE:
		err = hwt_export_sqlite_open(ex);
		break;
	case HWT_EXPORT_POSTGRESQL:
		err = hwt_export_postgresql_open(ex);
		break;
	case HWT_EXPORT_PPROF:
		ex->fmt = &hwt_export_pprof_format;
		err = hwt_export_pprof_open(ex);
		break;
	case HWT_EXPORT_AUTOFDO:
	case HWT_EXPORT_BOLT:
	case HWT_EXPORT_BOLT_PREAGG:
		ex->fmt = &hwt_export_pgo_format;
		err = hwt_export_pgo_open(ex);
		break;
	default:
		err = hwt_error(HWT_ERR_INVAL, "export: unknown format %d",
				(int)opts->format);
	}
	if (err) {
		hwt_export_free(ex);
		return err;
	}
	*out = ex;
	return 0;
}

void hwt_export_free(struct hwt_export *ex)
{
	if (!ex)
		return;
	if (ex->impl && ex->fmt)
		ex->fmt->free(ex);
	for (size_t i = 0; i < ex->nthreads; i++) {
		free(ex->threads[i].comm);
		free(ex->threads[i].v);
	}
	free(ex->threads);
	hwt_strmap_free(&ex->paths);
	hwt_strmap_free(&ex->build_ids);
	for (size_t i = 0; i < ex->nbids; i++)
		free(ex->bids[i]);
	free(ex->bids);
	free(ex);
}

int hwt_export_set_build_id(struct hwt_export *ex, const char *path,
			    const char *hex)
{
	struct hwt_strmap_entry *e = hwt_strmap_get(&ex->build_ids, path,
						    strlen(path));
	char *copy = strdup(hex);
	char **v = realloc(ex->bids, (ex->nbids + 1) * sizeof(*v));
	if (!e || !copy || !v) {
		free(copy);
		if (v)
			ex->bids = v;
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	ex->bids = v;
	if (e->v[0]) { /* the last one recorded wins */
		free(ex->bids[e->v[0] - 1]);
		ex->bids[e->v[0] - 1] = copy;
		return 0;
	}
	ex->bids[ex->nbids++] = copy;
	e->v[0] = ex->nbids;
	return 0;
}

const char *hwt_export_build_id(struct hwt_export *ex, const char *path)
{
	struct hwt_strmap_entry *e = hwt_strmap_get(&ex->build_ids, path,
						    strlen(path));
	if (e && e->v[0])
		return ex->bids[e->v[0] - 1];
	/* Not in the capture's table (sw_branch writes none): the
	 * binary's own, as perf reads it. */
	struct hwt_sym_dso_info info;
	char hex[2 * 64 + 1] = "";
	if (ex->opts.sym &&
	    hwt_symbolizer_dso_info(ex->opts.sym, path, &info) == 0)
		for (size_t i = 0; i < info.build_id_size && i < 64; i++)
			snprintf(hex + 2 * i, 3, "%02x", info.build_id[i]);
	if (hwt_export_set_build_id(ex, path, hex))
		return "";
	e = hwt_strmap_get(&ex->build_ids, path, strlen(path));
	return e && e->v[0] ? ex->bids[e->v[0] - 1] : "";
}

int hwt_export_name_thread(struct hwt_export *ex, int32_t pid, int32_t tid,
			   const char *name)
{
	struct export_thread *t = hwt_export_thread(ex, pid, tid, -1);
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (pid >= 0)
		t->pid = pid;
	if (!name)
		return 0;
	char *copy = strdup(name);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	free(t->comm);
	t->comm = copy;
	return 0;
}

static int elem_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_export *ex = arg;
	if (e->type == HWT_ELEM_GAP || e->type == HWT_ELEM_ERROR) {
		ex->stats.gaps++;
		if (e->type == HWT_ELEM_GAP &&
		    (e->fields & HWT_FIELD_GAP_BYTES))
			ex->stats.gap_bytes += e->u.gap.bytes;
	}
	int32_t pid = e->fields & HWT_FIELD_PID ? e->pid : -1;
	int32_t tid = e->fields & HWT_FIELD_TID ? e->tid : -1;
	int32_t cpu = e->fields & HWT_FIELD_CPU ? e->cpu : -1;
	/* Elements come a thread at a time: the last one's thread first,
	 * before the search, which was a good part of a profile's time. */
	struct export_thread *t = ex->last_thread < ex->nthreads
					  ? &ex->threads[ex->last_thread]
					  : NULL;
	if (t && t->key == thread_key(tid, cpu)) {
		if (t->pid < 0 && pid >= 0)
			t->pid = pid;
	} else if ((t = hwt_export_thread(ex, pid, tid, cpu))) {
		ex->last_thread = (size_t)(t - ex->threads);
	} else {
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	t->traced = true;
	if (e->type == HWT_ELEM_RANGE)
		t->insns += e->u.range.insns;
	return ex->fmt->element ? ex->fmt->element(ex, t, e) : 0;
}

struct hwt_elem_sink hwt_export_elements(struct hwt_export *ex)
{
	struct hwt_elem_sink s = {elem_emit, ex};
	return s;
}

static struct export_thread *frame_thread(struct hwt_export *ex,
					  const struct hwt_frame *f)
{
	return hwt_export_thread(ex, f->pid, f->tid, f->cpu);
}

static int frame_enter(void *arg, const struct hwt_frame *f)
{
	struct hwt_export *ex = arg;
	struct export_thread *t = frame_thread(ex, f);
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	void *grown = t->v;
	if (!array_grow(&grown, &t->cap, sizeof(*t->v), t->n + 1, 32))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->v = grown;
	struct export_open *top = &t->v[t->n++];
	memset(top, 0, sizeof(*top));
	return ex->fmt->enter(ex, t, f, top);
}

static int frame_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_export *ex = arg;
	struct export_thread *t = frame_thread(ex, f);
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!t->n) /* the stacks end only frames they entered */
		return hwt_error(HWT_ERR_INVAL, "export: a frame ended that "
				 "never began (thread %d)", f->tid);
	ex->stats.insns += f->insns_self;
	int err = ex->fmt->exit(ex, t, f);
	t->n--;
	return err;
}

struct hwt_stack_ops hwt_export_ops(struct hwt_export *ex)
{
	struct hwt_stack_ops ops = {
		.on_enter = frame_enter,
		.on_exit = frame_exit,
		.arg = ex,
	};
	return ops;
}

int hwt_export_finish(struct hwt_export *ex, bool has_time)
{
	ex->stats.threads = ex->threads_forgotten;
	for (size_t i = 0; i < ex->nthreads; i++)
		ex->stats.threads += ex->threads[i].traced;
	return ex->fmt->finish(ex, has_time);
}

int hwt_export_end_capture(struct hwt_export *ex)
{
	if (!ex->fmt->end_capture)
		return hwt_error(HWT_ERR_NOSUP, "export: this format takes one "
				 "capture (autofdo, bolt, bolt-preagg, pprof and "
				 "sqlite take several)");
	return ex->fmt->end_capture(ex);
}

void hwt_export_set_symbolizer(struct hwt_export *ex,
			       struct hwt_symbolizer *sym)
{
	ex->opts.sym = sym;
}

void hwt_export_get_stats(const struct hwt_export *ex,
			  struct hwt_export_stats *stats)
{
	*stats = ex->stats;
}
