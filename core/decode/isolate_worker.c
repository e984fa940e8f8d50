/* The worker process of an isolated decoder (isolate_proto.h): creates
 * the decoder, answers "created" with its result, then runs the commands
 * that come, sending warnings and progress as they happen, elements a
 * part of the shared ring at a time (flushed before each warning, each
 * progress report and each error element), and each command's result
 * last; or, for hwt_isolation_call, makes its one call and answers with
 * its result. It runs in the sandbox of core/os/os_worker.c: it only
 * reads and writes its socket and the ring. */
#include <stdlib.h>
#include <string.h>

#include "core/decode/elem_slot.h"
#include "core/decode/isolate_proto.h"
#include "core/os/os_worker.h"
#include "hwtrace/error.h"

struct worker {
	int fd;
	const struct iso_setup *setup; /* NULL in a call's worker */
	uint8_t *ring;
	void *priv;
	uint8_t *bytes; /* the last chunk's bytes that were sent */
	uint64_t nbytes;
	uint8_t *part;  /* the part of the ring being filled */
	uint32_t nparts_sent;
	uint32_t unacked; /* parts sent and not yet read by the parent */
	size_t used;      /* bytes of *part filled */
	bool lost; /* the parent is gone */
	bool sandboxed;
	struct elem_common common; /* of the batch's last slot */
	bool have_common;
};

static int send_msg(struct worker *w, uint32_t type, const void *a,
		    size_t alen, const void *b, size_t blen)
{
	struct iso_msg m = {.type = type, .len = alen + blen};
	if (w->lost || hwt_worker_write_all(w->fd, &m, sizeof(m)) ||
	    (alen && hwt_worker_write_all(w->fd, a, alen)) ||
	    (blen && hwt_worker_write_all(w->fd, b, blen))) {
		w->lost = true;
		return HWT_ERR_IO;
	}
	return 0;
}

/* Reads the parent's ISO_ACK of the oldest part sent. Only acks can come
 * while a command runs: the parent sends its next command after this
 * one's answer. */
static int read_ack(struct worker *w)
{
	struct iso_msg m;
	if (w->lost || hwt_worker_read_all(w->fd, &m, sizeof(m)) ||
	    m.type != ISO_ACK || m.len || !w->unacked) {
		w->lost = true;
		return HWT_ERR_IO;
	}
	w->unacked--;
	return 0;
}

/* Names the filled part to the parent and moves to the next, once the
 * parent has read what it held before. */
static int send_batch(struct worker *w)
{
	if (!w->used)
		return 0;
	struct iso_batch b = {.part = w->nparts_sent % ISO_RING_PARTS,
			      .len = w->used};
	int err = send_msg(w, ISO_ELEMS_SHARED, &b, sizeof(b), NULL, 0);
	w->used = 0;
	w->have_common = false; /* each batch reads on its own */
	if (err)
		return err;
	w->nparts_sent++;
	w->unacked++;
	while (!err && w->unacked >= ISO_RING_PARTS)
		err = read_ack(w);
	w->part = w->ring +
		  (size_t)(w->nparts_sent % ISO_RING_PARTS) * ISO_RING_PART;
	return err;
}

/* Room for a record of @len bytes in the part: 0, or an error. */
static int make_room(struct worker *w, size_t len)
{
	if (w->used + len <= ISO_RING_PART)
		return 0;
	return send_batch(w);
}

static void put_bytes(struct worker *w, const void *p, size_t len)
{
	memcpy(w->part + w->used, p, len);
	w->used += len;
}

static void put_record(struct worker *w, uint64_t kind, const void *p,
		       size_t len)
{
	put_bytes(w, &kind, sizeof(kind));
	put_bytes(w, p, len);
}

/* A whole element with its payload (@size bytes), padded to 8 bytes,
 * after its kind: in the ring, or, when a part cannot hold it, alone
 * over the socket. */
static int put_whole(struct worker *w, const struct hwt_elem *e,
		     const void *payload, uint64_t size)
{
	static const uint8_t zeros[8];
	uint64_t kind = ISO_REC_WHOLE, pad = (8 - size % 8) % 8;
	size_t len = sizeof(kind) + sizeof(*e) + sizeof(size) + size + pad;
	if (len > ISO_RING_PART) {
		uint8_t *rec = malloc(len);
		if (!rec || send_batch(w) < 0) {
			free(rec);
			return HWT_ERR_IO;
		}
		memcpy(rec, &kind, sizeof(kind));
		memcpy(rec + sizeof(kind), e, sizeof(*e));
		memcpy(rec + sizeof(kind) + sizeof(*e), &size, sizeof(size));
		memcpy(rec + sizeof(kind) + sizeof(*e) + sizeof(size), payload,
		       size);
		memset(rec + len - pad, 0, pad);
		int err = send_msg(w, ISO_ELEMS, rec, len, NULL, 0);
		free(rec);
		return err;
	}
	if (make_room(w, len) < 0)
		return HWT_ERR_IO;
	put_record(w, kind, e, sizeof(*e));
	put_bytes(w, &size, sizeof(size));
	if (size)
		put_bytes(w, payload, size);
	put_bytes(w, zeros, pad);
	return 0;
}

static int emit(void *arg, const struct hwt_elem *elem)
{
	struct worker *w = arg;
	struct elem_slot slot;
	if (elem_slot_put(&slot, elem)) {
		bool same = w->have_common && elem_common_same(&w->common, elem);
		size_t len = sizeof(uint64_t) + sizeof(slot);
		if (!same)
			len += sizeof(uint64_t) + sizeof(w->common.head);
		if (make_room(w, len) < 0)
			return HWT_ERR_IO;
		/* A new part starts without a common record. */
		if (!same || !w->have_common) {
			memcpy(w->common.head, elem, sizeof(w->common.head));
			w->have_common = true;
			put_record(w, ISO_REC_COMMON, w->common.head,
				   sizeof(w->common.head));
		}
		put_record(w, ISO_REC_SLOT, &slot, sizeof(slot));
		return 0;
	}
	struct hwt_elem e = *elem;
	size_t size = 0;
	const void *payload = hwt_elem_payload(elem, &size);
	const void **ptr = hwt_elem_pointer(&e);
	if (ptr)
		*ptr = NULL;
	int err = put_whole(w, &e, payload, size);
	/* An error goes at once: it may say why the worker is about to
	 * crash, and the batch it is in would be lost with the worker. */
	if (!err && e.type == HWT_ELEM_ERROR)
		err = send_batch(w);
	return err;
}

static void warn(void *arg, const char *message)
{
	struct worker *w = arg;
	if (send_batch(w) == 0)
		send_msg(w, ISO_WARN, message, strlen(message) + 1, NULL, 0);
}

static void progress(void *arg, uint64_t done)
{
	struct worker *w = arg;
	if (send_batch(w) == 0)
		send_msg(w, ISO_PROGRESS, &done, sizeof(done), NULL, 0);
}

static int done(struct worker *w, int rc, const void *extra, size_t len)
{
	struct iso_done d = {.rc = rc, .unsandboxed = !w->sandboxed};
	const char *msg = hwt_errmsg();
	if (rc < 0 && !extra) {
		extra = msg;
		len = strlen(msg) + 1;
	}
	if (send_batch(w) < 0)
		return HWT_ERR_IO;
	return send_msg(w, ISO_DONE, &d, sizeof(d), extra, len);
}

/* Reads a chunk message (after its header, @len bytes in all) into
 * @c, its bytes kept in w->bytes unless they are the cached ones. */
static int read_chunk(struct worker *w, uint64_t len, struct iso_chunk *ic,
		      struct hwt_aux_chunk *c)
{
	if (len < sizeof(*ic) || hwt_worker_read_all(w->fd, ic, sizeof(*ic)))
		return -1;
	if (!ic->cached) {
		if (len - sizeof(*ic) != ic->bytes)
			return -1;
		uint8_t *b = realloc(w->bytes, ic->bytes ? ic->bytes : 1);
		if (!b)
			return -1;
		w->bytes = b;
		w->nbytes = ic->bytes;
		if (hwt_worker_read_all(w->fd, w->bytes, ic->bytes))
			return -1;
	}
	*c = ic->chunk;
	if (ic->at > w->nbytes || c->lookbehind > ic->at ||
	    c->size + c->lookahead > w->nbytes - ic->at)
		return -1;
	c->data = w->bytes + ic->at;
	return 0;
}

static int run(struct worker *w, const struct iso_msg *m)
{
	const struct hwt_decoder_ops *ops = w->setup->ops;
	struct iso_chunk ic;
	struct hwt_aux_chunk c;
	switch (m->type) {
	case ISO_FEED:
		if (read_chunk(w, m->len, &ic, &c))
			return -1;
		return done(w, ops->feed(w->priv, &c), NULL, 0);
	case ISO_SPLIT: {
		if (read_chunk(w, m->len, &ic, &c) || !ic.max || ic.max > 1u << 20)
			return -1;
		uint64_t *starts = calloc(ic.max, sizeof(*starts));
		if (!starts)
			return -1;
		int n = ops->split(w->priv, &c, starts, ic.max);
		int err = done(w, n, n > 0 ? starts : NULL,
			       n > 0 ? (size_t)n * sizeof(*starts) : 0);
		free(starts);
		return err;
	}
	case ISO_RESET: /* no answer: it is one per chunk */
		if (ops->reset)
			ops->reset(w->priv);
		return 0;
	case ISO_FLUSH:
		return done(w, ops->flush ? ops->flush(w->priv) : 0, NULL, 0);
	case ISO_HW_ID: {
		struct iso_hw_id h;
		if (m->len != sizeof(h) || hwt_worker_read_all(w->fd, &h, sizeof(h)))
			return -1;
		return done(w, ops->hw_id ? ops->hw_id(w->priv, h.cpu, h.hw_id) : 0,
			    NULL, 0);
	}
	default:
		return -1;
	}
}

int iso_worker_main(void *arg, int fd, bool sandboxed)
{
	static struct worker w;
	w.fd = fd;
	w.sandboxed = sandboxed;
	w.setup = arg;
	w.ring = w.setup->ring;
	w.part = w.ring;
	struct hwt_decode_params params = w.setup->params;
	struct hwt_elem_sink sink = {emit, &w};
	params.sink = &sink;
	params.warn = warn;
	params.warn_arg = &w;
	params.progress = progress;
	params.progress_arg = &w;
	/* The caller's window over its input is the caller's business. */
	params.read_done = NULL;
	params.read_done_arg = NULL;
	params.sandboxed = true;
	int rc = w.setup->ops->create(&params, &w.priv);
	for (size_t i = 0; rc >= 0 && i < w.setup->nhw_ids; i++)
		if (w.setup->ops->hw_id)
			rc = w.setup->ops->hw_id(w.priv, w.setup->hw_ids[i].cpu,
						 w.setup->hw_ids[i].hw_id);
	if (done(&w, rc, NULL, 0) < 0 || rc < 0)
		return 0;
	struct iso_msg m;
	/* The parent closes the socket (or kills the worker) when it is
	 * done with it. */
	while (!hwt_worker_read_all(fd, &m, sizeof(m))) {
		/* The acks of a command's last parts come after its answer. */
		if (m.type == ISO_ACK) {
			if (m.len || !w.unacked)
				return 1;
			w.unacked--;
			continue;
		}
		if (run(&w, &m) < 0)
			return 1;
	}
	return 0;
}

int iso_call_main(void *arg, int fd, bool sandboxed)
{
	static struct worker w;
	const struct iso_call *call = arg;
	w.fd = fd;
	w.sandboxed = sandboxed;
	w.ring = call->ring;
	w.part = w.ring;
	struct hwt_elem_sink sink = {emit, &w};
	if (done(&w, call->fn(call->ctx, &sink), NULL, 0) < 0)
		return 1;
	/* The acks of the last parts come after the answer; the parent
	 * closes the socket (or kills the worker) once it has read them. */
	struct iso_msg m;
	while (!hwt_worker_read_all(fd, &m, sizeof(m)))
		if (m.type != ISO_ACK || m.len)
			return 1;
	return 0;
}
