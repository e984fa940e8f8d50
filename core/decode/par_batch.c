/* Batches of elements between threads (par_batch.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/decode/array_grow.h"
#include "core/decode/par_batch.h"
#include "hwtrace/error.h"

struct par_batch *par_batch_new(size_t cap)
{
	struct par_batch *b = calloc(1, sizeof(*b));
	if (b)
		b->slot = malloc(cap * sizeof(*b->slot));
	if (!b || !b->slot) {
		par_batch_free(b);
		return NULL;
	}
	b->cap = cap;
	return b;
}

void par_batch_free(struct par_batch *b)
{
	if (!b)
		return;
	free(b->slot);
	free(b->common);
	elem_store_free(&b->whole);
	free(b);
}

void par_batch_reset(struct par_batch *b)
{
	b->next = NULL;
	b->n = b->ncommon = 0;
	elem_store_clear(&b->whole);
	b->safe = false;
}

void par_pool_init(struct par_pool *pool, size_t elems, size_t max)
{
	*pool = (struct par_pool){.max = max, .elems = elems};
	pthread_mutex_init(&pool->lock, NULL);
}

struct par_batch *par_pool_get(struct par_pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	struct par_batch *b = pool->spare;
	if (b) {
		pool->spare = b->next;
		pool->n--;
	}
	pthread_mutex_unlock(&pool->lock);
	if (!b)
		return par_batch_new(pool->elems);
	par_batch_reset(b);
	return b;
}

void par_pool_put(struct par_pool *pool, struct par_batch *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&pool->lock);
	bool keep = !b->spilled && pool->n < pool->max;
	if (keep) {
		b->next = pool->spare;
		pool->spare = b;
		pool->n++;
	}
	pthread_mutex_unlock(&pool->lock);
	if (!keep)
		par_batch_free(b);
}

void par_pool_destroy(struct par_pool *pool)
{
	while (pool->spare) {
		struct par_batch *b = pool->spare;
		pool->spare = b->next;
		par_batch_free(b);
	}
	pthread_mutex_destroy(&pool->lock);
}

int par_batch_put(struct par_batch *b, const struct hwt_elem *e)
{
	if (!b->ncommon || !elem_common_same(&b->common[b->ncommon - 1].c, e)) {
		if (!array_grow((void **)&b->common, &b->common_cap,
				sizeof(*b->common), b->ncommon + 1))
			return hwt_error(HWT_ERR_NOMEM, "out of memory buffering "
					 "decoded elements");
		struct par_common *c = &b->common[b->ncommon++];
		c->at = b->n;
		memcpy(c->c.head, e, sizeof(c->c.head));
	}
	struct elem_slot *s = &b->slot[b->n];
	if (!elem_slot_put(s, e)) {
		int64_t i = elem_store_put(&b->whole, e);
		if (i < 0)
			return hwt_error(HWT_ERR_NOMEM, "out of memory buffering "
					 "decoded elements");
		s->type = (uint8_t)e->type;
		s->whole = true;
		s->a = (uint64_t)i;
	}
	b->n++;
	return 0;
}

void par_writer_start(struct par_writer *w, struct par_batch *b)
{
	/* No free slot known: the first element takes the slow path,
	 * which learns the batch's slots and common fields. */
	*w = (struct par_writer){.b = b, .next = b->slot, .end = b->slot};
}

struct par_batch *par_writer_take(struct par_writer *w)
{
	struct par_batch *b = w->b;
	if (b)
		b->n = (size_t)(w->next - b->slot);
	*w = (struct par_writer){0};
	return b;
}

int par_writer_put_slow(struct par_writer *w, const struct hwt_elem *e)
{
	struct par_batch *b = w->b;
	b->n = (size_t)(w->next - b->slot);
	if (b->n == b->cap)
		return hwt_error(HWT_ERR_INVAL, "an element for a full batch");
	int err = par_batch_put(b, e);
	w->next = b->slot + b->n;
	/* From the first put on, the writer knows all the batch's slots. */
	w->end = b->slot + b->cap;
	if (b->ncommon)
		w->common = b->common[b->ncommon - 1].c;
	return err;
}

/* The arrays of a batch in the file, one after the other. */
static int spill_io(struct par_batch *b, bool write, int fd, uint64_t at,
		    uint64_t *bytes)
{
	struct {
		void *p;
		size_t n;
	} part[] = {
		{b->slot, b->n * sizeof(*b->slot)},
		{b->common, b->ncommon * sizeof(*b->common)},
		{b->whole.e, b->whole.n * sizeof(*b->whole.e)},
		{b->whole.arena, b->whole.used},
	};
	uint64_t off = at;
	for (size_t i = 0; i < sizeof(part) / sizeof(*part); i++) {
		if (!part[i].n)
			continue;
		ssize_t done = write ? pwrite(fd, part[i].p, part[i].n, (off_t)off)
				     : pread(fd, part[i].p, part[i].n, (off_t)off);
		if (done != (ssize_t)part[i].n)
			return -1;
		off += part[i].n;
	}
	*bytes = off - at;
	return 0;
}

uint64_t par_batch_spill(struct par_batch *b, int fd, uint64_t at)
{
	uint64_t bytes;
	if (spill_io(b, true, fd, at, &bytes) < 0)
		return 0;
	b->spilled = true;
	b->fd = fd;
	b->at = at;
	/* The counts stay: they say what to read back. */
	free(b->slot);
	free(b->common);
	free(b->whole.e);
	free(b->whole.arena);
	b->slot = NULL;
	b->common = NULL;
	b->whole.e = NULL;
	b->whole.arena = NULL;
	b->common_cap = b->whole.cap = b->whole.arena_cap = 0;
	return bytes;
}

/* Reads a spilled batch back into memory; 0 at once for one in memory. */
static int par_batch_load(struct par_batch *b)
{
	if (!b->spilled)
		return 0;
	b->slot = malloc(b->cap * sizeof(*b->slot));
	b->common = malloc((b->ncommon ? b->ncommon : 1) * sizeof(*b->common));
	b->whole.e = malloc((b->whole.n ? b->whole.n : 1) * sizeof(*b->whole.e));
	b->whole.arena = malloc(b->whole.used ? b->whole.used : 1);
	if (!b->slot || !b->common || !b->whole.e || !b->whole.arena)
		return hwt_error(HWT_ERR_NOMEM, "out of memory reading decoded "
				 "elements back");
	b->common_cap = b->ncommon;
	b->whole.cap = b->whole.n;
	b->whole.arena_cap = b->whole.used;
	uint64_t bytes;
	if (spill_io(b, false, b->fd, b->at, &bytes) < 0)
		return hwt_error(HWT_ERR_IO, "cannot read decoded elements back "
				 "from a temporary file");
	b->spilled = false;
	/* Read once: give the disk space back. */
	fallocate(b->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		  (off_t)b->at, (off_t)bytes);
	return 0;
}

int par_cursor_start(struct par_cursor *c, struct par_batch *b)
{
	c->b = b;
	c->i = c->next_common = c->run_end = 0;
	hwt_elem_clear(&c->e, HWT_ELEM_RANGE);
	return par_batch_load(b);
}

const struct hwt_elem *par_cursor_next(struct par_cursor *c)
{
	struct par_batch *b = c->b;
	if (c->i >= b->n)
		return NULL;
	size_t i = c->i++;
	if (c->next_common < b->ncommon && b->common[c->next_common].at == i)
		memcpy(&c->e, b->common[c->next_common++].c.head,
		       sizeof(b->common->c.head));
	const struct elem_slot *s = &b->slot[i];
	if (!s->whole) {
		elem_slot_get(s, &c->e);
		return &c->e;
	}
	elem_store_get(&b->whole, (size_t)s->a, &c->whole);
	return &c->whole;
}

_Atomic uint64_t par_run_reads;

size_t par_cursor_run(struct par_cursor *c)
{
	if (c->run_end > c->i) /* the rest of a run measured before */
		return c->run_end - c->i;
	const struct par_batch *b = c->b;
	size_t end = c->next_common < b->ncommon ? b->common[c->next_common].at
						  : b->n;
	size_t i = c->i;
	while (i < end && !b->slot[i].whole)
		i++;
	atomic_fetch_add_explicit(&par_run_reads, i - c->i,
				  memory_order_relaxed);
	c->run_end = i;
	return i - c->i;
}

const struct elem_slot *par_cursor_take(struct par_cursor *c, size_t k)
{
	const struct elem_slot *s = &c->b->slot[c->i];
	c->i += k;
	return s;
}

int par_batch_send(struct par_batch *b, const struct hwt_elem_sink *sink)
{
	struct par_cursor c;
	int err = par_cursor_start(&c, b);
	if (err < 0)
		return err;
	const struct hwt_elem *e;
	while ((e = par_cursor_next(&c)))
		if ((err = sink->emit(sink->arg, e)) < 0)
			return err;
	return 0;
}
