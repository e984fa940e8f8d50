/* Where a stream of BTS records may be cut for parallel decode
 * (bts_split.c), and what its end leaves to report. */
#ifndef HWT_BTS_SPLIT_H
#define HWT_BTS_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"
#include "hwtrace/bts_format.h"

/* Segments are about this long (tests make them shorter). */
extern size_t bts_split_bytes;

/* Whether the decoder's state after @rec is @rec's alone, so that a
 * segment may start after it: a branch (from and to set) sets the last
 * target, and in a sw_branch capture (@swb_time) one with the tracer's
 * time sets the time too. */
static inline bool bts_cut_after(const struct hwt_bts_record *rec,
				 bool swb_time)
{
	return rec->from && rec->to &&
	       (!swb_time || (rec->flags & HWT_BTS_FLAG_SWB_TIME));
}

/* Walks the records of @c (a chunk that starts at a record, fed after
 * reset()) as the decoder does, skipping the padding where the buffer
 * wrapped, and writes to @starts (at most @max) the offsets of segments
 * about bts_split_bytes long, each starting just after a record that
 * bts_cut_after allows; returns how many (at least 1). */
size_t bts_split_records(const struct hwt_aux_chunk *c, bool swb_time,
			 uint64_t *starts, size_t max);

#endif
