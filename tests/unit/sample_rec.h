/* Test helper: a PERF_RECORD_SAMPLE built field by field in one static
 * buffer (one test file includes it). */
#ifndef HWT_TESTS_SAMPLE_REC_H
#define HWT_TESTS_SAMPLE_REC_H

#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include "core/perfdata/perfdata_format.h"

static uint8_t rec[4096];
static size_t len;

/* Appends one u64 field. */
static void u64(uint64_t v)
{
	pd_put64(rec + len, v);
	len += 8;
}

/* Writes the header for the @len bytes there are. */
static void finish(void)
{
	struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				      (uint16_t)len};
	memcpy(rec, &h, sizeof(h));
}

#endif
