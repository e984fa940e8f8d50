/* The handoff of a cursor's elements from its decode thread (the one
 * writer) to the caller's thread (the one reader): a bounded ring of
 * slots the writer fills in place and the reader converts in place, with
 * no lock on the way of an element. Each side sleeps only when the ring
 * is empty (reader) or full (writer), and is woken only once the other
 * has made half the ring ready, so a thread switch is paid per thousands
 * of elements, not per element or per small run. */
#ifndef HWT_CORE_PIPELINE_CURSOR_RING_H
#define HWT_CORE_PIPELINE_CURSOR_RING_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/element.h"

/* An element copied out of the decode, with the one string or array it
 * points to (owned, malloc'd), or NULL. */
struct cursor_slot {
	struct hwt_elem e;
	void *payload;
};

struct cursor_ring {
	struct cursor_slot *slots;
	size_t depth;
	size_t publish_every;  /* the writer's run between publications */
	/* Counts of slots ever written and ever read (the ring holds
	 * tail - head), each on a cache line of its own so that one side's
	 * store does not take the line the other side reads. */
	alignas(64) atomic_size_t tail;
	size_t written;        /* the writer's: written, maybe unpublished */
	alignas(64) atomic_size_t head;
	size_t read;           /* the reader's: read, maybe unreleased */
	alignas(64) pthread_mutex_t mu;
	pthread_cond_t reader_cv, writer_cv;
	/* Set under mu by a side about to sleep, with what wakes it: the
	 * tail the reader waits for, the head the writer waits for. */
	atomic_bool reader_waits, writer_waits;
	size_t reader_until, writer_until;
	atomic_bool done;      /* the writer has ended (its error below) */
	atomic_bool stop;      /* the reader is gone: the writer must end */
	int err;
	char msg[512];
};

/* A ring of @depth slots (at least 1). Errors: HWT_ERR_NOMEM. */
int cursor_ring_init(struct cursor_ring *r, size_t depth);
/* Frees the ring and the payloads of slots never read. Only once the
 * writer has ended. */
void cursor_ring_destroy(struct cursor_ring *r);

/* The writer's next slot, waiting for room; NULL when the reader has
 * stopped. cursor_ring_commit hands it over. */
struct cursor_slot *cursor_ring_slot(struct cursor_ring *r);
/* Hands over the slot cursor_ring_slot gave; false when the reader has
 * stopped (noticed once a run). */
bool cursor_ring_commit(struct cursor_ring *r);
/* The writer's end: publishes what is left, keeps @err (and the current
 * hwt_errmsg with it when @err < 0) and wakes the reader. */
void cursor_ring_close(struct cursor_ring *r, int err);

/* The reader's: how many slots are ready in one run of the array from
 * cursor_ring_peek on, waiting for @want of them (at most half the ring)
 * when none are. Returns 0 once the writer has ended with none left. */
size_t cursor_ring_ready(struct cursor_ring *r, size_t want);
/* The reader's first ready slot. */
static inline const struct cursor_slot *cursor_ring_peek(struct cursor_ring *r)
{
	return &r->slots[r->read % r->depth];
}
/* The reader is done with the first @n ready slots (their payloads now
 * the reader's); the writer gets them back a run at a time. */
void cursor_ring_release(struct cursor_ring *r, size_t n);
/* The writer's end, once cursor_ring_ready has returned 0: its error (0
 * for none), with its message raised as hwt_errmsg. */
int cursor_ring_error(struct cursor_ring *r);
/* The reader is gone: wakes the writer, whose next commit or wait says so. */
void cursor_ring_stop(struct cursor_ring *r);

#endif
