/* Where the data a PERF_RECORD_AUX reports starts in its AUX stream
 * (aux_record_start.c). */
#ifndef HWT_CORE_PERFDATA_AUX_RECORD_START_H
#define HWT_CORE_PERFDATA_AUX_RECORD_START_H

#include <stdbool.h>
#include <stdint.h>

/* The start of the @size bytes a PERF_RECORD_AUX with @offset and @flags
 * reports, into *@start. In normal mode that is @offset for every PMU.
 * In overwrite (snapshot) mode it depends on the driver: @end_reported
 * says the PMU's driver reports the head after the write and the bytes
 * of that write alone, as CoreSight's sinks do, so the start is @offset -
 * @size (what perf's cs-etm reader takes); otherwise (intel_pt,
 * intel_bts, whose records perf never places) *@start is @offset as
 * written. -1, *@start untouched, for an @end_reported overwrite record
 * whose @size exceeds its @offset: it has no place in the stream (perf's
 * cs-etm reader matches it to no AUXTRACE buffer and skips it). */
int hwt_aux_record_start(uint64_t offset, uint64_t size, uint64_t flags,
			 bool end_reported, uint64_t *start);

#endif
