/* The element sink of the decode fuzz targets: counts elements and aborts
 * on one no decoder may emit (an error without a message, a range that
 * ends before it starts). */
#ifndef HWT_FUZZ_ELEM_CHECK_H
#define HWT_FUZZ_ELEM_CHECK_H

#include <stdlib.h>

#include "hwtrace/element.h"

static int fuzz_check_elem(void *arg, const struct hwt_elem *e)
{
	(*(size_t *)arg)++;
	if (e->type == HWT_ELEM_ERROR && !e->u.error.message)
		abort();
	if (e->type == HWT_ELEM_RANGE && e->u.range.end < e->u.range.start)
		abort();
	return 0;
}

#endif
