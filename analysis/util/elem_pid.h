/* The process an element ran in, for symbol lookups: its pid, else its
 * tid (a process's first thread has its pid), else HWT_PID_ANY. */
#ifndef HWT_ANALYSIS_ELEM_PID_H
#define HWT_ANALYSIS_ELEM_PID_H

#include "hwtrace/element.h"
#include "hwtrace/image.h"

static inline int32_t hwt_elem_pid(const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_PID)
		return e->pid;
	if (e->fields & HWT_FIELD_TID)
		return e->tid;
	return HWT_PID_ANY;
}

#endif
