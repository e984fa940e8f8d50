/* Where a raw ETMv4/ETE stream may be cut for parallel decode, and where,
 * past such a cut, the decoder that starts there knows all that one
 * running through knows. Only built with OpenCSD. */
#ifndef HWT_CS_SYNC_POINTS_H
#define HWT_CS_SYNC_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/arm-cs/cs_source.h"

/* Cuts are at least this many bytes apart (tests make them closer). */
extern size_t cs_split_bytes;

/* Whether @src's trace may be cut at all: ETMv4 or ETE with the return
 * stack off (TRCCONFIGR.RS, off in perf's cs_etm by default) and no
 * speculative trace (TRCIDR8.MAXSPEC 0). */
bool hwt_cs_source_cuttable(const struct hwt_cs_source *src);

/* Writes to @starts (at most @max, at least 1) the offsets in @data of
 * the sync points a decode of @src's raw stream may start at, the first
 * 0, and returns how many. Errors: HWT_ERR_NOMEM, HWT_ERR_DECODE. */
int hwt_cs_sync_points(const struct hwt_cs_source *src, const uint8_t *data,
		       size_t size, uint64_t *starts, size_t max);

/* @data starts at a sync point hwt_cs_sync_points gives: sets *@end to
 * the offset just past its Address-with-Context packet. Elements from
 * the packets before it are the decoder's before the cut; from there on
 * a decoder that starts at the sync point gives what one running through
 * gives. Errors: HWT_ERR_FORMAT (@data starts at no such sync point),
 * HWT_ERR_NOMEM, HWT_ERR_DECODE. */
int hwt_cs_sync_end(const struct hwt_cs_source *src, const uint8_t *data,
		    size_t size, uint64_t *end);

#endif
