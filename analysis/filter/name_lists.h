/* What the --comm, --dso and --sym filters match, shared by the element
 * and the frame filters: the name lists, thread names and code. */
#ifndef HWT_ANALYSIS_FILTER_NAME_LISTS_H
#define HWT_ANALYSIS_FILTER_NAME_LISTS_H

#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/filter.h"

/* Whether the @len bytes of @name are one of the comma-separated @list. */
bool hwt_name_listed(const char *list, const char *name, size_t len);

/* Whether binary @dso (NULL: none) is in @list by its path as recorded
 * or by its file name. */
bool hwt_dso_listed(const char *list, const char *dso);

/* Whether thread name @comm (NULL: none) passes @o's --comm list (none:
 * every name does). */
bool hwt_filter_comm_passes(const struct hwt_elem_filter_opts *o,
			    const char *comm);

/* Whether the code at @addr in process @pid at @time passes @o's --dso
 * and --sym lists (none: all code does; code of no symbol passes none). */
bool hwt_filter_code_passes(const struct hwt_elem_filter_opts *o, int32_t pid,
			    uint64_t addr, uint64_t time);

/* 0 when @o is complete (size, and the symbolizer and thread names its
 * lists need), else HWT_ERR_INVAL naming @what, the caller's options. */
int hwt_filter_lists_check(const struct hwt_elem_filter_opts *o,
			   const char *what);

#endif
