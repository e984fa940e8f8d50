/* A cursor's single-writer, single-reader ring (cursor_ring.h).
 *
 * Why no lock per element: the writer's slots become the reader's when
 * it stores the tail, the reader's become the writer's again when it
 * stores the head; each store releases what was written before it and
 * each side's load of the other's count acquires it. A side about to
 * sleep sets its "waits" flag under the mutex and looks at the other's
 * count again; the other side stores its count before it looks at the
 * flag. Both are sequentially consistent, so one of them sees the
 * other's store: either the sleeper does not sleep, or the waker takes
 * the mutex (held by the sleeper until it waits) and signals it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pipeline/cursor_ring.h"
#include "hwtrace/error.h"

/* Each side hands its slots over this many at a time at most (and all
 * of them before it sleeps), so that a slow decode (a filter that keeps
 * few elements) still lets the reader see them before the ring is full. */
#define PUBLISH_EVERY 256

int cursor_ring_init(struct cursor_ring *r, size_t depth)
{
	memset(r, 0, sizeof(*r));
	r->depth = depth ? depth : 1;
	r->slots = calloc(r->depth, sizeof(*r->slots));
	if (!r->slots)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a cursor's "
				 "ring of %zu elements", r->depth);
	r->publish_every = r->depth / 4 < PUBLISH_EVERY ? r->depth / 4 : PUBLISH_EVERY;
	if (!r->publish_every)
		r->publish_every = 1;
	atomic_init(&r->tail, 0);
	atomic_init(&r->head, 0);
	atomic_init(&r->reader_waits, false);
	atomic_init(&r->writer_waits, false);
	atomic_init(&r->done, false);
	atomic_init(&r->stop, false);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->reader_cv, NULL);
	pthread_cond_init(&r->writer_cv, NULL);
	return 0;
}

void cursor_ring_destroy(struct cursor_ring *r)
{
	/* Those before r->read are the reader's. */
	size_t tail = atomic_load(&r->tail);
	for (size_t i = r->read; i < tail; i++)
		free(r->slots[i % r->depth].payload);
	free(r->slots);
	r->slots = NULL;
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->reader_cv);
	pthread_cond_destroy(&r->writer_cv);
}

/* Half the ring, at least one slot: what a sleeper waits for. */
static size_t half(const struct cursor_ring *r)
{
	return (r->depth + 1) / 2;
}

/* Makes every written slot the reader's, and wakes the reader when it
 * sleeps and now has what it waits for. */
static void publish(struct cursor_ring *r)
{
	atomic_store(&r->tail, r->written);
	if (!atomic_load(&r->reader_waits))
		return;
	pthread_mutex_lock(&r->mu);
	if (r->written >= r->reader_until)
		pthread_cond_signal(&r->reader_cv);
	pthread_mutex_unlock(&r->mu);
}

struct cursor_slot *cursor_ring_slot(struct cursor_ring *r)
{
	struct cursor_slot *s = &r->slots[r->written % r->depth];
	if (r->written - atomic_load_explicit(&r->head, memory_order_acquire) <
	    r->depth)
		return s;
	/* Full: what is written must be the reader's before we sleep, or
	 * the reader could wait for it too. */
	publish(r);
	pthread_mutex_lock(&r->mu);
	r->writer_until = r->written - r->depth + half(r);
	atomic_store(&r->writer_waits, true);
	while (atomic_load(&r->head) < r->writer_until && !atomic_load(&r->stop))
		pthread_cond_wait(&r->writer_cv, &r->mu);
	atomic_store(&r->writer_waits, false);
	pthread_mutex_unlock(&r->mu);
	return atomic_load(&r->stop) ? NULL : s;
}

bool cursor_ring_commit(struct cursor_ring *r)
{
	r->written++;
	if (r->written - atomic_load_explicit(&r->tail, memory_order_relaxed) <
	    r->publish_every)
		return true;
	publish(r);
	return !atomic_load_explicit(&r->stop, memory_order_relaxed);
}

void cursor_ring_close(struct cursor_ring *r, int err)
{
	pthread_mutex_lock(&r->mu);
	atomic_store(&r->tail, r->written);
	if (err < 0) {
		r->err = err;
		snprintf(r->msg, sizeof(r->msg), "%s", hwt_errmsg());
	}
	atomic_store(&r->done, true);
	pthread_cond_signal(&r->reader_cv);
	pthread_mutex_unlock(&r->mu);
}

/* How many of @avail slots from @head lie in one run of the array. */
static size_t one_run(const struct cursor_ring *r, size_t head, size_t avail)
{
	size_t to_end = r->depth - head % r->depth;
	return avail < to_end ? avail : to_end;
}

/* Gives the writer back every slot read, and wakes the writer when it
 * sleeps and now has the room it waits for. */
static void give_back(struct cursor_ring *r)
{
	atomic_store(&r->head, r->read);
	if (!atomic_load(&r->writer_waits))
		return;
	pthread_mutex_lock(&r->mu);
	if (r->read >= r->writer_until)
		pthread_cond_signal(&r->writer_cv);
	pthread_mutex_unlock(&r->mu);
}

size_t cursor_ring_ready(struct cursor_ring *r, size_t want)
{
	size_t avail = atomic_load_explicit(&r->tail, memory_order_acquire) - r->read;
	if (avail || !want)
		return one_run(r, r->read, avail);
	/* Empty: what is read must be the writer's before we sleep, or the
	 * writer could wait for it too. */
	give_back(r);
	pthread_mutex_lock(&r->mu);
	r->reader_until = r->read + (want < half(r) ? want : half(r));
	atomic_store(&r->reader_waits, true);
	while (atomic_load(&r->tail) < r->reader_until && !atomic_load(&r->done))
		pthread_cond_wait(&r->reader_cv, &r->mu);
	atomic_store(&r->reader_waits, false);
	pthread_mutex_unlock(&r->mu);
	return one_run(r, r->read, atomic_load(&r->tail) - r->read);
}

void cursor_ring_release(struct cursor_ring *r, size_t n)
{
	r->read += n;
	if (r->read - atomic_load_explicit(&r->head, memory_order_relaxed) >=
	    r->publish_every)
		give_back(r);
}

int cursor_ring_error(struct cursor_ring *r)
{
	pthread_mutex_lock(&r->mu);
	int err = r->err;
	pthread_mutex_unlock(&r->mu);
	return err < 0 ? hwt_error(err, "%s", r->msg) : 0;
}

void cursor_ring_stop(struct cursor_ring *r)
{
	pthread_mutex_lock(&r->mu);
	atomic_store(&r->stop, true);
	pthread_cond_broadcast(&r->writer_cv);
	pthread_mutex_unlock(&r->mu);
}
