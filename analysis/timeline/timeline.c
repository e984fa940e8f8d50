/* Frames to slices (include/hwtrace/timeline.h). A slice's start is
 * written lazily, when the first frame inside it (or the frame itself)
 * is long enough to keep: so --min-duration drops short calls without
 * leaving starts that never end, and starts stay in time order within a
 * thread. A caller inferred after its callees starts 1 ns per inferred
 * level before them, so viewers nest them under it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline/timeline_internal.h"
#include "analysis/util/array_grow.h"
#include "analysis/util/func_name.h"
#include "hwtrace/error.h"

int tl_check_io(struct hwt_timeline *tl)
{
	if (ferror(tl->out))
		return hwt_error(HWT_ERR_IO, "writing the timeline failed: %s",
				 strerror(errno ? errno : EIO));
	return 0;
}

static struct tl_process *process_of(struct hwt_timeline *tl, int32_t pid,
				     bool *created)
{
	*created = false;
	for (size_t i = 0; i < tl->nprocs; i++)
		if (tl->procs[i].pid == pid)
			return &tl->procs[i];
	void *grown = tl->procs;
	if (!array_grow(&grown, &tl->procs_cap, sizeof(*tl->procs),
			tl->nprocs + 1, 16))
		return NULL;
	tl->procs = grown;
	*created = true;
	tl->procs[tl->nprocs] = (struct tl_process){pid, false};
	tl->stats.processes++;
	return &tl->procs[tl->nprocs++];
}

static struct tl_thread *find_thread(struct hwt_timeline *tl, int32_t tid)
{
	for (size_t i = tl->nthreads; i-- > 0;)
		if (tl->threads[i].tid == tid)
			return &tl->threads[i];
	return NULL;
}

static struct tl_thread *add_thread(struct hwt_timeline *tl, int32_t pid,
				    int32_t tid)
{
	void *grown = tl->threads;
	if (!array_grow(&grown, &tl->threads_cap, sizeof(*tl->threads),
			tl->nthreads + 1, 16))
		return NULL;
	tl->threads = grown;
	struct tl_thread *t = &tl->threads[tl->nthreads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

const char *tl_process_name(const struct hwt_timeline *tl, int32_t pid)
{
	for (size_t i = 0; i < tl->nthreads; i++)
		if (tl->threads[i].tid == pid && tl->threads[i].name)
			return tl->threads[i].name;
	return NULL;
}

/* The thread's track, written on first use. */
static int thread_of(struct hwt_timeline *tl, int32_t pid, int32_t tid,
		     struct tl_thread **out)
{
	struct tl_thread *t = find_thread(tl, tid);
	if (!t && !(t = add_thread(tl, pid, tid)))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (t->pid < 0)
		t->pid = pid;
	*out = t;
	if (t->described)
		return 0;
	bool new_process;
	struct tl_process *p = process_of(tl, t->pid, &new_process);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->described = true;
	tl->stats.threads++;
	return tl_chrome(tl)
		       ? tl_chrome_thread(tl, t, new_process)
		       : tl_perfetto_thread(tl, t, new_process);
}

int hwt_timeline_name_thread(struct hwt_timeline *tl, int32_t pid,
			     int32_t tid, const char *name)
{
	struct tl_thread *t = find_thread(tl, tid);
	if (!t && !(t = add_thread(tl, pid, tid)))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->pid = pid;
	if (!name)
		return 0;
	char *copy = strdup(name);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	free(t->name);
	t->name = copy;
	return 0;
}

static int frame_enter(void *arg, const struct hwt_frame *f)
{
	struct hwt_timeline *tl = arg;
	struct tl_thread *t;
	int err = thread_of(tl, f->pid, f->tid, &t);
	if (err)
		return err;
	void *grown = t->v;
	if (!array_grow(&grown, &t->cap, sizeof(*t->v), t->n + 1, 64))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	t->v = grown;
	uint64_t ts = f->call_time;
	if (f->depth < 0)
		ts = ts > (uint64_t)-f->depth ? ts - (uint64_t)-f->depth : 0;
	/* In sequence order an inferred caller starts a step per level
	 * before the thread's first frame. */
	uint64_t step = ++tl->step * TL_STEP_NS;
	if (!t->first_step)
		t->first_step = step;
	if (f->depth < 0)
		step = t->first_step > (uint64_t)-f->depth * TL_STEP_NS
			       ? t->first_step - (uint64_t)-f->depth * TL_STEP_NS
			       : 0;
	bool deep = tl->opts.max_depth && f->depth >= tl->opts.max_depth;
	t->v[t->n++] = (struct tl_frame){f->func, ts, step, false, deep,
					 f->has_time};
	return 0;
}

/* Perfetto: the starts of the open frames around the one being kept. */
static int begin_open(struct hwt_timeline *tl, struct tl_thread *t)
{
	char buf[24];
	for (size_t i = 0; i < t->n; i++) {
		struct tl_frame *fr = &t->v[i];
		if (fr->begun || fr->skip ||
		    (!fr->timed && !tl->stats.sequence))
			continue;
		const char *name = hwt_func_name(&tl->namer, t->pid, fr->func,
						 buf);
		int err = tl_perfetto_slice(tl, t, true,
					    tl->stats.sequence ? fr->step : fr->ts,
					    name, NULL);
		if (err)
			return err;
		fr->begun = true;
	}
	return 0;
}

static int frame_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_timeline *tl = arg;
	struct tl_thread *t = find_thread(tl, f->tid);
	if (!t || !t->n)
		return 0;
	/* A capture that has shown no time by its first frame's end has
	 * none: its slices go in sequence order. */
	if (!tl->decided) {
		tl->decided = true;
		tl->stats.sequence = !tl->saw_time && !f->has_time;
	}
	struct tl_frame fr = t->v[t->n - 1];
	int err = 0;
	uint64_t end = f->return_time > fr.ts ? f->return_time : fr.ts;
	if (tl->stats.sequence) {
		fr.ts = fr.step;
		end = ++tl->step * TL_STEP_NS;
	}
	if (!f->has_time && !tl->stats.sequence) {
		tl->stats.untimed++;
	} else if (fr.skip) {
		tl->stats.dropped_deep++;
	} else if (!fr.begun && end - fr.ts < tl->opts.min_duration) {
		tl->stats.dropped_short++;
	} else {
		char buf[24];
		const char *name = hwt_func_name(&tl->namer, t->pid, fr.func,
						 buf);
		tl->stats.slices++;
		if (tl_chrome(tl)) {
			err = tl_chrome_slice(tl, t, fr.ts, end - fr.ts, name, f);
		} else {
			err = begin_open(tl, t);
			if (!err)
				err = tl_perfetto_slice(tl, t, false, end, name, f);
		}
	}
	t->n--;
	return err;
}

static const char *mark_name(const struct hwt_elem *e, char *buf, size_t size)
{
	switch (e->type) {
	case HWT_ELEM_GAP:
		snprintf(buf, size, "trace lost: %s",
			 hwt_gap_reason_name(e->u.gap.reason));
		return buf;
	case HWT_ELEM_ERROR:
		snprintf(buf, size, "decode error: %s", e->u.error.message);
		return buf;
	case HWT_ELEM_TRACE_ON:
		return "trace on";
	case HWT_ELEM_TRACE_OFF:
		return "trace off";
	default:
		return NULL;
	}
}

static int mark_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_timeline *tl = arg;
	if (e->fields & HWT_FIELD_TIME)
		tl->saw_time = true;
	char buf[160];
	const char *name = mark_name(e, buf, sizeof(buf));
	bool sequence = !tl->saw_time && (!tl->decided || tl->stats.sequence);
	if (!name || (!(e->fields & HWT_FIELD_TIME) && !sequence) ||
	    !(e->fields & HWT_FIELD_TID))
		return 0;
	uint64_t ts = sequence ? tl->step * TL_STEP_NS : e->time;
	struct tl_thread *t;
	int err = thread_of(tl, (e->fields & HWT_FIELD_PID) ? e->pid : -1,
			    e->tid, &t);
	if (err)
		return err;
	tl->stats.instants++;
	return tl_chrome(tl)
		       ? tl_chrome_instant(tl, t, ts, name)
		       : tl_perfetto_instant(tl, t, ts, name);
}

bool tl_chrome(const struct hwt_timeline *tl)
{
	return tl->opts.format == HWT_TIMELINE_CHROME ||
	       tl->opts.format == HWT_TIMELINE_SPEEDSCOPE;
}

int hwt_timeline_new(FILE *out, const struct hwt_timeline_opts *opts,
		     struct hwt_timeline **timeline)
{
	if (!opts || opts->size < sizeof(*opts))
		return hwt_error(HWT_ERR_INVAL, "hwt_timeline_new: opts.size");
	struct hwt_timeline *tl = calloc(1, sizeof(*tl));
	if (!tl)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	tl->out = out;
	tl->opts = *opts;
	if (opts->namer)
		tl->namer = *opts->namer;
	tl->opts.namer = NULL;
	tl->first_event = true;
	int err = tl_chrome(tl) ? tl_chrome_start(tl) : 0;
	if (err) {
		hwt_timeline_free(tl);
		return err;
	}
	*timeline = tl;
	return 0;
}

void hwt_timeline_free(struct hwt_timeline *tl)
{
	if (!tl)
		return;
	for (size_t i = 0; i < tl->nthreads; i++) {
		free(tl->threads[i].name);
		free(tl->threads[i].v);
	}
	free(tl->threads);
	free(tl->procs);
	free(tl->pack);
	free(tl);
}

struct hwt_stack_ops hwt_timeline_ops(struct hwt_timeline *tl)
{
	struct hwt_stack_ops ops = {
		.on_enter = frame_enter,
		.on_exit = frame_exit,
		.arg = tl,
	};
	return ops;
}

struct hwt_elem_sink hwt_timeline_marks(struct hwt_timeline *tl)
{
	struct hwt_elem_sink sink = {mark_emit, tl};
	return sink;
}

int hwt_timeline_finish(struct hwt_timeline *tl)
{
	if (tl_chrome(tl))
		return tl_chrome_finish(tl);
	/* Perfetto has no file-wide note: each thread's track gets one. */
	for (size_t i = 0; i < tl->nthreads && tl->stats.sequence; i++) {
		int err = tl_perfetto_instant(tl, &tl->threads[i], 0,
					      TL_SEQUENCE_NOTE);
		if (err)
			return err;
	}
	return tl_check_io(tl);
}

void hwt_timeline_get_stats(const struct hwt_timeline *tl,
			    struct hwt_timeline_stats *stats)
{
	*stats = tl->stats;
}
