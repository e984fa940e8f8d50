/* The time-ordered merge (include/hwtrace/merge.h). Each stream is a list
 * of records in chunks: the chunk being filled is in memory, full ones go
 * to one anonymous temporary file shared by all streams (one file, so a
 * capture with thousands of threads needs no more descriptors). Records
 * are compact (merge_codec.h). At the end, a heap over the streams' next
 * records yields them by time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/merge/merge_codec.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"

/* Bytes of a stream kept in memory before they go to the file, and the
 * read buffer of each stream at the end: memory is about twice this per
 * stream, whatever the size of the trace. */
#define CHUNK_BYTES (256u * 1024)

struct chunk_ref {
	uint64_t offset;
	uint32_t size;
};

struct stream {
	int64_t key;
	int32_t cpu, tid;       /* cpu -1: a per-thread stream */
	bool has_time;
	uint64_t last_time;
	uint8_t *buf;           /* the chunk being filled, then read */
	size_t len, cap;
	struct chunk_ref *chunks;
	size_t nchunks, chunks_cap;
	/* Reading: the next chunk and the place in buf. */
	size_t next_chunk;
	size_t rpos, rlen;
	bool tail_loaded;       /* buf holds the in-memory tail */
	/* The next record, read: its element (pointing into buf), the time
	 * it is merged by and its size. */
	struct hwt_elem head;
	uint64_t head_time;
	size_t head_len;
	struct merge_codec wc, rc; /* writing and reading */
};

struct hwt_merge {
	struct hwt_elem_sink out;
	struct stream *streams; /* in order of appearance */
	size_t n, cap;
	size_t last;            /* the stream the last element went to */
	FILE *spill;
	uint64_t spill_size;
	struct hwt_merge_stats stats;
	/* The decode said it has one stream (hwt_merge_expect_streams):
	 * the first stream's elements go straight out while it is the only
	 * one. */
	bool direct;
};

static int64_t stream_key(const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_CPU)
		return e->cpu;
	if (e->fields & HWT_FIELD_TID)
		return ((int64_t)1 << 32) + e->tid;
	return -1;
}

static struct stream *get_stream(struct hwt_merge *m, const struct hwt_elem *e)
{
	int64_t key = stream_key(e);
	/* Decoders emit a stream at a time: the last one is the likely one. */
	if (m->n && m->streams[m->last].key == key)
		return &m->streams[m->last];
	for (size_t i = 0; i < m->n; i++)
		if (m->streams[i].key == key) {
			m->last = i;
			return &m->streams[i];
		}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 8;
		struct stream *v = realloc(m->streams, cap * sizeof(*v));
		if (!v)
			return NULL;
		m->streams = v;
		m->cap = cap;
	}
	struct stream *s = &m->streams[m->n];
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->cpu = (e->fields & HWT_FIELD_CPU) ? e->cpu : -1;
	s->tid = (e->fields & HWT_FIELD_TID) ? e->tid : -1;
	m->last = m->n++;
	m->stats.streams = m->n;
	return s;
}

static int spill(struct hwt_merge *m, struct stream *s)
{
	if (!m->spill && !(m->spill = tmpfile()))
		return hwt_error(HWT_ERR_IO,
				 "cannot create a temporary file for the "
				 "time-ordered merge in $TMPDIR or /tmp (%s); "
				 "set TMPDIR to a writable directory or decode "
				 "with --per-cpu", strerror(errno));
	if (s->nchunks == s->chunks_cap) {
		size_t cap = s->chunks_cap ? s->chunks_cap * 2 : 16;
		struct chunk_ref *v = realloc(s->chunks, cap * sizeof(*v));
		if (!v)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		s->chunks = v;
		s->chunks_cap = cap;
	}
	if (fseeko(m->spill, (off_t)m->spill_size, SEEK_SET) ||
	    fwrite(s->buf, 1, s->len, m->spill) != s->len)
		return hwt_error(HWT_ERR_IO,
				 "writing the time-ordered merge's temporary "
				 "file failed after %llu bytes (%s); set TMPDIR "
				 "to a directory with room or decode with "
				 "--per-cpu",
				 (unsigned long long)m->spill_size,
				 strerror(errno));
	s->chunks[s->nchunks++] = (struct chunk_ref){m->spill_size,
						     (uint32_t)s->len};
	m->spill_size += s->len;
	m->stats.spilled_bytes = m->spill_size;
	s->len = 0;
	return 0;
}

static int append(struct hwt_merge *m, struct stream *s,
		  const struct hwt_elem *e, uint64_t order_time)
{
	size_t payload_size;
	hwt_elem_payload(e, &payload_size);
	size_t size = merge_rec_max(payload_size);
	if (s->len && s->len + size > CHUNK_BYTES) {
		int err = spill(m, s);
		if (err)
			return err;
	}
	if (s->len + size > s->cap) {
		size_t cap = s->len + size > CHUNK_BYTES ? s->len + size
							 : CHUNK_BYTES;
		uint8_t *b = realloc(s->buf, cap);
		if (!b)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		s->buf = b;
		s->cap = cap;
	}
	s->len += merge_rec_put(&s->wc, s->buf + s->len, e, payload_size,
				order_time);
	return 0;
}

static int merge_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_merge *m = arg;
	struct stream *s = get_stream(m, e);
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	m->stats.elements++;
	if (e->fields & HWT_FIELD_TIME) {
		m->stats.timed++;
		if (s->has_time && e->time < s->last_time)
			m->stats.time_backwards++;
		else
			s->last_time = e->time;
		s->has_time = true;
	}
	if (m->direct && s == m->streams)
		return m->out.emit(m->out.arg, e);
	m->direct = false;
	return append(m, s, e, s->last_time);
}

void hwt_merge_expect_streams(struct hwt_merge *m, uint64_t streams)
{
	m->direct = streams == 1 && !m->stats.elements;
}

int hwt_merge_new(const struct hwt_elem_sink *out, struct hwt_merge **merge)
{
	struct hwt_merge *m = calloc(1, sizeof(*m));
	if (!m)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	m->out = *out;
	*merge = m;
	return 0;
}

void hwt_merge_free(struct hwt_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->streams[i].buf);
		free(m->streams[i].chunks);
	}
	free(m->streams);
	if (m->spill)
		fclose(m->spill);
	free(m);
}

struct hwt_elem_sink hwt_merge_sink(struct hwt_merge *m)
{
	struct hwt_elem_sink sink = {merge_emit, m};
	return sink;
}

void hwt_merge_get_stats(const struct hwt_merge *m,
			 struct hwt_merge_stats *stats)
{
	*stats = m->stats;
}

/* Makes the stream's next record readable at buf + rpos. Returns 1 when
 * there is one, 0 at the end, or an error. The in-memory tail is read
 * last, in place; spilled chunks are read into buf before it. */
static int load_next(struct hwt_merge *m, struct stream *s, uint8_t **tmp,
		     size_t *tmp_cap)
{
	if (s->rpos < s->rlen)
		return 1;
	if (s->next_chunk < s->nchunks) {
		struct chunk_ref *c = &s->chunks[s->next_chunk++];
		/* The chunk goes where the tail was: keep the tail aside. */
		if (!s->tail_loaded && s->next_chunk == 1) {
			uint8_t *copy = malloc(s->len ? s->len : 1);
			if (!copy)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			memcpy(copy, s->buf, s->len);
			*tmp = copy;
			*tmp_cap = s->len;
		}
		if (c->size > s->cap) {
			uint8_t *b = realloc(s->buf, c->size);
			if (!b)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			s->buf = b;
			s->cap = c->size;
		}
		if (fseeko(m->spill, (off_t)c->offset, SEEK_SET) ||
		    fread(s->buf, 1, c->size, m->spill) != c->size)
			return hwt_error(HWT_ERR_IO,
					 "reading back the time-ordered merge's "
					 "temporary file failed (%s)",
					 strerror(errno));
		s->rpos = 0;
		s->rlen = c->size;
		return 1;
	}
	if (s->tail_loaded)
		return 0;
	s->tail_loaded = true;
	if (s->nchunks) {
		/* The tail was set aside when the first chunk came in. */
		if (*tmp_cap > s->cap) {
			uint8_t *b = realloc(s->buf, *tmp_cap);
			if (!b)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			s->buf = b;
			s->cap = *tmp_cap;
		}
		memcpy(s->buf, *tmp, *tmp_cap);
		s->len = *tmp_cap;
		free(*tmp);
		*tmp = NULL;
	}
	s->rpos = 0;
	s->rlen = s->len;
	return s->rlen > 0;
}

/* Reader state of every stream at the end: the tail each set aside. */
struct reader {
	uint8_t **tmp;
	size_t *tmp_cap;
};

static int advance(struct hwt_merge *m, struct reader *r, size_t i)
{
	struct stream *s = &m->streams[i];
	int more = load_next(m, s, &r->tmp[i], &r->tmp_cap[i]);
	if (more > 0) {
		s->head_len = merge_rec_get(&s->rc, s->buf + s->rpos,
					    s->rlen - s->rpos, &s->head,
					    &s->head_time);
		if (!s->head_len)
			return hwt_error(HWT_ERR_IO,
					 "the time-ordered merge's temporary "
					 "file holds a damaged record; decode "
					 "with --per-cpu");
	}
	return more;
}

/* Heap order: time, then CPU (per-CPU streams first), then tid, then
 * order of appearance. */
static bool before(const struct hwt_merge *m, size_t a, size_t b)
{
	const struct stream *x = &m->streams[a], *y = &m->streams[b];
	if (x->head_time != y->head_time)
		return x->head_time < y->head_time;
	uint32_t cx = (uint32_t)x->cpu, cy = (uint32_t)y->cpu; /* -1 last */
	if (cx != cy)
		return cx < cy;
	if (x->tid != y->tid)
		return x->tid < y->tid;
	return a < b;
}

static void sift_down(const struct hwt_merge *m, size_t *heap, size_t n,
		      size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;
		if (l < n && before(m, heap[l], heap[min]))
			min = l;
		if (r < n && before(m, heap[r], heap[min]))
			min = r;
		if (min == i)
			return;
		size_t t = heap[i];
		heap[i] = heap[min];
		heap[min] = t;
		i = min;
	}
}

static int emit_head(struct hwt_merge *m, struct stream *s)
{
	s->rpos += s->head_len;
	return m->out.emit(m->out.arg, &s->head);
}

int hwt_merge_finish(struct hwt_merge *m)
{
	struct reader r = {calloc(m->n + 1, sizeof(uint8_t *)),
			   calloc(m->n + 1, sizeof(size_t))};
	size_t *heap = calloc(m->n + 1, sizeof(size_t));
	int err = 0;
	if (!r.tmp || !r.tmp_cap || !heap) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (m->spill && fflush(m->spill)) {
		err = hwt_error(HWT_ERR_IO,
				"writing the time-ordered merge's temporary "
				"file failed (%s)", strerror(errno));
		goto out;
	}
	if (!m->stats.timed) {
		/* Nothing to merge by: each stream whole, in order. */
		for (size_t i = 0; i < m->n && !err; i++)
			while (!err && (err = advance(m, &r, i)) > 0)
				err = emit_head(m, &m->streams[i]);
		goto out;
	}
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		int more = advance(m, &r, i);
		if (more < 0) {
			err = more;
			goto out;
		}
		if (more)
			heap[n++] = i;
	}
	for (size_t i = n / 2; i-- > 0;)
		sift_down(m, heap, n, i);
	while (n && !err) {
		size_t i = heap[0];
		uint64_t time = m->streams[i].head_time;
		err = emit_head(m, &m->streams[i]);
		if (err)
			break;
		int more = advance(m, &r, i);
		if (more < 0) {
			err = more;
			break;
		}
		/* A stream's next record at the same time is still first:
		 * ties go by the stream, not the record. Most records share
		 * their time with the one before (time stamps are rarer than
		 * branches), so most need no sift. */
		if (more && m->streams[i].head_time == time)
			continue;
		if (!more)
			heap[0] = heap[--n];
		sift_down(m, heap, n, 0);
	}
out:
	for (size_t i = 0; r.tmp && i < m->n; i++)
		free(r.tmp[i]);
	free(r.tmp);
	free(r.tmp_cap);
	free(heap);
	return err < 0 ? err : 0;
}
