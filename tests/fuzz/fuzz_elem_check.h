/* The element sink of the decode fuzz targets: counts elements and aborts
 * on one no decoder may emit (an error without a message). A range may
 * end before it starts: OpenCSD reports ranges of Q elements (no path) so,
 * and the real q_elem snapshot has one (test_cs_snapshot_matches_opencsd),
 * so that is passed on as the reference decoder gives it. */
#ifndef HWT_FUZZ_ELEM_CHECK_H
#define HWT_FUZZ_ELEM_CHECK_H

#include <stdlib.h>

#include "hwtrace/element.h"

static int fuzz_check_elem(void *arg, const struct hwt_elem *e)
{
	(*(size_t *)arg)++;
	if (e->type == HWT_ELEM_ERROR && !e->u.error.message)
		abort();
	return 0;
}

#endif
