/* Capture-sink callbacks for tests that look at counters or the emulator,
 * not at what the session hands out. */
#ifndef HWT_TESTS_DISCARD_SINK_H
#define HWT_TESTS_DISCARD_SINK_H

#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/perfdata.h"

static inline int hwt_test_discard_record(void *ctx,
					  const struct perf_event_header *h)
{
	(void)ctx;
	(void)h;
	return 0;
}

static inline int hwt_test_discard_aux(void *ctx,
				       const struct hwt_pd_auxtrace *hdr,
				       const void *d1, uint64_t l1,
				       const void *d2)
{
	(void)ctx;
	(void)hdr;
	(void)d1;
	(void)l1;
	(void)d2;
	return 0;
}

#endif
