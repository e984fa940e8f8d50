/* Backend-author header (see docs/architecture.md).
 * The data ring of a perf event: records the kernel writes after the user
 * page (DESIGN.md §4). */
#ifndef HWTRACE_RING_DATA_H
#define HWTRACE_RING_DATA_H

#include "hwtrace/common.h"
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_ring_data {
	struct perf_event_mmap_page *up;
	uint8_t *base;
	uint64_t size;     /* a power of two */
	bool backward;     /* write_backward: overwrite mode, no tail */
	uint64_t pos;      /* next record to read (free-running) */
	uint64_t end;      /* stop here: data_head, or the backward range end */
	uint8_t *bounce;   /* records that straddle the end are copied here */
	uint64_t records;  /* read so far */
};

/* Sets @r up over a mapping of the user page and data ring. The ring's
 * place and size come from the user page (data_offset, data_size), or
 * @data_size bytes right after the page when the kernel leaves them 0.
 * @map is borrowed. Errors: HWT_ERR_INVAL (size not a power of two),
 * HWT_ERR_NOMEM. */
HWT_API int hwt_ring_data_init(struct hwt_ring_data *r, void *map, uint64_t page_size,
		       uint64_t data_size, bool backward);
HWT_API void hwt_ring_data_fini(struct hwt_ring_data *r);

/* Takes a snapshot of data_head: records up to it can be read. For a
 * backward ring (which the caller has paused with
 * PERF_EVENT_IOC_PAUSE_OUTPUT) finds the newest data_size bytes of whole
 * records. Returns the number of bytes available. */
HWT_API uint64_t hwt_ring_data_begin(struct hwt_ring_data *r);

/* The next record, or NULL at the end of what begin() found. A record
 * that straddles the end of the ring is returned from the bounce buffer;
 * the pointer is valid until the next call. A corrupt header (size below
 * 8 or beyond the available bytes) gives HWT_ERR_FORMAT in *err and ends
 * the read (the rest is skipped). */
HWT_API const struct perf_event_header *hwt_ring_data_next(struct hwt_ring_data *r,
						   int *err);

/* Publishes data_tail: the kernel may reuse what was read. A no-op for
 * backward rings. */
HWT_API void hwt_ring_data_end(struct hwt_ring_data *r);

#ifdef __cplusplus
}
#endif

#endif
