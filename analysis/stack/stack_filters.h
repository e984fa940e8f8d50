/* The --comm, --dso and --sym filters of a stack decode
 * (hwt_stack_decode's lists): in front of the frames and the element
 * sinks, with the capture's thread names for --comm. */
#ifndef HWT_ANALYSIS_STACK_FILTERS_H
#define HWT_ANALYSIS_STACK_FILTERS_H

#include "hwtrace/capture.h"
#include "hwtrace/filter.h"
#include "hwtrace/stack.h"

struct stack_filters {
	struct hwt_frame_filter *frames;
	struct hwt_elem_filter *elements, *after;
	struct hwt_elem_sink elements_sink, after_sink;
	struct hwt_capture *names;  /* opened for its thread names, or NULL */
};

/* Puts @run's filters in front of *@ops, *@elements and *@after (a NULL
 * sink stays NULL); nothing when @run names no list. @f is zeroed first
 * and freed by stack_filters_end, even after an error. Errors: those of
 * hwt_capture_open, hwt_frame_filter_new and hwt_elem_filter_new. */
int stack_filters_start(const struct hwt_stack_decode *run,
			struct stack_filters *f, struct hwt_stack_ops *ops,
			const struct hwt_elem_sink **elements,
			const struct hwt_elem_sink **after);

void stack_filters_end(struct stack_filters *f);

#endif
