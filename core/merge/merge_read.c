/* The time-ordered merge's reading side (include/hwtrace/merge.h): a heap
 * over the streams' next records yields them by time, and ties by stream.
 *
 * Records are ordered by time, then by stream, then within a stream, and
 * a stream's order times never go back (merge.c). So the output cut at a
 * time T is the records before T, in order, then those at T and after: a
 * read-back can run in slices, [T0, T1), [T1, T2), ..., each on its own
 * thread (a lane) from each stream's last block that starts before the
 * slice, skipping what comes before T. The lanes' output goes out in
 * slice order through their flush; what comes out is what one reader
 * gives. Without time stamps the streams go out whole, one after another,
 * and the slices are runs of a stream's blocks in that order. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/merge/merge_internal.h"
#include "hwtrace/error.h"

/* Elements of a slice, at least; and at most, since each lane holds a
 * slice's output until its turn (512 Ki lines of 150 bytes: 75 MiB). */
#define SLICE_MIN (128u * 1024)
#define SLICE_MAX (512u * 1024)
/* Blocks per stream a slice holds, at least: its start skips half a
 * block per stream on average, a quarter of what it then reads. */
#define SLICE_BLOCKS 2u
/* A lane reading everything flushes this often. */
#define FLUSH_EVERY 65536u

/* One stream as one reader reads it: the bytes at hand (a chunk read from
 * the file into buf, or the stream's tail in place), and the record at
 * their start decoded. */
struct cursor {
	const struct stream *s;
	const uint8_t *p, *end;
	uint64_t end_pos;  /* the stream position of end */
	size_t chunk;      /* the next chunk to read; nchunks: the tail */
	/* Records before the next block, whose start resets the codec:
	 * blocks are BLOCK_RECORDS records each (merge.c), so a count
	 * finds them without a position per record. 0: the next record
	 * starts one. */
	uint32_t block_left;
	uint8_t *buf;
	size_t cap;
	size_t in_buf;     /* the chunk buf holds, plus 1; 0: none */
	struct merge_codec rc;
	/* The record at hand: in rc's words or in scratch (merge_rec_get). */
	const struct hwt_elem *head;
	struct hwt_elem scratch;
	uint64_t head_time;
	size_t head_len;
};

/* A reader: a cursor per stream and a heap of them. */
struct reader {
	struct hwt_merge *m;
	struct cursor *cur;
	size_t *heap;
};

static int read_failed(void)
{
	return hwt_error(HWT_ERR_IO, "reading back the time-ordered merge's "
			 "temporary file failed (%s)", strerror(errno));
}

/* Reads chunk @i of the cursor's stream into its buffer. */
static int read_chunk(struct hwt_merge *m, struct cursor *c, size_t i)
{
	const struct chunk_ref *ref = &c->s->chunks[i];
	c->in_buf = 0;
	if (ref->size > c->cap) {
		uint8_t *b = realloc(c->buf, ref->size);
		if (!b)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		c->buf = b;
		c->cap = ref->size;
	}
	/* pread: lanes read the one file at once. */
	size_t got = 0;
	while (got < ref->size) {
		ssize_t r = pread(fileno(m->spill), c->buf + got, ref->size - got,
				  (off_t)(ref->offset + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			return read_failed();
		}
		got += (size_t)r;
	}
	c->in_buf = i + 1;
	return 0;
}

/* Puts chunk @i (or the tail, @i == nchunks) at hand. */
static int load_chunk(struct hwt_merge *m, struct cursor *c, size_t i)
{
	const struct stream *s = c->s;
	if (i == s->nchunks) {
		c->p = s->buf;
		c->end = s->buf + s->len;
		c->end_pos = s->spilled + s->len;
		c->chunk = i + 1;
		return 0;
	}
	/* A slice often starts in the chunk the lane's last slice read. */
	if (c->in_buf != i + 1) {
		int err = read_chunk(m, c, i);
		if (err)
			return err;
	}
	const struct chunk_ref *ref = &s->chunks[i];
	c->p = c->buf;
	c->end = c->buf + ref->size;
	c->end_pos = ref->pos + ref->size;
	c->chunk = i + 1;
	return 0;
}

/* Puts the cursor at block @k of its stream. */
static int seek_block(struct hwt_merge *m, struct cursor *c, size_t k)
{
	const struct stream *s = c->s;
	uint64_t pos = s->blocks[k].pos;
	size_t i = s->nchunks;
	if (pos < s->spilled) {
		/* The last chunk that starts at or before pos. */
		size_t lo = 0, hi = s->nchunks;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (s->chunks[mid].pos <= pos)
				lo = mid;
			else
				hi = mid;
		}
		i = lo;
	}
	int err = load_chunk(m, c, i);
	if (err)
		return err;
	c->p = c->end - (c->end_pos - pos);
	c->block_left = 0;
	return 0;
}

/* Puts the stream's next bytes at hand when those at hand are used up:
 * 1, or 0 at the stream's end, or an error. */
static int load_next(struct hwt_merge *m, struct cursor *c)
{
	const struct stream *s = c->s;
	while (c->p == c->end) {
		if (c->chunk > s->nchunks)
			return 0;
		int err = load_chunk(m, c, c->chunk);
		if (err)
			return err;
	}
	return 1;
}

/* Decodes the cursor's next record into its head. Returns 1, 0 at the
 * stream's end, or an error. Inline: the read-back's one call per
 * record, whose entry and exit (saving and restoring registers) were a
 * tenth of its instructions. */
static inline __attribute__((always_inline)) int
advance(struct hwt_merge *m, struct cursor *c)
{
	if (c->p == c->end) {
		int more = load_next(m, c);
		if (more <= 0)
			return more;
	}
	if (!c->block_left) {
		memset(&c->rc, 0, sizeof(c->rc));
		c->block_left = BLOCK_RECORDS;
	}
	c->block_left--;
	c->head_len = merge_rec_get(&c->rc, c->p, (size_t)(c->end - c->p),
				    &c->scratch, &c->head, &c->head_time);
	if (!c->head_len)
		return hwt_error(HWT_ERR_IO, "the time-ordered merge's temporary "
				 "file holds a damaged record; decode with "
				 "--per-cpu");
	c->p += c->head_len;
	return 1;
}

/* Puts the cursor at its stream's first record at or after @time: 1 when
 * there is one, 0 when not, or an error. */
static int seek_time(struct hwt_merge *m, struct cursor *c, uint64_t time)
{
	const struct stream *s = c->s;
	if (!s->nblocks)
		return 0;
	/* The last block that starts before @time: the records at @time
	 * may begin in it. */
	size_t lo = 0, hi = s->nblocks;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->blocks[mid].time < time)
			lo = mid;
		else
			hi = mid;
	}
	int err = seek_block(m, c, lo);
	if (err)
		return err;
	int more;
	while ((more = advance(m, c)) > 0 && c->head_time < time)
		;
	return more;
}

/* Heap order: time, then CPU (per-CPU streams first), then tid, then
 * order of appearance. */
static bool stream_before(const struct reader *r, size_t a, size_t b)
{
	const struct stream *x = r->cur[a].s, *y = r->cur[b].s;
	uint32_t cx = (uint32_t)x->cpu, cy = (uint32_t)y->cpu; /* -1 last */
	if (cx != cy)
		return cx < cy;
	if (x->tid != y->tid)
		return x->tid < y->tid;
	return a < b;
}

static bool before(const struct reader *r, size_t a, size_t b)
{
	const struct cursor *x = &r->cur[a], *y = &r->cur[b];
	if (x->head_time != y->head_time)
		return x->head_time < y->head_time;
	return stream_before(r, a, b);
}

static void sift_down(const struct reader *r, size_t n, size_t i)
{
	size_t *heap = r->heap;
	for (;;) {
		size_t l = 2 * i + 1, rt = l + 1, min = i;
		if (l < n && before(r, heap[l], heap[min]))
			min = l;
		if (rt < n && before(r, heap[rt], heap[min]))
			min = rt;
		if (min == i)
			return;
		size_t t = heap[i];
		heap[i] = heap[min];
		heap[min] = t;
		i = min;
	}
}

/* Where a reader's records go: a lane's sink, and for a lane that reads
 * everything (@periodic) a flush every FLUSH_EVERY elements. A lane of
 * slices flushes only at a slice's end, in its turn. */
struct flusher {
	const struct hwt_merge_lane *lane;
	bool periodic;
	uint64_t emitted;
};

static inline int emit(struct flusher *f, const struct hwt_elem *e)
{
	int err = f->lane->sink.emit(f->lane->sink.arg, e);
	if (!err && f->periodic && !(++f->emitted % FLUSH_EVERY))
		err = f->lane->flush(f->lane->arg);
	return err;
}

/* Whether @time is before a slice's end (UINT64_MAX: none). */
static inline bool before_end(uint64_t time, uint64_t until)
{
	return time < until || until == UINT64_MAX;
}

/* Emits the records of [@from, @until) by time. */
static int read_slice(struct reader *r, uint64_t from, uint64_t until,
		      struct flusher *f)
{
	struct hwt_merge *m = r->m;
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		int more = seek_time(m, &r->cur[i], from);
		if (more < 0)
			return more;
		if (more && before_end(r->cur[i].head_time, until))
			r->heap[n++] = i;
	}
	for (size_t i = n / 2; i-- > 0;)
		sift_down(r, n, i);
	while (n) {
		/* A run: the first stream's records go out while each is still
		 * before the best of the others (the heap's second or third
		 * entry), with no heap step per record. Two threads' streams
		 * take turns in long runs. */
		size_t top = r->heap[0];
		struct cursor *c = &r->cur[top];
		uint64_t limit = UINT64_MAX;
		bool wins_tie = true;
		if (n > 1) {
			size_t next = r->heap[1];
			if (n > 2 && before(r, r->heap[2], next))
				next = r->heap[2];
			limit = r->cur[next].head_time;
			wins_tie = stream_before(r, top, next);
		}
		int more;
		do {
			int err = emit(f, c->head);
			if (err)
				return err;
			more = advance(m, c);
			if (more < 0)
				return more;
			more = more && before_end(c->head_time, until);
		} while (more && (c->head_time < limit ||
				  (c->head_time == limit && wins_tie)));
		if (!more)
			r->heap[0] = r->heap[--n];
		sift_down(r, n, 0);
	}
	return 0;
}

/* Without time stamps: each stream whole, in stream order. */
static int read_streams(struct reader *r, struct flusher *f)
{
	for (size_t i = 0; i < r->m->n; i++) {
		struct cursor *c = &r->cur[i];
		if (!c->s->nblocks)
			continue;
		int err = seek_block(r->m, c, 0);
		while (!err && (err = advance(r->m, c)) > 0)
			err = emit(f, c->head);
		if (err < 0)
			return err;
	}
	return 0;
}

/* A run of blocks of one stream, [block, end): a slice of a read-back
 * in stream order. */
struct span {
	size_t stream, block, end;
};

/* Records of block @k of @s: all are full but the last. */
static uint64_t block_records(const struct stream *s, size_t k)
{
	return k + 1 < s->nblocks ? BLOCK_RECORDS
				  : s->records - k * (uint64_t)BLOCK_RECORDS;
}

/* Emits the records of the span's blocks, in stream order. */
static int read_span(struct reader *r, const struct span *sp,
		     struct flusher *f)
{
	struct cursor *c = &r->cur[sp->stream];
	uint64_t left = 0;
	for (size_t k = sp->block; k < sp->end; k++)
		left += block_records(c->s, k);
	int err = seek_block(r->m, c, sp->block);
	for (; !err && left; left--) {
		int more = advance(r->m, c);
		if (more <= 0)
			return more < 0 ? more
					: hwt_error(HWT_ERR_IO, "the time-ordered "
						    "merge's temporary file "
						    "ends early; decode with "
						    "--per-cpu");
		err = emit(f, c->head);
	}
	return err;
}

static int reader_init(struct reader *r, struct hwt_merge *m)
{
	r->m = m;
	r->cur = calloc(m->n + 1, sizeof(*r->cur));
	r->heap = calloc(m->n + 1, sizeof(*r->heap));
	if (!r->cur || !r->heap)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < m->n; i++)
		r->cur[i].s = &m->streams[i];
	return 0;
}

static void reader_free(struct reader *r)
{
	for (size_t i = 0; r->cur && i < r->m->n; i++)
		free(r->cur[i].buf);
	free(r->cur);
	free(r->heap);
}

/* The slices: by time, slice k is [bounds[k], bounds[k + 1]); without
 * time stamps, slice k is spans[k]. */
struct plan {
	uint64_t *bounds;
	struct span *spans;
	size_t n;
};

/* A block's start time and size, to cut slices by. */
struct block_size {
	uint64_t time, records;
};

static int by_time(const void *a, const void *b)
{
	const struct block_size *x = a, *y = b;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* Cuts a read-back in stream order for @nlanes lanes: each stream's
 * blocks in runs of SLICE_MIN records (the last run of a stream may be
 * shorter, down to a block). A span's start reads no other stream, so
 * any number of streams may be cut. */
static int plan_spans(const struct hwt_merge *m, size_t nlanes,
		      struct plan *p)
{
	const size_t per_span = SLICE_MIN / BLOCK_RECORDS;
	uint64_t total = 0;
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		total += m->streams[i].records;
		n += (m->streams[i].nblocks + per_span - 1) / per_span;
	}
	if (nlanes < 2 || total < 2 * SLICE_MIN || n < 2)
		return 0;
	struct span *spans = malloc(n * sizeof(*spans));
	if (!spans)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++)
		for (size_t b = 0; b < m->streams[i].nblocks; b += per_span) {
			size_t end = b + per_span;
			if (end > m->streams[i].nblocks)
				end = m->streams[i].nblocks;
			spans[k++] = (struct span){i, b, end};
		}
	p->spans = spans;
	p->n = n;
	return 0;
}

/* Cuts the read-back for @nlanes lanes where the blocks start. A slice's
 * start costs each stream up to a block of records decoded and skipped:
 * a slice holds several times that. */
static int plan_slices(const struct hwt_merge *m, size_t nlanes,
		       struct plan *p)
{
	p->bounds = NULL;
	p->spans = NULL;
	p->n = 1;
	if (!m->stats.timed)
		return plan_spans(m, nlanes, p);
	uint64_t total = 0;
	size_t nblocks = 0;
	for (size_t i = 0; i < m->n; i++) {
		total += m->streams[i].records;
		nblocks += m->streams[i].nblocks;
	}
	uint64_t target = (uint64_t)m->n * BLOCK_RECORDS * SLICE_BLOCKS;
	if (target < SLICE_MIN)
		target = SLICE_MIN;
	if (nlanes < 2 || m->n < 2 || !m->stats.timed || target > SLICE_MAX ||
	    total < 2 * target)
		return 0;
	struct block_size *all = malloc(nblocks * sizeof(*all));
	uint64_t *bounds = malloc((total / target + 2) * sizeof(*bounds));
	if (!all || !bounds) {
		free(all);
		free(bounds);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct stream *s = &m->streams[i];
		for (size_t b = 0; b < s->nblocks; b++)
			all[k++] = (struct block_size){s->blocks[b].time,
						       block_records(s, b)};
	}
	qsort(all, nblocks, sizeof(*all), by_time);
	size_t n = 0;
	bounds[n++] = 0;
	uint64_t seen = 0;
	for (size_t i = 0; i < nblocks; i++) {
		/* UINT64_MAX ends the last slice: never a start. */
		if (seen >= n * target && all[i].time > bounds[n - 1] &&
		    all[i].time != UINT64_MAX)
			bounds[n++] = all[i].time;
		seen += all[i].records;
	}
	bounds[n] = UINT64_MAX;
	free(all);
	if (n > 1) {
		p->bounds = bounds;
		p->n = n;
	} else {
		free(bounds); /* every block at one time: nothing to cut */
	}
	return 0;
}

size_t hwt_merge_slices(const struct hwt_merge *m, size_t nlanes)
{
	struct plan p;
	if (plan_slices(m, nlanes, &p) < 0)
		return 1;
	free(p.bounds);
	free(p.spans);
	return p.n;
}

/* Lanes take turns at flushing, in slice order. */
struct turns {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t next;  /* the slice whose flush is next */
	bool stop;    /* a slice failed: no more flushes */
	size_t failed; /* which, and why */
	int err;
	char msg[1024];
};

struct lane_run {
	struct hwt_merge *m;
	const struct hwt_merge_lane *lane;
	const struct plan *plan;
	struct turns *turns;
	size_t first, step;
	pthread_t thread;
};

/* Records a slice's failure, once its turn has come: the slices before it
 * are out, and none after it goes. */
static void fail_turn(struct turns *t, size_t k, int err)
{
	if (!t->stop || k < t->failed) {
		t->stop = true;
		t->failed = k;
		t->err = err;
		snprintf(t->msg, sizeof(t->msg), "%s", hwt_errmsg());
	}
	pthread_cond_broadcast(&t->cond);
}

static void *lane_main(void *arg)
{
	struct lane_run *run = arg;
	struct turns *t = run->turns;
	struct reader r;
	int err = reader_init(&r, run->m);
	struct flusher f = {run->lane, false, 0};
	for (size_t k = run->first; k < run->plan->n; k += run->step) {
		if (!err && run->plan->spans)
			err = read_span(&r, &run->plan->spans[k], &f);
		else if (!err)
			err = read_slice(&r, run->plan->bounds[k],
					 run->plan->bounds[k + 1], &f);
		pthread_mutex_lock(&t->lock);
		while (t->next != k && !t->stop)
			pthread_cond_wait(&t->cond, &t->lock);
		if (t->stop) {
			pthread_mutex_unlock(&t->lock);
			break;
		}
		if (!err && run->lane->flush)
			err = run->lane->flush(run->lane->arg);
		if (err) {
			fail_turn(t, k, err);
			pthread_mutex_unlock(&t->lock);
			break;
		}
		t->next++;
		pthread_cond_broadcast(&t->cond);
		pthread_mutex_unlock(&t->lock);
	}
	reader_free(&r);
	return NULL;
}

static int read_in_slices(struct hwt_merge *m,
			  const struct hwt_merge_lane *lanes, size_t nlanes,
			  const struct plan *plan)
{
	struct turns t = {.lock = PTHREAD_MUTEX_INITIALIZER,
			  .cond = PTHREAD_COND_INITIALIZER};
	if (nlanes > plan->n)
		nlanes = plan->n;
	struct lane_run *runs = calloc(nlanes, sizeof(*runs));
	if (!runs)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t started = 1;
	for (size_t i = 0; i < nlanes; i++)
		runs[i] = (struct lane_run){.m = m, .lane = &lanes[i],
					    .plan = plan, .turns = &t,
					    .first = i, .step = nlanes};
	for (; started < nlanes; started++)
		if (pthread_create(&runs[started].thread, NULL, lane_main,
				   &runs[started]))
			break;
	/* A lane that could not start would leave its slices' turns
	 * waiting for ever: without any, the calling thread reads every
	 * slice; with some, too late to share out their slices again. */
	if (started == 1) {
		runs[0].step = 1;
	} else if (started < nlanes) {
		pthread_mutex_lock(&t.lock);
		fail_turn(&t, 0, hwt_error(HWT_ERR_NOMEM, "cannot start a "
					   "thread for the time-ordered merge"));
		pthread_mutex_unlock(&t.lock);
	}
	if (!t.stop)
		lane_main(&runs[0]);
	for (size_t i = 1; i < started; i++)
		pthread_join(runs[i].thread, NULL);
	free(runs);
	pthread_mutex_destroy(&t.lock);
	pthread_cond_destroy(&t.cond);
	return t.stop ? hwt_error(t.err, "%s", t.msg) : 0;
}

int hwt_merge_finish_lanes(struct hwt_merge *m,
			   const struct hwt_merge_lane *lanes, size_t nlanes)
{
	if (m->spill && fflush(m->spill))
		return hwt_error(HWT_ERR_IO, "writing the time-ordered merge's "
				 "temporary file failed (%s)", strerror(errno));
	struct plan plan;
	int err = plan_slices(m, nlanes, &plan);
	if (err)
		return err;
	if (plan.n > 1) {
		err = read_in_slices(m, lanes, nlanes, &plan);
		free(plan.bounds);
		free(plan.spans);
		return err;
	}
	struct reader r;
	struct flusher f = {&lanes[0], lanes[0].flush != NULL, 0};
	err = reader_init(&r, m);
	if (!err)
		err = m->stats.timed ? read_slice(&r, 0, UINT64_MAX, &f)
				     : read_streams(&r, &f);
	if (!err && lanes[0].flush)
		err = lanes[0].flush(lanes[0].arg);
	reader_free(&r);
	return err;
}

int hwt_merge_finish(struct hwt_merge *m)
{
	struct hwt_merge_lane lane = {m->out, NULL, NULL};
	return hwt_merge_finish_lanes(m, &lane, 1);
}
