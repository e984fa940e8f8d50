/* The element pipe (include/hwtrace/pipe.h): the emitting thread fills a
 * batch (par_batch.h: ranges and branches in 32-byte slots, the rest
 * whole with copies of their strings) and queues it; the pipe's thread
 * sends queued batches to @out in order. At most PIPE_QUEUED batches
 * wait, so memory stays bounded when @out is the slower side. */
#include <pthread.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/par_batch.h"
#include "hwtrace/error.h"
#include "hwtrace/pipe.h"

/* Elements a batch: a hand-over wakes a thread, which costs about what
 * sending a few thousand elements does; a batch of 4096 slots (128 KiB)
 * is still in the cache when the other side reads it. */
#define PIPE_BATCH 4096
#define PIPE_QUEUED 4

struct hwt_pipe {
	struct hwt_elem_sink out;
	bool started;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t queued;     /* a batch was queued, or stop */
	pthread_cond_t sent;       /* a batch was sent */
	struct par_batch *head, *tail; /* waiting, oldest first */
	size_t nqueued;
	/* Sent batches: those waiting, the one being sent and the one
	 * being filled are all there may be. */
	struct par_pool pool;
	bool stop;
	int err;                   /* the first error @out returned */
	char msg[1024];
	/* The emitting thread's batch: written per element, so on cache
	 * lines of its own. */
	alignas(64) struct par_writer in;
};

static void *consume(void *arg)
{
	struct hwt_pipe *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->head && !p->stop)
			pthread_cond_wait(&p->queued, &p->lock);
		struct par_batch *b = p->head;
		if (!b)
			break;
		p->head = b->next;
		if (!p->head)
			p->tail = NULL;
		p->nqueued--;
		/* After an error nothing more reaches @out, as when it is
		 * called directly. */
		bool failed = p->err < 0;
		pthread_mutex_unlock(&p->lock);
		int err = failed ? 0 : par_batch_send(b, &p->out);
		pthread_mutex_lock(&p->lock);
		if (err < 0 && !p->err) {
			p->err = err;
			snprintf(p->msg, sizeof(p->msg), "%s", hwt_errmsg());
		}
		par_pool_put(&p->pool, b);
		pthread_cond_signal(&p->sent);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The error @out returned, as the emitting thread's error. With the lock
 * held. */
static int out_error(const struct hwt_pipe *p)
{
	return p->err < 0 ? hwt_error(p->err, "%s", p->msg) : 0;
}

/* Queues @b, filled, waiting while PIPE_QUEUED do. */
static int hand_over(struct hwt_pipe *p, struct par_batch *b)
{
	pthread_mutex_lock(&p->lock);
	while (p->nqueued >= PIPE_QUEUED && !p->err)
		pthread_cond_wait(&p->sent, &p->lock);
	if (p->err) {
		par_pool_put(&p->pool, b);
	} else {
		b->next = NULL;
		if (p->tail)
			p->tail->next = b;
		else
			p->head = b;
		p->tail = b;
		p->nqueued++;
		pthread_cond_signal(&p->queued);
	}
	int err = out_error(p);
	pthread_mutex_unlock(&p->lock);
	return err;
}

static int pipe_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_pipe *p = arg;

	if (!p->started)
		return p->out.emit(p->out.arg, e);
	if (!p->in.b) {
		struct par_batch *b = par_pool_get(&p->pool);
		if (!b)
			return hwt_error(HWT_ERR_NOMEM, "out of memory passing "
					 "elements to the output thread");
		par_writer_start(&p->in, b);
	}
	if (par_writer_put(&p->in, e) < 0)
		return hwt_error(HWT_ERR_NOMEM, "out of memory passing elements "
				 "to the output thread");
	return par_writer_full(&p->in) ? hand_over(p, par_writer_take(&p->in)) : 0;
}

int hwt_pipe_new(const struct hwt_elem_sink *out, struct hwt_pipe **pipe)
{
	struct hwt_pipe *p = aligned_alloc(alignof(struct hwt_pipe), sizeof(*p));
	if (p)
		memset(p, 0, sizeof(*p));
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	p->out = *out;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->queued, NULL);
	pthread_cond_init(&p->sent, NULL);
	par_pool_init(&p->pool, PIPE_BATCH, PIPE_QUEUED + 2);
	*pipe = p;
	return 0;
}

struct hwt_elem_sink hwt_pipe_sink(struct hwt_pipe *pipe)
{
	return (struct hwt_elem_sink){pipe_emit, pipe};
}

int hwt_pipe_start(struct hwt_pipe *p)
{
	if (p->started)
		return 0;
	p->stop = false;
	p->err = 0;
	if (pthread_create(&p->thread, NULL, consume, p))
		return hwt_error(HWT_ERR_NOMEM, "cannot start the output thread");
	p->started = true;
	return 0;
}

int hwt_pipe_finish(struct hwt_pipe *p)
{
	if (!p->started)
		return 0;
	int err = 0;
	struct par_batch *b = par_writer_take(&p->in);
	if (b && b->n)
		err = hand_over(p, b);
	else
		par_batch_free(b);
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->queued);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->started = false;
	/* The thread has stopped: its error needs no lock now. */
	int out = out_error(p);
	return out < 0 ? out : err;
}

void hwt_pipe_free(struct hwt_pipe *p)
{
	if (!p)
		return;
	hwt_pipe_finish(p);
	par_pool_destroy(&p->pool);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->queued);
	pthread_cond_destroy(&p->sent);
	free(p);
}
