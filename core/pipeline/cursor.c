/* Cursors: the push decode on a thread of the cursor's own, its elements
 * handed to the caller through a bounded ring (cursor_ring.h, README.md);
 * or, at one job, on the caller's thread, on a coroutine that fills a
 * batch of elements between switches (cursor_fiber.h). A decode of more
 * jobs keeps the thread: its own workers already overlap with the
 * caller, and its elements come in order from them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pipeline/cursor_fiber.h"
#include "core/pipeline/cursor_ring.h"
#include "core/pipeline/pipeline_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"

struct hwt_cursor {
	struct hwt_capture *cap;
	struct hwt_cursor_opts o;
	pthread_t thread;
	struct cursor_ring ring;
	/* At one job: the decode's coroutine (NULL: the thread and ring
	 * above), the batch it fills (fn slots, fpos of them read), and its
	 * end: its error with the message it raised. */
	struct cursor_fiber *fiber;
	struct cursor_slot *fbuf;
	size_t fn, fpos;
	bool fstarted, fdone, fstop;
	int ferr;
	char fmsg[512];
	struct hwt_merge *merge;
	/* The decode's warnings, when the caller takes none: kept here by
	 * whichever thread warns, and put into the ring by the decode's
	 * sink before its next element (or at the end). They bypass the
	 * merge, which would count them as a stream of their own. On a
	 * coroutine, the caller's warn callback too gets them from here
	 * (say_warnings), on the caller's own stack. */
	pthread_mutex_t warn_mu;
	atomic_size_t nwarnings;
	char **warnings;
	size_t warnings_cap;
	/* The payloads of what the last call handed out: freed at the next. */
	void **held;
	size_t nheld, held_cap;
};

/* Elements the coroutine makes between switches: glibc's swapcontext
 * saves the signal mask with a system call (about a microsecond), so a
 * switch per 1024 elements costs about a nanosecond an element, and the
 * batch (about 100 KiB) is still in the cache when the caller reads it. */
#define FIBER_BATCH 1024

/* The slot for the next element: the ring's, or the coroutine's batch.
 * NULL when the reader has stopped. */
static struct cursor_slot *next_slot(struct hwt_cursor *cur)
{
	if (!cur->fiber)
		return cursor_ring_slot(&cur->ring);
	return cur->fstop ? NULL : &cur->fbuf[cur->fn];
}

/* Hands the slot next_slot gave to the reader; false when it has stopped.
 * The coroutine goes back to the caller once its batch is full. */
static bool commit_slot(struct hwt_cursor *cur)
{
	if (!cur->fiber)
		return cursor_ring_commit(&cur->ring);
	if (++cur->fn == FIBER_BATCH)
		cursor_fiber_yield(cur->fiber);
	return !cur->fstop;
}

/* Copies @e into the ring or the batch for the reader. */
static int put_one(struct hwt_cursor *cur, const struct hwt_elem *e)
{
	struct cursor_slot *s = next_slot(cur);
	if (!s)
		return HWT_ERR_EOF;
	s->e = *e;
	s->payload = NULL;
	size_t size;
	const void *p = hwt_elem_payload(e, &size);
	if (p) {
		s->payload = malloc(size);
		if (!s->payload)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for an element");
		memcpy(s->payload, p, size);
		*hwt_elem_pointer(&s->e) = s->payload;
	}
	return commit_slot(cur) ? 0 : HWT_ERR_EOF;
}

/* Puts the kept warnings into the ring as error elements, in the order
 * they were said. */
static int put_warnings(struct hwt_cursor *cur)
{
	pthread_mutex_lock(&cur->warn_mu);
	size_t n = atomic_load(&cur->nwarnings);
	int err = 0;
	for (size_t i = 0; i < n; i++) {
		struct hwt_elem e;
		hwt_elem_clear(&e, HWT_ELEM_ERROR);
		e.u.error.message = cur->warnings[i];
		if (!err)
			err = put_one(cur, &e);
		free(cur->warnings[i]);
	}
	atomic_store(&cur->nwarnings, 0);
	pthread_mutex_unlock(&cur->warn_mu);
	return err;
}

/* The decode's warn callback when the caller gave none; any thread of
 * the decode may call it. A warning that finds no memory is dropped: it
 * only says the trace decodes less well. */
static void keep_warning(void *arg, const char *message)
{
	struct hwt_cursor *cur = arg;
	pthread_mutex_lock(&cur->warn_mu);
	size_t n = atomic_load(&cur->nwarnings);
	char *copy = strdup(message);
	if (copy && n == cur->warnings_cap) {
		size_t cap = cur->warnings_cap ? 2 * cur->warnings_cap : 8;
		char **w = realloc(cur->warnings, cap * sizeof(*w));
		if (w) {
			cur->warnings = w;
			cur->warnings_cap = cap;
		}
	}
	if (copy && n < cur->warnings_cap) {
		cur->warnings[n] = copy;
		atomic_store(&cur->nwarnings, n + 1);
	} else {
		free(copy);
	}
	pthread_mutex_unlock(&cur->warn_mu);
}

/* The decode's sink. */
static int put(void *arg, const struct hwt_elem *e)
{
	struct hwt_cursor *cur = arg;
	if (!cur->o.warn && atomic_load_explicit(&cur->nwarnings, memory_order_relaxed)) {
		int err = put_warnings(cur);
		if (err < 0)
			return err;
	}
	return put_one(cur, e);
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
	/* The caller's callback, when it runs on the caller's stack: a
	 * callback into an interpreter (Python's ctypes) may check where its
	 * stack pointer is, and the coroutine's stack is not the thread's. */
	bool direct = o->warn && !cur->fiber;
	d.warn = direct ? o->warn : keep_warning;
	d.warn_arg = direct ? o->warn_arg : cur;
	d.on_image = o->on_image;
	d.on_image_arg = o->on_image_arg;
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

/* The coroutine's body: the decode, then its end kept for the reader
 * (the message too, as the reader may raise others before it gets there). */
static void run_fiber(void *arg)
{
	struct hwt_cursor *cur = arg;
	int err = decode(cur);
	int werr = cur->o.warn ? 0 : put_warnings(cur);
	if (err >= 0)
		err = werr;
	if (err == HWT_ERR_EOF && cur->fstop)
		err = 0;
	if (err < 0) {
		cur->ferr = err;
		snprintf(cur->fmsg, sizeof(cur->fmsg), "%s", hwt_errmsg());
	}
	cur->fdone = true;
}

static void *run(void *arg)
{
	struct hwt_cursor *cur = arg;
	int err = decode(cur);
	/* What came before a failure is the reader's too. */
	int werr = put_warnings(cur);
	if (err >= 0)
		err = werr;
	/* HWT_ERR_EOF from the sink: the reader stopped; nothing failed. */
	if (err == HWT_ERR_EOF && atomic_load(&cur->ring.stop))
		err = 0;
	cursor_ring_close(&cur->ring, err);
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
	pthread_mutex_init(&cur->warn_mu, NULL);
	atomic_init(&cur->nwarnings, 0);
	if (CURSOR_FIBER && o.jobs <= 1) {
		/* No thread and no ring: the batch takes the ring's place. */
		cur->fbuf = malloc(FIBER_BATCH * sizeof(*cur->fbuf));
		int err = cur->fbuf ? cursor_fiber_new(run_fiber, cur, &cur->fiber)
				    : hwt_error(HWT_ERR_NOMEM, "out of memory for a cursor");
		if (err < 0) {
			free(cur->fbuf);
			pthread_mutex_destroy(&cur->warn_mu);
			free(cur);
			return err;
		}
		*out = cur;
		return 0;
	}
	int err = cursor_ring_init(&cur->ring, o.queue_depth ? o.queue_depth : 4096);
	if (err < 0) {
		pthread_mutex_destroy(&cur->warn_mu);
		free(cur);
		return err;
	}
	int rc = pthread_create(&cur->thread, NULL, run, cur);
	if (rc) {
		cursor_ring_destroy(&cur->ring);
		pthread_mutex_destroy(&cur->warn_mu);
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

/* The coroutine's kept warnings to the caller's warn callback, once it
 * has switched back to the caller's stack. */
static void say_warnings(struct hwt_cursor *cur)
{
	size_t n = atomic_load(&cur->nwarnings);
	if (!cur->o.warn || !n)
		return;
	for (size_t i = 0; i < n; i++) {
		cur->o.warn(cur->o.warn_arg, cur->warnings[i]);
		free(cur->warnings[i]);
	}
	atomic_store(&cur->nwarnings, 0);
}

/* Runs the coroutine until it has filled its batch or ended. */
static void resume(struct hwt_cursor *cur)
{
	cur->fstarted = true;
	cursor_fiber_resume(cur->fiber);
	say_warnings(cur);
}

/* The payloads of the batch's slots not read. */
static void drop_unread(struct hwt_cursor *cur)
{
	for (size_t i = cur->fpos; i < cur->fn; i++)
		free(cur->fbuf[i].payload);
	cur->fn = cur->fpos = 0;
}

/* Ends the coroutine's decode part way: resumed with the reader gone,
 * its sink refuses the next element and the decode unwinds, freeing what
 * it holds, before the stack goes. */
static void free_fiber(struct hwt_cursor *cur)
{
	cur->fstop = true;
	while (cur->fstarted && !cur->fdone) {
		drop_unread(cur);
		resume(cur);
	}
	drop_unread(cur);
	cursor_fiber_free(cur->fiber);
	free(cur->fbuf);
}

void hwt_cursor_free(struct hwt_cursor *cur)
{
	if (!cur)
		return;
	if (cur->fiber) {
		free_fiber(cur);
	} else {
		cursor_ring_stop(&cur->ring);
		pthread_join(cur->thread, NULL);
		cursor_ring_destroy(&cur->ring);
	}
	release_held(cur);
	free(cur->held);
	/* Warnings kept after the decode's last element was refused. */
	for (size_t i = 0; i < atomic_load(&cur->nwarnings); i++)
		free(cur->warnings[i]);
	free(cur->warnings);
	pthread_mutex_destroy(&cur->warn_mu);
	free(cur);
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

/* The @m slots from @sl into @elems or @recs (one of them NULL) at
 * index @k, their payloads held until the next pull. */
static void take_slots(struct hwt_cursor *cur, const struct cursor_slot *sl,
		       size_t m, struct hwt_elem *elems,
		       struct hwt_elem_record *recs, size_t k)
{
	for (size_t i = 0; i < m; i++, k++, sl++) {
		if (sl->payload)
			cur->held[cur->nheld++] = sl->payload;
		if (elems)
			elems[k] = sl->e;
		else
			hwt_elem_record_from_elem(&recs[k], &sl->e);
	}
}

/* pull()'s work on a coroutine's cursor: the batch's elements, and the
 * coroutine run again for more until there are @n or the decode ends. */
static int64_t pull_fiber(struct hwt_cursor *cur, struct hwt_elem *elems,
			  struct hwt_elem_record *recs, size_t n)
{
	size_t k = 0;
	while (k < n) {
		if (cur->fpos == cur->fn) {
			if (cur->fdone)
				break;
			cur->fn = cur->fpos = 0;
			resume(cur);
			continue;
		}
		size_t m = cur->fn - cur->fpos;
		if (m > n - k)
			m = n - k;
		take_slots(cur, &cur->fbuf[cur->fpos], m, elems, recs, k);
		k += m;
		cur->fpos += m;
	}
	if (k)
		return (int64_t)k;
	return cur->ferr < 0 ? hwt_error(cur->ferr, "%s", cur->fmsg) : 0;
}

/* Takes up to @n elements into @elems or @recs (one of them NULL),
 * straight from the ring's slots (or the coroutine's batch), waiting
 * until there are @n or the decode has ended. */
static int64_t pull(struct hwt_cursor *cur, struct hwt_elem *elems,
		    struct hwt_elem_record *recs, size_t n)
{
	release_held(cur);
	int err = hold_room(cur, n);
	if (err < 0)
		return err;
	if (cur->fiber)
		return pull_fiber(cur, elems, recs, n);
	size_t k = 0;
	while (k < n) {
		size_t m = cursor_ring_ready(&cur->ring, n - k);
		if (!m)
			break;
		if (m > n - k)
			m = n - k;
		take_slots(cur, cursor_ring_peek(&cur->ring), m, elems, recs, k);
		k += m;
		cursor_ring_release(&cur->ring, m);
	}
	return k ? (int64_t)k : cursor_ring_error(&cur->ring);
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
