/* The AUX ring of a perf event (DESIGN.md §4): full-trace mode (mapped
 * read-write, the kernel stops at aux_tail) and snapshot mode (mapped
 * read-only, the hardware overwrites freely). */
#ifndef HWT_CORE_RING_AUX_H
#define HWT_CORE_RING_AUX_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Bytes of the AUX stream, borrowed from the ring. */
struct hwt_aux_span {
	const uint8_t *data;
	uint64_t len;
	uint64_t offset;   /* position in the AUX stream */
};

/* Where the newest data of an overwrite-mode buffer is (the backends'
 * find_snapshot signature, see hwtrace/backend.h). */
typedef int (*hwt_find_snapshot_fn)(const uint8_t *aux, uint64_t aux_size,
				    uint64_t head, uint64_t prev_head,
				    uint64_t *start, uint64_t *len,
				    bool *wrapped);

struct hwt_ring_aux {
	struct perf_event_mmap_page *up;
	const uint8_t *base;
	uint64_t size;      /* a power of two */
	bool snapshot;
	uint64_t pos;       /* full mode: handed out up to here */
	uint64_t prev_head; /* snapshot mode: head at the last snapshot */
	uint64_t snap_pos;  /* snapshot mode: stream position of the next copy */
	uint8_t *copy;      /* snapshot mode: the copied buffer */
	/* Snapshot mode: the trace comes in records of this many bytes
	 * (the backend's record ops alignment; 0 for a byte stream). Set
	 * after init. */
	unsigned int alignment;
};

/* @up is the event's user page, @aux the AUX mapping of @size bytes; both
 * borrowed. Errors: HWT_ERR_INVAL, HWT_ERR_NOMEM. */
int hwt_ring_aux_init(struct hwt_ring_aux *r, void *up, const void *aux,
		      uint64_t size, bool snapshot);
void hwt_ring_aux_fini(struct hwt_ring_aux *r);

/* Full mode: the bytes between the last position and aux_head as at most
 * two spans, without copying. Returns the number of spans (0 when nothing
 * is new) or HWT_ERR_FORMAT when aux_head is behind the position or more
 * than a buffer ahead of it. */
int hwt_ring_aux_peek(struct hwt_ring_aux *r, struct hwt_aux_span span[2]);

/* Full mode: the spans of the last peek were written out: advance
 * aux_tail past them so the kernel may reuse the space. */
void hwt_ring_aux_consume(struct hwt_ring_aux *r, uint64_t upto);

/* The core's find_snapshot for backends without one: the head is taken as
 * a free-running stream position (the generic kernel's overwrite mode);
 * the newest min(head - prev_head, size) bytes end at it. */
int hwt_ring_aux_default_find_snapshot(const uint8_t *aux, uint64_t aux_size,
				       uint64_t head, uint64_t prev_head,
				       uint64_t *start, uint64_t *len,
				       bool *wrapped);

/* Snapshot mode, with the event already disabled by the caller: asks
 * @find (NULL: the default) where the newest data is, copies it out of the
 * ring and returns it as at most one span in *span (data owned by @r,
 * valid until the next call). *wrapped tells whether older data was
 * overwritten. With an alignment, the part of the data before the end of
 * the buffer loses its last (length % alignment) bytes, as perf's
 * auxtrace_record.alignment: hardware that wraps at the last whole record
 * (intel_bts) never writes them. aux_tail is never touched. Returns the number of spans or a
 * negative error (HWT_ERR_FORMAT when @find answers outside the buffer). */
int hwt_ring_aux_snapshot(struct hwt_ring_aux *r, hwt_find_snapshot_fn find,
			  struct hwt_aux_span *span, bool *wrapped);

#endif
