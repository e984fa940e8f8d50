/* Test helper: the attribute of the dummy sideband event perf opens next
 * to an AUX event, for tests that write a perf.data as perf lays it out. */
#ifndef HWT_TESTS_DUMMY_ATTR_H
#define HWT_TESTS_DUMMY_ATTR_H

#include <stdint.h>

#include "hwtrace/perfdata.h"

/* A dummy event sampling @sample_type that carries the MMAP, MMAP2, COMM
 * and task records. */
static inline struct perf_event_attr hwt_test_dummy_attr(uint64_t sample_type)
{
	struct perf_event_attr dummy = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(dummy),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = sample_type,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.task = 1,
	};

	return dummy;
}

#endif
