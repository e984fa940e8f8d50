/* Isolated decoders (decode_isolate.h): decoder ops that run a backend's
 * decoder in a sandboxed worker process (core/os/os_worker.c), one per
 * decoder instance, so a parallel decode's threads each drive a worker of
 * their own. The worker gets each chunk's bytes over the socket and puts
 * the elements in a ring shared with this process (isolate_proto.h); when it dies or stops answering, the chunk's range
 * becomes an error element and a fresh worker takes the next command, as
 * a fresh instance after reset() would. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/decode/decode_isolate.h"
#include "core/decode/elem_slot.h"
#include "core/decode/isolate_proto.h"
#include "core/os/os_worker.h"
#include "hwtrace/error.h"

#define DEFAULT_TIMEOUT_MS 30000u

struct hwt_isolation {
	struct hwt_backend backend; /* the inner one, with our decoder */
	struct hwt_decoder_ops ops;
	const struct hwt_backend *inner;
	unsigned int timeout_ms;
	int slot;
	pthread_mutex_t lock;
	uint64_t failures;
	char first[1280]; /* the first failure's message */
};

struct iso_dec {
	struct hwt_isolation *iso;
	struct iso_setup setup;
	/* The caller's params (their sink, warn and progress get what the
	 * worker sends). */
	struct hwt_decode_params caller;
	struct hwt_worker w;
	struct iso_hw_id *hw_ids;
	size_t nhw_ids;
	/* The bytes the worker holds (those of the last chunk sent). */
	const uint8_t *sent;
	uint64_t nsent;
	uint8_t *buf;
	size_t cap;
	/* The ring the worker writes its elements in (ISO_RING_BYTES,
	 * mapped before the fork, kept for the next worker), the parts of
	 * it read since the worker started, and a copy of a payload (a
	 * worker could change the ring's bytes while they are used). */
	uint8_t *ring;
	uint32_t nparts_read;
	uint8_t *payload;
	size_t payload_cap;
};

/* Why the worker of @d ended, when it did. */
static void worker_lost(struct iso_dec *d, int err, char *why, size_t size)
{
	char how[160];
	hwt_worker_stop(&d->w, true, how, sizeof(how));
	if (err == HWT_ERR_BUSY)
		snprintf(why, size, "did not answer for %u ms (it was stopped)",
			 d->iso->timeout_ms);
	else
		snprintf(why, size, "%s", how[0] ? how : "ended");
	d->sent = NULL;
	d->nsent = 0;
}

/* Room for @len bytes in *@buf (of *@cap). */
static int grow_buf(uint8_t **buf, size_t *cap, uint64_t len)
{
	if (len <= *cap)
		return 0;
	uint8_t *b = realloc(*buf, len);
	if (!b)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	*buf = b;
	*cap = len;
	return 0;
}

static int grow(struct iso_dec *d, uint64_t len)
{
	return grow_buf(&d->buf, &d->cap, len);
}

/* Sends the elements of a batch (@len bytes at @batch, each record read
 * once, into this process's memory, before it is checked) on to the
 * caller's sink. */
static int forward_elems(struct iso_dec *d, const uint8_t *batch,
			 uint64_t len)
{
	const uint8_t *p = batch, *end = batch + len;
	struct elem_common common;
	bool have_common = false;
	while (p < end) {
		struct hwt_elem e;
		uint64_t kind, size;
		if ((size_t)(end - p) < sizeof(kind))
			return HWT_ERR_FORMAT;
		memcpy(&kind, p, sizeof(kind));
		p += sizeof(kind);
		if (kind == ISO_REC_COMMON) {
			if ((size_t)(end - p) < sizeof(common.head))
				return HWT_ERR_FORMAT;
			memcpy(common.head, p, sizeof(common.head));
			p += sizeof(common.head);
			have_common = true;
			continue;
		}
		if (kind == ISO_REC_SLOT) {
			struct elem_slot slot;
			if (!have_common || (size_t)(end - p) < sizeof(slot))
				return HWT_ERR_FORMAT;
			memcpy(&slot, p, sizeof(slot));
			p += sizeof(slot);
			if (slot.type != HWT_ELEM_RANGE && slot.type != HWT_ELEM_BRANCH)
				return HWT_ERR_FORMAT;
			memcpy(&e, common.head, sizeof(common.head));
			memset(&e.u, 0, sizeof(e.u));
			elem_slot_get(&slot, &e);
			int err = d->caller.sink->emit(d->caller.sink->arg, &e);
			if (err < 0)
				return err;
			continue;
		}
		if (kind != ISO_REC_WHOLE ||
		    (size_t)(end - p) < sizeof(e) + sizeof(size))
			return HWT_ERR_FORMAT;
		memcpy(&e, p, sizeof(e));
		memcpy(&size, p + sizeof(e), sizeof(size));
		p += sizeof(e) + sizeof(size);
		uint64_t padded = (size + 7) & ~(uint64_t)7;
		if (padded < size || padded > (uint64_t)(end - p))
			return HWT_ERR_FORMAT;
		/* The payload's own copy, ended by a NUL for a text. */
		if (grow_buf(&d->payload, &d->payload_cap, size + 1) < 0)
			return HWT_ERR_NOMEM;
		memcpy(d->payload, p, size);
		d->payload[size] = 0;
		const void **ptr = hwt_elem_pointer(&e);
		if (ptr)
			*ptr = size ? d->payload : NULL;
		if (e.type == HWT_ELEM_ERROR && !e.u.error.message)
			e.u.error.message = "";
		p += padded;
		int err = d->caller.sink->emit(d->caller.sink->arg, &e);
		if (err < 0)
			return err;
	}
	return 0;
}

/* Said once a process: a worker runs without its seccomp filter. */
static void warn_unsandboxed(struct iso_dec *d)
{
	static bool said;
	if (__atomic_exchange_n(&said, true, __ATOMIC_RELAXED) || !d->caller.warn)
		return;
	d->caller.warn(d->caller.warn_arg, "the kernel refused the seccomp "
		       "filter of the isolated decoders' workers: they decode "
		       "in processes of their own, a crash costs only their "
		       "bytes, but they are not sandboxed (docs/decode.md, "
		       "\"Isolated decoders\")");
}

/* Sends on the elements of the ring's part an ISO_ELEMS_SHARED message
 * (in d->buf, @len bytes) names, and gives the part back to the worker.
 * The parts come in turn; any other is a worker that lost its way. */
static int forward_shared(struct iso_dec *d, uint64_t len)
{
	struct iso_batch b;
	if (len != sizeof(b))
		return HWT_ERR_EOF;
	memcpy(&b, d->buf, sizeof(b));
	if (b.part != d->nparts_read % ISO_RING_PARTS || b.len > ISO_RING_PART)
		return HWT_ERR_EOF;
	int err = forward_elems(d, d->ring + (size_t)b.part * ISO_RING_PART,
				b.len);
	if (err == HWT_ERR_FORMAT)
		return HWT_ERR_EOF;
	if (err < 0)
		return err;
	d->nparts_read++;
	struct iso_msg ack = {.type = ISO_ACK};
	err = hwt_worker_send(&d->w, &ack, sizeof(ack), d->iso->timeout_ms);
	return err < 0 ? err : 0;
}

/* Reads the worker's messages up to its ISO_DONE, whose result goes to
 * *rc and whose extra bytes stay in d->buf (*extra of them). Returns 0,
 * an error of the caller's sink, or the
 * worker's end (HWT_ERR_EOF, HWT_ERR_BUSY). */
static int await_done(struct iso_dec *d, int *rc, uint64_t *extra)
{
	for (;;) {
		struct iso_msg m;
		int err = hwt_worker_recv(&d->w, &m, sizeof(m), d->iso->timeout_ms);
		if (err < 0)
			return err;
		if (m.len > (1u << 30) || (err = grow(d, m.len + 1)) < 0)
			return HWT_ERR_EOF;
		err = hwt_worker_recv(&d->w, d->buf, m.len, d->iso->timeout_ms);
		if (err < 0)
			return err;
		d->buf[m.len] = 0;
		switch (m.type) {
		case ISO_ELEMS:
			err = forward_elems(d, d->buf, m.len);
			if (err == HWT_ERR_FORMAT)
				return HWT_ERR_EOF;
			if (err < 0)
				return err;
			break;
		case ISO_ELEMS_SHARED:
			err = forward_shared(d, m.len);
			if (err < 0)
				return err;
			break;
		case ISO_WARN:
			if (d->caller.warn)
				d->caller.warn(d->caller.warn_arg,
						(const char *)d->buf);
			break;
		case ISO_PROGRESS:
			if (m.len == sizeof(uint64_t) && d->caller.progress) {
				uint64_t done;
				memcpy(&done, d->buf, sizeof(done));
				d->caller.progress(d->caller.progress_arg, done);
			}
			break;
		case ISO_DONE: {
			struct iso_done res;
			if (m.len < sizeof(res))
				return HWT_ERR_EOF;
			memcpy(&res, d->buf, sizeof(res));
			*rc = res.rc;
			if (res.unsandboxed)
				warn_unsandboxed(d);
			*extra = m.len - sizeof(res);
			memmove(d->buf, d->buf + sizeof(res), *extra + 1);
			return 0;
		}
		default:
			return HWT_ERR_EOF;
		}
	}
}

static int start_worker(struct iso_dec *d)
{
	d->setup.hw_ids = d->hw_ids;
	d->setup.nhw_ids = d->nhw_ids;
	d->setup.ring = d->ring;
	d->nparts_read = 0;
	int err = hwt_worker_start(&d->w, iso_worker_main, &d->setup);
	if (err < 0)
		return err;
	int rc = 0;
	uint64_t extra = 0;
	err = await_done(d, &rc, &extra);
	if (err < 0) {
		char why[256];
		worker_lost(d, err, why, sizeof(why));
		return hwt_error(HWT_ERR_DECODE, "%s: the decoder's worker "
				 "process %s as it started", d->iso->inner->name,
				 why);
	}
	if (rc < 0) {
		hwt_worker_stop(&d->w, true, NULL, 0);
		return hwt_error(rc, "%s", (const char *)d->buf);
	}
	return 0;
}

/* Sends a command with @a and @b after its header. */
static int command(struct iso_dec *d, uint32_t type, const void *a,
		   size_t alen, const void *b, size_t blen)
{
	if (!d->w.pid) {
		int err = start_worker(d);
		if (err < 0)
			return err;
	}
	struct iso_msg m = {.type = type, .len = alen + blen};
	int err = hwt_worker_send(&d->w, &m, sizeof(m), d->iso->timeout_ms);
	if (!err && alen)
		err = hwt_worker_send(&d->w, a, alen, d->iso->timeout_ms);
	if (!err && blen)
		err = hwt_worker_send(&d->w, b, blen, d->iso->timeout_ms);
	return err;
}

/* A chunk's command: its bytes go along unless the worker has them. */
static int send_chunk(struct iso_dec *d, uint32_t type,
		      const struct hwt_aux_chunk *c, uint64_t max)
{
	/* An empty chunk may have no data pointer at all. */
	const uint8_t *first = c->data ? c->data - c->lookbehind : NULL;
	uint64_t bytes = c->lookbehind + c->size + c->lookahead;
	struct iso_chunk ic = {.chunk = *c, .max = max};
	ic.chunk.data = NULL;
	ic.cached = first && d->sent && d->w.pid && first >= d->sent &&
		    bytes <= d->nsent &&
		    (uint64_t)(first - d->sent) <= d->nsent - bytes;
	if (ic.cached) {
		ic.at = (uint64_t)(c->data - d->sent);
		return command(d, type, &ic, sizeof(ic), NULL, 0);
	}
	ic.at = c->lookbehind;
	ic.bytes = bytes;
	/* A worker started by command() holds nothing yet, nor does one
	 * that fails while it gets the bytes. */
	d->sent = NULL;
	int err = command(d, type, &ic, sizeof(ic), first, bytes);
	if (!err) {
		d->sent = first;
		d->nsent = bytes;
	}
	return err;
}

/* Counts a lost part of the trace, whose error element says @msg. */
static void count_loss(struct hwt_isolation *iso, const char *msg)
{
	pthread_mutex_lock(&iso->lock);
	if (!iso->failures++)
		snprintf(iso->first, sizeof(iso->first), "%s", msg);
	pthread_mutex_unlock(&iso->lock);
}

/* The worker of @d ended while it decoded @c (NULL: at the end of the
 * stream): the error element that says which bytes were not decoded. */
static int report_loss(struct iso_dec *d, const struct hwt_aux_chunk *c,
		       int err)
{
	char why[256], msg[768];
	worker_lost(d, err, why, sizeof(why));
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_ERROR);
	if (c) {
		char stream[64];
		if (c->cpu >= 0)
			snprintf(stream, sizeof(stream), "cpu %" PRId32, c->cpu);
		else if (c->tid >= 0)
			snprintf(stream, sizeof(stream), "thread %" PRId32, c->tid);
		else
			snprintf(stream, sizeof(stream), "the raw stream");
		snprintf(msg, sizeof(msg), "%s decoder's worker process %s "
			 "while it decoded %s, AUX buffer %" PRIu32 ", bytes "
			 "0x%" PRIx64 "-0x%" PRIx64 ": those bytes are not "
			 "decoded, the rest of the trace is (docs/decode.md, "
			 "\"Isolated decoders\")", d->iso->inner->name, why,
			 stream, c->idx, c->offset, c->offset + c->size);
		if (c->cpu >= 0) {
			e.fields |= HWT_FIELD_CPU;
			e.cpu = c->cpu;
		}
		if (c->tid >= 0) {
			e.fields |= HWT_FIELD_TID;
			e.tid = c->tid;
		}
		e.fields |= HWT_FIELD_OFFSET;
		e.trace_offset = c->offset;
	} else {
		snprintf(msg, sizeof(msg), "%s decoder's worker process %s "
			 "at the end of the trace: what it held back is not "
			 "decoded (docs/decode.md, \"Isolated decoders\")",
			 d->iso->inner->name, why);
	}
	e.u.error.message = msg;
	count_loss(d->iso, msg);
	return d->caller.sink->emit(d->caller.sink->arg, &e);
}

/* Runs a command to its end. Returns the decoder's result, or, when the
 * worker ended, what report_loss() gives (with @c) or 0. */
static int finish(struct iso_dec *d, int err, const struct hwt_aux_chunk *c,
		  bool report, int *rc, uint64_t *extra)
{
	*rc = 0;
	*extra = 0;
	if (!err)
		err = await_done(d, rc, extra);
	if (!err)
		return *rc < 0 ? hwt_error(*rc, "%s", (const char *)d->buf) : *rc;
	if (err != HWT_ERR_EOF && err != HWT_ERR_BUSY) {
		/* The caller's sink stopped the decode. */
		hwt_worker_stop(&d->w, true, NULL, 0);
		d->sent = NULL;
		return err;
	}
	if (!report) {
		char why[256];
		worker_lost(d, err, why, sizeof(why));
		return 0;
	}
	return report_loss(d, c, err);
}

static int iso_feed(void *priv, const struct hwt_aux_chunk *c)
{
	struct iso_dec *d = priv;
	int rc;
	uint64_t extra;
	int err = send_chunk(d, ISO_FEED, c, 0);
	if (err < 0 && err != HWT_ERR_EOF && err != HWT_ERR_BUSY)
		return err;
	err = finish(d, err, c, true, &rc, &extra);
	return err < 0 ? err : 0;
}

static int iso_split(void *priv, const struct hwt_aux_chunk *c,
		     uint64_t *starts, size_t max)
{
	struct iso_dec *d = priv;
	int rc;
	uint64_t extra;
	int err = send_chunk(d, ISO_SPLIT, c, max);
	if (err < 0 && err != HWT_ERR_EOF && err != HWT_ERR_BUSY)
		return err;
	err = finish(d, err, c, false, &rc, &extra);
	if (err <= 0 || extra != (uint64_t)err * sizeof(*starts) ||
	    (size_t)err > max) {
		/* The worker ended: not cut, and feed() will say what
		 * became of the chunk. */
		starts[0] = 0;
		return err < 0 ? err : 1;
	}
	memcpy(starts, d->buf, extra);
	return err;
}

static void iso_reset(void *priv)
{
	struct iso_dec *d = priv;
	/* A worker that is not running starts fresh anyway. Not waited
	 * for: a worker lost in it is found at the next command. */
	if (d->w.pid && command(d, ISO_RESET, NULL, 0, NULL, 0) < 0) {
		char why[256];
		worker_lost(d, HWT_ERR_EOF, why, sizeof(why));
	}
}

static int iso_flush(void *priv)
{
	struct iso_dec *d = priv;
	int rc;
	uint64_t extra;
	if (!d->w.pid)
		return 0;
	return finish(d, command(d, ISO_FLUSH, NULL, 0, NULL, 0), NULL, true,
		      &rc, &extra);
}

static int iso_hw_id(void *priv, int32_t cpu, uint64_t hw_id)
{
	struct iso_dec *d = priv;
	struct iso_hw_id *h = realloc(d->hw_ids, (d->nhw_ids + 1) * sizeof(*h));
	if (!h)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	d->hw_ids = h;
	h[d->nhw_ids++] = (struct iso_hw_id){.cpu = cpu, .hw_id = hw_id};
	if (!d->w.pid)
		return 0; /* the worker replays it as it starts */
	int rc;
	uint64_t extra;
	struct iso_hw_id one = h[d->nhw_ids - 1];
	return finish(d, command(d, ISO_HW_ID, &one, sizeof(one), NULL, 0),
		      NULL, false, &rc, &extra);
}

static void iso_destroy(void *priv)
{
	struct iso_dec *d = priv;
	if (!d)
		return;
	hwt_worker_stop(&d->w, true, NULL, 0);
	if (d->ring)
		munmap(d->ring, ISO_RING_BYTES);
	free(d->hw_ids);
	free(d->buf);
	free(d->payload);
	free(d);
}

/* Maps the ring of a worker of @d. */
static int map_ring(struct iso_dec *d)
{
	d->ring = mmap(NULL, ISO_RING_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (d->ring != MAP_FAILED)
		return 0;
	d->ring = NULL;
	return hwt_error(HWT_ERR_NOMEM, "%s: cannot map the memory an "
			 "isolated decoder's worker gives its elements in: "
			 "out of memory", d->iso->inner->name);
}

static int iso_create(struct hwt_isolation *iso,
		      const struct hwt_decode_params *params, void **priv)
{
	struct iso_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	d->iso = iso;
	d->caller = *params;
	d->setup.ops = iso->inner->decoder;
	d->setup.params = *params;
	int err = map_ring(d);
	if (!err)
		err = start_worker(d);
	if (err < 0) {
		iso_destroy(d);
		return err;
	}
	*priv = d;
	return 0;
}

/* create() is the one op without an instance to find its isolation by:
 * each isolation in use holds a slot, whose create op knows it. */
#define SLOTS 16
static struct hwt_isolation *slot_iso[SLOTS];
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

#define SLOT_CREATE(i)                                                        \
	static int create_##i(const struct hwt_decode_params *p, void **priv) \
	{                                                                     \
		return iso_create(slot_iso[i], p, priv);                      \
	}
SLOT_CREATE(0) SLOT_CREATE(1) SLOT_CREATE(2) SLOT_CREATE(3)
SLOT_CREATE(4) SLOT_CREATE(5) SLOT_CREATE(6) SLOT_CREATE(7)
SLOT_CREATE(8) SLOT_CREATE(9) SLOT_CREATE(10) SLOT_CREATE(11)
SLOT_CREATE(12) SLOT_CREATE(13) SLOT_CREATE(14) SLOT_CREATE(15)
static int (*const slot_create[SLOTS])(const struct hwt_decode_params *,
				       void **) = {
	create_0, create_1, create_2, create_3, create_4, create_5,
	create_6, create_7, create_8, create_9, create_10, create_11,
	create_12, create_13, create_14, create_15,
};

/* GCC 12's AddressSanitizer runtime is not fork-safe in a process with
 * other threads: a worker forked while another thread holds one of the
 * runtime's locks (its allocator's, its stack depot's) hangs at its first
 * allocation, seen as a worker that never answers (-j 8). In that build a
 * decode on several threads isolates only when asked to. */
#if defined(__SANITIZE_ADDRESS__)
#define FORK_SAFE_WITH_THREADS false
#else
#define FORK_SAFE_WITH_THREADS true
#endif

bool hwt_isolate_wanted(const struct hwt_backend *b,
			const struct hwt_decode_opts *opts)
{
	if (opts->packet_sink.packet || !b->decoder)
		return false;
	if (opts->isolate == HWT_ISOLATE_DEFAULT)
		return hwt_backend_isolated_by_default(b) &&
		       (FORK_SAFE_WITH_THREADS || opts->jobs <= 1);
	return opts->isolate == HWT_ISOLATE_ON;
}

int hwt_isolation_open(const struct hwt_backend *inner,
		       const struct hwt_decode_opts *opts,
		       struct hwt_isolation **out)
{
	*out = NULL;
	struct hwt_isolation *iso = calloc(1, sizeof(*iso));
	if (!iso)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	pthread_mutex_lock(&slot_lock);
	int slot = -1;
	for (int i = 0; i < SLOTS && slot < 0; i++)
		if (!slot_iso[i])
			slot = i;
	if (slot >= 0)
		slot_iso[slot] = iso;
	pthread_mutex_unlock(&slot_lock);
	if (slot < 0) {
		free(iso);
		return hwt_error(HWT_ERR_BUSY, "%s: more than %d isolated decodes "
				 "at once in one process: decode with "
				 "--no-isolate, or fewer at a time", inner->name,
				 SLOTS);
	}
	pthread_mutex_init(&iso->lock, NULL);
	iso->slot = slot;
	iso->inner = inner;
	iso->timeout_ms = opts->isolate_timeout_ms ? opts->isolate_timeout_ms
						   : DEFAULT_TIMEOUT_MS;
	const struct hwt_decoder_ops *in = inner->decoder;
	iso->ops = (struct hwt_decoder_ops){
		.create = slot_create[slot],
		.feed = iso_feed,
		.flush = in->flush ? iso_flush : NULL,
		.reset = iso_reset,
		.destroy = iso_destroy,
		.hw_id = in->hw_id ? iso_hw_id : NULL,
		.split = in->split ? iso_split : NULL,
		/* A word or two of the info, read here: no decoder state. */
		.code_isa = in->code_isa,
	};
	iso->backend = *inner;
	iso->backend.decoder = &iso->ops;
	*out = iso;
	return 0;
}

const struct hwt_backend *hwt_isolation_backend(struct hwt_isolation *iso)
{
	return &iso->backend;
}

int hwt_isolation_call(struct hwt_isolation *iso,
		       const struct hwt_elem_sink *sink,
		       void (*warn)(void *arg, const char *message),
		       void *warn_arg,
		       int (*fn)(void *ctx, const struct hwt_elem_sink *sink),
		       void *ctx, const char *what)
{
	struct iso_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	d->iso = iso;
	d->caller.sink = sink;
	d->caller.warn = warn;
	d->caller.warn_arg = warn_arg;
	int err = map_ring(d);
	struct iso_call call = {.fn = fn, .ctx = ctx, .ring = d->ring};
	if (!err)
		err = hwt_worker_start(&d->w, iso_call_main, &call);
	if (err) {
		iso_destroy(d);
		return err;
	}
	int rc = 0;
	uint64_t extra = 0;
	err = await_done(d, &rc, &extra);
	if (!err) {
		err = rc < 0 ? hwt_error(rc, "%s", (const char *)d->buf) : rc;
	} else if (err == HWT_ERR_EOF || err == HWT_ERR_BUSY) {
		/* Lost (a sink's error, the other case, is returned). */
		char why[256], msg[1280];
		worker_lost(d, err, why, sizeof(why));
		snprintf(msg, sizeof(msg), "%s decoder's worker process %s "
			 "while it decoded %s: those bytes are not decoded, "
			 "the rest of the trace is (docs/decode.md, \"Isolated "
			 "decoders\")", iso->inner->name, why, what);
		struct hwt_elem e;
		hwt_elem_clear(&e, HWT_ELEM_ERROR);
		e.fields = HWT_FIELD_OFFSET;
		e.trace_offset = 0;
		e.u.error.message = msg;
		count_loss(iso, msg);
		err = sink->emit(sink->arg, &e);
	}
	iso_destroy(d);
	return err;
}

int hwt_isolation_close(struct hwt_isolation *iso, int err)
{
	if (!iso)
		return err;
	if (err >= 0 && iso->failures)
		err = hwt_error(HWT_ERR_DECODE, "%" PRIu64 " part%s of the trace "
				"could not be decoded: the %s decoder's worker "
				"process crashed or stopped answering (the error "
				"elements name each stream and byte range; the "
				"first: %s)", iso->failures,
				iso->failures == 1 ? "" : "s", iso->inner->name,
				iso->first);
	pthread_mutex_lock(&slot_lock);
	slot_iso[iso->slot] = NULL;
	pthread_mutex_unlock(&slot_lock);
	pthread_mutex_destroy(&iso->lock);
	free(iso);
	return err;
}
