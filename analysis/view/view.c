/* Gathering a view (include/hwtrace/view.h): the report takes every
 * frame (the flame graph's folded stacks and the functions' table are
 * the report's own), and the view keeps each timed call as a slice of
 * its thread's timeline, with the marks where trace was lost or went off
 * and on. The page is written by view_html.c. */
#include <stdlib.h>
#include <string.h>

#include "analysis/util/array_grow.h"
#include "analysis/util/func_name.h"
#include "analysis/view/view_internal.h"
#include "hwtrace/error.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

int hwt_view_new(const struct hwt_view_opts *opts, struct hwt_view **view)
{
	if (!opts || opts->size < sizeof(*opts))
		return hwt_error(HWT_ERR_INVAL, "hwt_view_new: opts.size");
	struct hwt_view *v = calloc(1, sizeof(*v));
	if (!v)
		return nomem();
	v->opts = *opts;
	if (opts->namer)
		v->namer = *opts->namer;
	v->opts.namer = &v->namer;
	if (!v->opts.timeline_pixels)
		v->opts.timeline_pixels = 2000;
	v->title = strdup(opts->title ? opts->title : "capture");
	int err = v->title ? hwt_report_new(opts->namer, &v->report) : nomem();
	if (err) {
		hwt_view_free(v);
		return err;
	}
	v->report_ops = hwt_report_ops(v->report);
	*view = v;
	return 0;
}

void hwt_view_free(struct hwt_view *v)
{
	if (!v)
		return;
	hwt_report_free(v->report);
	hwt_strmap_free(&v->names);
	free(v->name_v);
	free(v->threads);
	free(v->slices);
	free(v->marks);
	free(v->title);
	free(v);
}

void hwt_view_set_capture(struct hwt_view *v, const struct hwt_capture *cap)
{
	v->cap = cap;
}

void hwt_view_set_stack_stats(struct hwt_view *v,
			      const struct hwt_stack_stats *stats)
{
	v->stack_stats = *stats;
	v->have_stack_stats = true;
}

void hwt_view_get_stats(const struct hwt_view *v, struct hwt_view_stats *stats)
{
	*stats = v->stats;
}

/* The track of @tid (or, without one, of @cpu), created on first sight;
 * its index, or -1 when out of memory. */
static long thread_index(struct hwt_view *v, int32_t pid, int32_t tid,
			 int32_t cpu)
{
	int64_t key = tid >= 0 ? tid : -2 - (int64_t)cpu;
	for (size_t i = v->nthreads; i-- > 0;)
		if (v->threads[i].key == key) {
			if (v->threads[i].pid < 0)
				v->threads[i].pid = pid;
			return (long)i;
		}
	void *grown = v->threads;
	if (!array_grow(&grown, &v->threads_cap, sizeof(*v->threads),
			v->nthreads + 1, 16))
		return -1;
	v->threads = grown;
	v->threads[v->nthreads] = (struct view_thread){
		.key = key, .pid = pid, .tid = tid,
	};
	return (long)v->nthreads++;
}

/* Widens the thread's time span to @time. */
static void thread_saw(struct view_thread *t, uint64_t time)
{
	if (!t->timed || time < t->first)
		t->first = time;
	if (!t->timed || time > t->last)
		t->last = time;
	t->timed = true;
}

/* The index of the function's name, interned; -1 when out of memory. */
static long name_index(struct hwt_view *v, const struct hwt_frame *f)
{
	char buf[24];
	const char *name = hwt_func_name(&v->namer, f->pid, f->func, buf);
	struct hwt_strmap_entry *e = hwt_strmap_get(&v->names, name,
						    strlen(name));
	if (!e)
		return -1;
	if (e->v[0])
		return (long)e->v[0] - 1;
	void *grown = v->name_v;
	if (!array_grow(&grown, &v->names_cap, sizeof(*v->name_v),
			v->nnames + 1, 64))
		return -1;
	v->name_v = grown;
	v->name_v[v->nnames] = e->key;
	e->v[0] = ++v->nnames;
	return (long)v->nnames - 1;
}

static int frame_enter(void *arg, const struct hwt_frame *f)
{
	struct hwt_view *v = arg;
	return v->report_ops.on_enter
		       ? v->report_ops.on_enter(v->report_ops.arg, f) : 0;
}

/* Every timed call is kept here, those shorter than a pixel added up
 * (view_blocks.c) when they are many and when the page is written. */
static int frame_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_view *v = arg;
	int err = v->report_ops.on_exit
			  ? v->report_ops.on_exit(v->report_ops.arg, f) : 0;
	if (err)
		return err;
	if (!f->has_time) {
		v->stats.untimed++;
		return 0;
	}
	long t = thread_index(v, f->pid, f->tid, f->cpu);
	long name = t < 0 ? -1 : name_index(v, f);
	void *grown = v->slices;
	if (name < 0 || !array_grow(&grown, &v->slices_cap, sizeof(*v->slices),
				    v->nslices + 1, 1024))
		return nomem();
	v->slices = grown;
	v->slices[v->nslices++] = (struct view_slice){
		(uint32_t)t, (uint32_t)name, f->depth, 1, f->call_time,
		f->return_time,
	};
	struct view_thread *th = &v->threads[t];
	if (f->depth < th->min_depth)
		th->min_depth = f->depth;
	if (f->depth > th->max_depth)
		th->max_depth = f->depth;
	thread_saw(th, f->call_time);
	thread_saw(th, f->return_time);
	return view_compact(v);
}

static int frame_caller(void *arg, const struct hwt_frame *caller,
			uint64_t time)
{
	struct hwt_view *v = arg;
	return v->report_ops.on_caller
		       ? v->report_ops.on_caller(v->report_ops.arg, caller, time)
		       : 0;
}

struct hwt_stack_ops hwt_view_ops(struct hwt_view *v)
{
	return (struct hwt_stack_ops){
		.on_enter = frame_enter,
		.on_exit = frame_exit,
		.on_caller = frame_caller,
		.arg = v,
	};
}

static int mark_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_view *v = arg;
	struct view_mark m = {0};
	switch (e->type) {
	case HWT_ELEM_GAP:
		m.kind = MARK_GAP;
		m.what = (uint32_t)e->u.gap.reason;
		if (m.what < sizeof(v->gaps) / sizeof(v->gaps[0]))
			v->gaps[m.what]++;
		break;
	case HWT_ELEM_ERROR:
		m.kind = MARK_ERROR;
		v->errors++;
		break;
	case HWT_ELEM_TRACE_OFF:
		m.kind = MARK_OFF;
		break;
	case HWT_ELEM_TRACE_ON:
		m.kind = MARK_ON;
		break;
	default:
		return 0;
	}
	if (!(e->fields & HWT_FIELD_TIME))
		return 0;
	if (v->nmarks >= VIEW_MAX_MARKS) {
		v->stats.marks_dropped++;
		return 0;
	}
	long t = thread_index(v, (e->fields & HWT_FIELD_PID) ? e->pid : -1,
			      (e->fields & HWT_FIELD_TID) ? e->tid : -1,
			      (e->fields & HWT_FIELD_CPU) ? e->cpu : -1);
	void *grown = v->marks;
	if (t < 0 || !array_grow(&grown, &v->marks_cap, sizeof(*v->marks),
				 v->nmarks + 1, 64))
		return nomem();
	v->marks = grown;
	m.thread = (uint32_t)t;
	m.time = e->time;
	v->marks[v->nmarks++] = m;
	v->stats.marks++;
	thread_saw(&v->threads[t], e->time);
	return 0;
}

struct hwt_elem_sink hwt_view_marks(struct hwt_view *v)
{
	return (struct hwt_elem_sink){mark_emit, v};
}

int hwt_view_write(struct hwt_view *v, FILE *out)
{
	return view_write_page(v, out);
}
