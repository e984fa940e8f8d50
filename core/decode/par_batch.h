/* A batch of elements on its way from a decoding thread to the calling
 * one (decode_parallel.c). Ranges and branches, nearly all of them, take
 * a 32-byte slot each (elem_slot.h), the common fields they share are
 * kept where they change, and any other element is kept whole with a
 * copy of its string or branch array. A batch may be written to a file
 * and read back when its unit must wait. */
#ifndef HWT_CORE_DECODE_PAR_BATCH_H
#define HWT_CORE_DECODE_PAR_BATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/decode/elem_slot.h"
#include "core/decode/elem_store.h"
#include "hwtrace/element.h"

struct par_batch {
	struct par_batch *next;   /* its owner's list */
	struct elem_slot *slot;   /* n of at most cap */
	size_t n, cap;
	struct par_common *common; /* where the common fields change */
	size_t ncommon, common_cap;
	struct elem_store whole;  /* the elements no slot holds */
	/* Published while the unit had marked no section missing_reported:
	 * its elements are the same whatever the image's marks were. */
	bool safe;
	bool spilled;             /* its arrays are in fd at @at, not here */
	int fd;
	uint64_t at;
};

/* A batch for @cap elements; NULL when out of memory. */
struct par_batch *par_batch_new(size_t cap);
void par_batch_free(struct par_batch *b);

/* Empties @b (in memory) for reuse. */
void par_batch_reset(struct par_batch *b);

/* Sent batches kept for the threads that fill batches: a new one is
 * fresh memory from the kernel (page faults, cold caches) each time.
 * Safe to use from any thread. */
struct par_pool {
	pthread_mutex_t lock;
	struct par_batch *spare;
	size_t n, max;  /* kept, and the most kept */
	size_t elems;   /* the capacity of a new batch */
};

void par_pool_init(struct par_pool *pool, size_t elems, size_t max);
/* An empty batch: a kept one, or a new one; NULL when out of memory. */
struct par_batch *par_pool_get(struct par_pool *pool);
/* Keeps @b, sent and in memory, for reuse while fewer than max are kept;
 * frees it otherwise. NULL is a no-op. */
void par_pool_put(struct par_pool *pool, struct par_batch *b);
/* Frees the kept batches. */
void par_pool_destroy(struct par_pool *pool);

/* Adds @e (its string or branch array copied) to @b, not full; 0 or
 * HWT_ERR_NOMEM. */
int par_batch_put(struct par_batch *b, const struct hwt_elem *e);

/* Where the common fields change. */
struct par_common {
	size_t at;
	struct elem_common c;
};

/* Fills one batch at a time. Most elements are ranges and branches with
 * the common fields of the one before: the writer keeps its free slots
 * and the batch's newest common fields in itself, so that such an
 * element costs loads from the writer alone, not a chain of them through
 * the batch (the chain was a sixth of a decoding thread's time). */
struct par_writer {
	struct par_batch *b;          /* the batch being filled, or NULL */
	struct elem_slot *next, *end; /* its free slots known to the writer */
	struct elem_common common;    /* its newest common fields */
};

/* Fills @b, empty, from now on. */
void par_writer_start(struct par_writer *w, struct par_batch *b);
/* The batch, its count up to date; the writer then has none. */
struct par_batch *par_writer_take(struct par_writer *w);
int par_writer_put_slow(struct par_writer *w, const struct hwt_elem *e);

/* Adds @e to the writer's batch, which is not full; 0 or HWT_ERR_NOMEM. */
static inline int par_writer_put(struct par_writer *w, const struct hwt_elem *e)
{
	if (w->next == w->end || !elem_common_same(&w->common, e) ||
	    !elem_slot_put(w->next, e))
		return par_writer_put_slow(w, e);
	w->next++;
	return 0;
}

/* Whether the writer's batch is full (then it is taken and sent): asked
 * after a put, which has shown the writer all the batch's slots. */
static inline bool par_writer_full(const struct par_writer *w)
{
	return w->next == w->end;
}

/* Writes @b's arrays to @fd at @at and frees them; returns the bytes
 * written, or 0 when it could not (@b then stays in memory). */
uint64_t par_batch_spill(struct par_batch *b, int fd, uint64_t at);

/* Walks a batch's elements in order. An element is valid until the next
 * call; its common fields stay in @e for the slots that follow. */
struct par_cursor {
	struct par_batch *b;
	size_t i, next_common;
	size_t run_end; /* where the run par_cursor_run measured ends */
	struct hwt_elem e;
	struct hwt_elem whole; /* the last element kept whole */
};

/* Starts at @b's first element, reading @b back first when spilled.
 * Returns 0 or an error reading back. */
int par_cursor_start(struct par_cursor *c, struct par_batch *b);
/* The next element; NULL at the end. */
const struct hwt_elem *par_cursor_next(struct par_cursor *c);
/* How many of the next elements are ranges and branches in slots with
 * the common fields of the last one returned: par_cursor_take may take
 * them (up to that many) as slots. */
size_t par_cursor_run(struct par_cursor *c);
/* The slots par_cursor_run has read, in all: a test checks that a batch
 * is read about once, as a run measured again for each of its elements
 * made the hand-over quadratic. */
extern _Atomic uint64_t par_run_reads;
const struct elem_slot *par_cursor_take(struct par_cursor *c, size_t k);

/* Sends @b's elements to @sink in order, reading them back first when
 * spilled. Returns 0, the sink's error, or an error reading back. */
int par_batch_send(struct par_batch *b, const struct hwt_elem_sink *sink);

#endif
