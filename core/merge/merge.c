/* The time-ordered merge's writing side (include/hwtrace/merge.h). Each
 * stream is a list of records in chunks: the chunk being filled is in
 * memory, full ones go to one anonymous temporary file shared by all
 * streams (one file, so a capture with thousands of threads needs no more
 * descriptors). Records are compact (merge_codec.h), in blocks that each
 * start the codec afresh. merge_read.c reads them back by time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/merge/merge_internal.h"
#include "core/decode/array_grow.h"
#include "hwtrace/error.h"
#include "hwtrace/spill.h"

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
	void *grown = m->streams;
	if (!array_grow(&grown, &m->cap, sizeof(*m->streams), m->n + 1))
		return NULL;
	m->streams = grown;
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
	int err;
	if (!m->spill &&
	    (err = hwt_spill_open("the time-ordered merge (or decode with "
				  "--per-cpu)", &m->spill)) < 0)
		return err;
	void *grown = s->chunks;
	if (!array_grow(&grown, &s->chunks_cap, sizeof(*s->chunks),
			s->nchunks + 1))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->chunks = grown;
	if (fseeko(m->spill, (off_t)m->spill_size, SEEK_SET) ||
	    fwrite(s->buf, 1, s->len, m->spill) != s->len)
		return hwt_error(HWT_ERR_IO,
				 "writing the time-ordered merge's temporary "
				 "file failed after %llu bytes (%s); set TMPDIR "
				 "to a directory with room or decode with "
				 "--per-cpu",
				 (unsigned long long)m->spill_size,
				 strerror(errno));
	s->chunks[s->nchunks++] = (struct chunk_ref){m->spill_size, s->spilled,
						     (uint32_t)s->len};
	m->spill_size += s->len;
	s->spilled += s->len;
	m->stats.spilled_bytes = m->spill_size;
	s->len = 0;
	return 0;
}

/* The next record starts a block, at @order_time. */
static int start_block(struct stream *s, uint64_t order_time)
{
	void *grown = s->blocks;
	if (!array_grow(&grown, &s->blocks_cap, sizeof(*s->blocks),
			s->nblocks + 1))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s->blocks = grown;
	s->blocks[s->nblocks++] = (struct block){s->spilled + s->len,
						 order_time};
	memset(&s->wc, 0, sizeof(s->wc));
	return 0;
}

static int append(struct hwt_merge *m, struct stream *s,
		  const struct hwt_elem *e, uint64_t order_time)
{
	size_t payload_size;
	const void *payload = merge_payload(e, &payload_size);
	size_t size = merge_rec_max(payload_size);
	if (s->len && s->len + size > CHUNK_BYTES) {
		int err = spill(m, s);
		if (err)
			return err;
	}
	if (!(s->records % BLOCK_RECORDS)) {
		int err = start_block(s, order_time);
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
	s->len += merge_rec_put(&s->wc, s->buf + s->len, e, payload,
				payload_size, order_time);
	s->records++;
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
	if (m->direct) {
		if (s == m->streams)
			return m->out.emit(m->out.arg, e);
		m->direct = false;
	}
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
		free(m->streams[i].blocks);
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
