/* What an isolated decoder (decode_isolate.c) and its worker process
 * (isolate_worker.c) say to each other over their socket: each message is
 * a struct iso_msg and @len bytes. Both sides are the same program, so
 * structures go as they are in memory. */
#ifndef HWT_CORE_DECODE_ISOLATE_PROTO_H
#define HWT_CORE_DECODE_ISOLATE_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/backend.h"

enum iso_cmd {
	ISO_FEED = 1, /* struct iso_chunk, then the bytes unless cached */
	ISO_SPLIT,    /* struct iso_chunk, ...; the reply carries the starts */
	ISO_RESET,    /* not answered */
	ISO_FLUSH,
	ISO_HW_ID,    /* struct iso_hw_id */
	ISO_ACK,      /* no bytes: the oldest ISO_ELEMS_SHARED batch is read,
		       * its part of the ring may be written again */
};

enum iso_reply {
	ISO_ELEMS = 1, /* elements: records of enum iso_record (a record
			* too big for a part of the ring) */
	ISO_WARN,      /* a warning's text */
	ISO_PROGRESS,  /* uint64_t: bytes of the chunk decoded */
	ISO_DONE,      /* struct iso_done, then the error's text (or the
			* split's starts) */
	ISO_ELEMS_SHARED, /* struct iso_batch: records of enum iso_record
			   * in a part of the shared ring; answered by an
			   * ISO_ACK once the parent has read them */
};

/* The elements do not cross the socket: each worker has a ring of
 * ISO_RING_PARTS parts of ISO_RING_PART bytes, mapped shared before the
 * fork, which the worker fills part after part, in turn. It names each
 * filled part in an ISO_ELEMS_SHARED message and writes a part again only
 * after the parent's ISO_ACK of it: at most ISO_RING_PARTS are unread, so
 * the worker decodes on while the parent writes the output. A socket
 * carried each byte twice through the kernel (on a raw ETE stream of
 * 4 MB, 270 MB of records). */
#define ISO_RING_PARTS 4
#define ISO_RING_PART (256 * 1024)
#define ISO_RING_BYTES ((size_t)ISO_RING_PARTS * ISO_RING_PART)

struct iso_batch {
	uint32_t part; /* the ring's parts are used in turn: 0, 1, ... */
	uint32_t pad;
	uint64_t len;  /* bytes of records from the part's start */
};

/* An ISO_ELEMS batch is records, each a uint64_t of this enum and its
 * bytes. Most elements are ranges and branches of the common fields of
 * the one before: those go in 32 bytes (core/decode/elem_slot.h), not
 * the 88 of a whole element. */
enum iso_record {
	ISO_REC_COMMON = 1, /* struct elem_common: the fields of the slots
			     * after it, up to the next (or the batch's end) */
	ISO_REC_SLOT,       /* struct elem_slot */
	ISO_REC_WHOLE,      /* struct hwt_elem, a uint64_t payload size and
			     * the payload, padded to 8 bytes */
};

struct iso_msg {
	uint32_t type;
	uint32_t pad;
	uint64_t len;
};

/* A chunk without its data pointer. Its bytes (lookbehind, data,
 * lookahead) follow, unless @cached: then they are those the worker got
 * with the last chunk that sent any, from byte @at of them. */
struct iso_chunk {
	struct hwt_aux_chunk chunk; /* data is not used */
	bool cached;
	uint64_t at;
	uint64_t bytes;
	uint64_t max; /* ISO_SPLIT: room for this many starts */
};

struct iso_hw_id {
	int32_t cpu;
	uint64_t hw_id;
};

struct iso_done {
	int32_t rc; /* what the decoder's op returned */
	/* In the first answer: the kernel refused the seccomp filter. */
	uint32_t unsandboxed;
};

/* What a worker starts from (in its copy of the parent's memory): the
 * decoder it runs, its params (whose sink, warn and progress the worker
 * replaces with messages) and the hw_id calls made so far, to replay. */
struct iso_setup {
	const struct hwt_decoder_ops *ops;
	struct hwt_decode_params params;
	const struct iso_hw_id *hw_ids;
	size_t nhw_ids;
	uint8_t *ring; /* ISO_RING_BYTES, shared with the parent */
};

/* The worker's main (hwt_worker_main): @arg is a struct iso_setup. */
int iso_worker_main(void *arg, int fd, bool sandboxed);

/* A worker that makes one call (hwt_isolation_call) instead of running a
 * decoder's ops: @fn(@ctx, sink), its elements into @ring as a decoder's
 * go, then an ISO_DONE with its result (and the error's text). */
struct iso_call {
	int (*fn)(void *ctx, const struct hwt_elem_sink *sink);
	void *ctx;
	uint8_t *ring; /* ISO_RING_BYTES, shared with the parent */
};

/* Its main (hwt_worker_main): @arg is a struct iso_call. */
int iso_call_main(void *arg, int fd, bool sandboxed);

#endif
