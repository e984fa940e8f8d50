/* Cursors: the push decode on a thread of the cursor's own, its elements
 * handed to the caller through a bounded ring (README.md). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pipeline/pipeline_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"

/* An element copied out of the decode, with the one string or array it
 * points to (owned). */
struct slot {
	struct hwt_elem e;
	void *payload;
};

/* Elements cross between the threads this many at a time, so that each
 * side takes the lock once a run and not once an element. */
#define STAGE 256

struct hwt_cursor {
	struct hwt_capture *cap;
	struct hwt_cursor_opts o;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t can_put, can_get;
	struct slot *ring;
	size_t depth, head, count;
	bool done;  /* the decode ended (err says how) */
	bool stop;  /* the reader is gone: the decode must end */
	int err;
	char msg[512];
	struct hwt_merge *merge;
	/* The payloads of what the last call handed out: freed at the next. */
	void **held;
	size_t nheld, held_cap;
	struct slot stage[STAGE]; /* the decode's, not yet in the ring */
	size_t nstage;
	struct slot local[STAGE]; /* the reader's, taken from the ring */
	size_t nlocal, pos;
};

/* Moves the staged elements into the ring, waiting for room; with the
 * reader gone, drops them and returns HWT_ERR_EOF. */
static int push(struct hwt_cursor *cur)
{
	size_t i = 0;
	pthread_mutex_lock(&cur->mu);
	for (; i < cur->nstage && !cur->stop; i++) {
		while (cur->count == cur->depth && !cur->stop)
			pthread_cond_wait(&cur->can_put, &cur->mu);
		if (cur->stop)
			break;
		cur->ring[(cur->head + cur->count++) % cur->depth] = cur->stage[i];
		/* The reader waits only for an empty ring. */
		if (cur->count == 1)
			pthread_cond_signal(&cur->can_get);
	}
	pthread_mutex_unlock(&cur->mu);
	size_t n = cur->nstage;
	cur->nstage = 0;
	if (i == n)
		return 0;
	for (; i < n; i++)
		free(cur->stage[i].payload);
	return HWT_ERR_EOF;
}

/* The decode's sink: copies @e, staged for the ring. */
static int put(void *arg, const struct hwt_elem *e)
{
	struct hwt_cursor *cur = arg;
	struct slot s = {.e = *e};
	size_t size;
	const void *p = hwt_elem_payload(e, &size);
	if (p) {
		s.payload = malloc(size);
		if (!s.payload)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for an element");
		memcpy(s.payload, p, size);
		*hwt_elem_pointer(&s.e) = s.payload;
	}
	cur->stage[cur->nstage++] = s;
	return cur->nstage == STAGE ? push(cur) : 0;
}

/* As the CLI's decode does: a decode that says it has one stream needs no
 * ordering, and its elements go out as they come. */
static void on_progress(void *arg, const struct hwt_decode_progress *p)
{
	struct hwt_cursor *cur = arg;
	if (!p->done && cur->merge)
		hwt_merge_expect_streams(cur->merge, p->streams);
}

static int decode_ordered(struct hwt_cursor *cur, struct hwt_decode_opts *d,
			  const struct hwt_elem_sink *sink)
{
	int err = hwt_merge_new(sink, &cur->merge);
	if (err < 0)
		return err;
	struct hwt_elem_sink into = hwt_merge_sink(cur->merge);
	d->progress = on_progress;
	d->progress_arg = cur;
	err = hwt_decode_file(cur->cap->path, d, &into);
	/* A decode that failed part way still gives what came before. */
	int ferr = hwt_merge_finish(cur->merge);
	hwt_merge_free(cur->merge);
	cur->merge = NULL;
	return err < 0 ? err : ferr;
}

static int decode(struct hwt_cursor *cur)
{
	const struct hwt_capture *cap = cur->cap;
	const struct hwt_cursor_opts *o = &cur->o;
	struct hwt_decode_opts d = cap->dopts;
	struct hwt_elem_sink sink = {put, cur};
	d.filter_cpu = o->filter_cpu;
	d.cpu = o->cpu;
	d.filter_tid = o->filter_tid;
	d.tid = o->tid;
	d.filter_time = o->filter_time;
	d.time_start = o->time_start;
	d.time_end = o->time_end;
	d.disasm = o->disasm;
	d.jobs = o->jobs;
	d.warn = o->warn;
	d.warn_arg = o->warn_arg;
	if (o->on_image) {
		d.on_image = o->on_image;
		d.on_image_arg = o->on_image_arg;
	}
	switch (cap->kind) {
	case HWT_CAPTURE_PERF_DATA:
		if (o->unit)
			return hwt_decode_file_unit(cap->path, &d, &sink,
						    &cap->units[o->unit - 1],
						    o->unit == cap->nunits);
		if (o->order == HWT_CURSOR_ORDER_TIME)
			return decode_ordered(cur, &d, &sink);
		return hwt_decode_file(cap->path, &d, &sink);
	case HWT_CAPTURE_RAW:
		return hwt_decode_raw(cap->backend, cap->backend_options,
				      cap->path, &d, &sink);
	case HWT_CAPTURE_SNAPSHOT_DIR:
		return hwt_decode_snapshot_dir(cap->path, &d, &sink);
	}
	return hwt_error(HWT_ERR_INVAL, "a capture of unknown kind");
}

static void *run(void *arg)
{
	struct hwt_cursor *cur = arg;
	int err = decode(cur);
	/* What came before a failure is the reader's too. */
	int perr = push(cur);
	if (err >= 0)
		err = perr;
	pthread_mutex_lock(&cur->mu);
	/* HWT_ERR_EOF from the sink: the reader stopped; nothing failed. */
	if (err < 0 && !(cur->stop && err == HWT_ERR_EOF)) {
		cur->err = err;
		snprintf(cur->msg, sizeof(cur->msg), "%s", hwt_errmsg());
	}
	cur->done = true;
	pthread_cond_signal(&cur->can_get);
	pthread_mutex_unlock(&cur->mu);
	return NULL;
}

int hwt_cursor_new(struct hwt_capture *cap, const struct hwt_cursor_opts *opts,
		   struct hwt_cursor **out)
{
	if (!cap || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_cursor_new: missing argument");
	*out = NULL;
	if (cap->read_once)
		return hwt_error(HWT_ERR_NOSUP, "%s is a pipe, read when the capture "
				 "was opened: save the capture to a file for a "
				 "cursor to decode it", cap->path);
	struct hwt_cursor_opts o = {.size = sizeof(o)};
	if (opts)
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	o.size = sizeof(o);
	if (o.unit && (!cap->units_listed || o.unit > cap->nunits))
		return hwt_error(HWT_ERR_INVAL, "%s: no unit %zu (hwt_capture_units "
				 "lists %zu)", cap->path, o.unit - 1,
				 cap->units_listed ? cap->nunits : 0);
	struct hwt_cursor *cur = calloc(1, sizeof(*cur));
	if (!cur)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	cur->cap = cap;
	cur->o = o;
	cur->depth = o.queue_depth ? o.queue_depth : 4096;
	cur->ring = calloc(cur->depth, sizeof(*cur->ring));
	if (!cur->ring) {
		free(cur);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	pthread_mutex_init(&cur->mu, NULL);
	pthread_cond_init(&cur->can_put, NULL);
	pthread_cond_init(&cur->can_get, NULL);
	int rc = pthread_create(&cur->thread, NULL, run, cur);
	if (rc) {
		pthread_mutex_destroy(&cur->mu);
		pthread_cond_destroy(&cur->can_put);
		pthread_cond_destroy(&cur->can_get);
		free(cur->ring);
		free(cur);
		return hwt_error(HWT_ERR_IO, "no thread for the cursor's decode: %s",
				 strerror(rc));
	}
	*out = cur;
	return 0;
}

static void release_held(struct hwt_cursor *cur)
{
	for (size_t i = 0; i < cur->nheld; i++)
		free(cur->held[i]);
	cur->nheld = 0;
}

void hwt_cursor_free(struct hwt_cursor *cur)
{
	if (!cur)
		return;
	pthread_mutex_lock(&cur->mu);
	cur->stop = true;
	pthread_cond_broadcast(&cur->can_put);
	pthread_mutex_unlock(&cur->mu);
	pthread_join(cur->thread, NULL);
	for (size_t i = 0; i < cur->count; i++)
		free(cur->ring[(cur->head + i) % cur->depth].payload);
	for (size_t i = cur->pos; i < cur->nlocal; i++)
		free(cur->local[i].payload);
	release_held(cur);
	free(cur->held);
	free(cur->ring);
	pthread_mutex_destroy(&cur->mu);
	pthread_cond_destroy(&cur->can_put);
	pthread_cond_destroy(&cur->can_get);
	free(cur);
}

/* Waits for elements; returns how many may be taken (at most @n), 0 at
 * the end, or the decode's error. Called and returns with cur->mu held. */
static int64_t wait_ready(struct hwt_cursor *cur, size_t n)
{
	while (!cur->count && !cur->done)
		pthread_cond_wait(&cur->can_get, &cur->mu);
	if (cur->count)
		return (int64_t)(cur->count < n ? cur->count : n);
	if (cur->err < 0)
		return hwt_error(cur->err, "%s", cur->msg);
	return 0;
}

/* Takes up to STAGE elements from the ring for the reader, waiting for
 * some unless @have (the call has elements already). Returns how many,
 * 0 at the end (or, with @have, when none are ready), or the error. */
static int64_t refill(struct hwt_cursor *cur, bool have)
{
	pthread_mutex_lock(&cur->mu);
	int64_t k = have && !cur->count ? 0 : wait_ready(cur, STAGE);
	for (int64_t i = 0; i < k; i++) {
		cur->local[i] = cur->ring[cur->head];
		cur->head = (cur->head + 1) % cur->depth;
		cur->count--;
	}
	if (k > 0)
		pthread_cond_signal(&cur->can_put);
	pthread_mutex_unlock(&cur->mu);
	cur->pos = 0;
	cur->nlocal = k > 0 ? (size_t)k : 0;
	return k;
}

/* Room to hold @n payloads. */
static int hold_room(struct hwt_cursor *cur, size_t n)
{
	if (n <= cur->held_cap)
		return 0;
	void **h = realloc(cur->held, n * sizeof(*h));
	if (!h)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	cur->held = h;
	cur->held_cap = n;
	return 0;
}

/* Takes up to @n elements into @elems or @recs (one of them NULL). */
static int64_t pull(struct hwt_cursor *cur, struct hwt_elem *elems,
		    struct hwt_elem_record *recs, size_t n)
{
	release_held(cur);
	int err = hold_room(cur, n);
	if (err < 0)
		return err;
	size_t k = 0;
	while (k < n) {
		if (cur->pos == cur->nlocal) {
			int64_t got = refill(cur, k > 0);
			if (got < 0 && !k)
				return got;
			if (got <= 0)
				break;
		}
		const struct slot *sl = &cur->local[cur->pos++];
		if (sl->payload)
			cur->held[cur->nheld++] = sl->payload;
		if (elems)
			elems[k] = sl->e;
		else
			hwt_elem_record_from_elem(&recs[k], &sl->e);
		k++;
	}
	return (int64_t)k;
}

int hwt_cursor_next(struct hwt_cursor *cur, struct hwt_elem *elem)
{
	if (!cur || !elem)
		return hwt_error(HWT_ERR_INVAL, "hwt_cursor_next: missing argument");
	return (int)pull(cur, elem, NULL, 1);
}

int64_t hwt_cursor_next_batch(struct hwt_cursor *cur,
			      struct hwt_elem_record *buf, size_t n)
{
	if (!cur || !buf || !n)
		return hwt_error(HWT_ERR_INVAL, "hwt_cursor_next_batch: missing argument");
	return pull(cur, NULL, buf, n);
}
