/* One time-ordered view of a capture: the element streams of every CPU (or,
 * per-thread captures, every thread) merged by time.
 *
 * Decoders emit one stream after another. The merge keeps each stream in
 * order, spilling it to an anonymous temporary file in fixed-size chunks
 * so memory does not grow with the trace, and at the end emits all of them
 * by time, on one thread or, cut into slices of time, on several. Ties go
 * to the lower CPU (per-CPU streams before per-thread ones, which order by
 * tid), then to stream order, so the output is the same on every run. Within a stream, an element without a time keeps the
 * time of the element before it, and an element older than the one before
 * it is counted and ordered as if it had that earlier element's time: its
 * own time field is left as the trace said. */
#ifndef HWTRACE_MERGE_H
#define HWTRACE_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_merge_stats {
	uint64_t streams;        /* distinct CPUs / threads seen */
	uint64_t elements;
	uint64_t timed;          /* elements that carried a time */
	uint64_t time_backwards; /* elements older than their stream's last */
	uint64_t spilled_bytes;  /* written to the temporary file */
};

struct hwt_merge;

/* A merge that emits into @out (borrowed; must outlive the merge).
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_merge_new(const struct hwt_elem_sink *out,
			  struct hwt_merge **merge);

/* Frees the merge and its temporary file; NULL is a no-op. */
HWT_API void hwt_merge_free(struct hwt_merge *merge);

/* The sink the decoder writes into; valid while @merge is. Errors:
 * HWT_ERR_NOMEM, HWT_ERR_IO (the temporary file could not be written:
 * the message says where and why). */
HWT_API struct hwt_elem_sink hwt_merge_sink(struct hwt_merge *merge);

/* The decode says it produces at most @streams element streams
 * (hwt_decode_progress.streams). With one there is nothing to order:
 * elements go straight to @out as they come, and nothing is kept or
 * spilled. Call before the first element (a later call only turns this
 * off). If another stream shows up after all, it and the rest are merged
 * by time after what went out. */
HWT_API void hwt_merge_expect_streams(struct hwt_merge *merge,
				      uint64_t streams);

/* Emits everything received, by time (in stream order when no element
 * had a time). Errors: HWT_ERR_IO, HWT_ERR_NOMEM, and whatever @out
 * returns. */
HWT_API int hwt_merge_finish(struct hwt_merge *merge);

/* Where a read-back in slices (hwt_merge_finish_lanes) sends a slice's
 * elements: @sink, called on the lane's own thread, then @flush (when
 * not NULL) once the slice is all in, called for the slices in their
 * order, one at a time: there the lane writes out what its sink holds.
 * Either returns 0 or a negative hwt_err that stops the read-back. */
struct hwt_merge_lane {
	struct hwt_elem_sink sink;
	int (*flush)(void *arg);
	void *arg;
};

/* How many slices hwt_merge_finish_lanes would cut the read-back into
 * for @nlanes lanes: slices of 128 Ki to 512 Ki elements, cut where
 * time stamps allow; without time stamps, runs of up to 128 Ki elements
 * of one stream, in stream order. 1 when it would read on one lane: too
 * few elements, or, with time stamps, one stream or more than 64 (a
 * slice's start reads up to 4096 records of each stream, and a slice is
 * held in memory until its turn). */
HWT_API size_t hwt_merge_slices(const struct hwt_merge *merge, size_t nlanes);

/* As hwt_merge_finish, into @lanes instead of the merge's own sink: the
 * elements are cut into slices (hwt_merge_slices), lane i reads
 * and emits the slices i, i + @nlanes, ... on a thread of its own (lane
 * 0 on the calling thread), and each slice's @flush comes in slice
 * order, so what the flushes write is what one lane would write. The
 * sinks of different lanes run at the same time. With one slice, lane 0
 * gets everything, its @flush called every 65536 elements and at the
 * end. Errors: as hwt_merge_finish, the first slice's in slice order. */
HWT_API int hwt_merge_finish_lanes(struct hwt_merge *merge,
				   const struct hwt_merge_lane *lanes,
				   size_t nlanes);

/* What the merge has seen so far (streams, elements, the spilled bytes). */
HWT_API void hwt_merge_get_stats(const struct hwt_merge *merge,
				 struct hwt_merge_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
