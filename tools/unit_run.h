/* Decoding one unit of a capture (hwt_capture_units) into a sink, for the
 * commands that write partial results (`report --unit`, `decode --edges
 * --unit`). */
#ifndef HWT_TOOLS_UNIT_RUN_H
#define HWT_TOOLS_UNIT_RUN_H

#include <stddef.h>

#include "hwtrace/decode.h"

/* Decodes unit @unit (1 for the first of hwt_capture_units) of the
 * capture @file with the image lookup and filters of @opts into @sink,
 * in stream order. Every error message names the file and the unit.
 * Returns 0 or the error (the decode's, or HWT_ERR_INVAL for a unit the
 * file does not have). */
int cli_unit_decode(const char *file, size_t unit,
		    const struct hwt_decode_opts *opts,
		    const struct hwt_elem_sink *sink);

/* As cli_unit_decode, the elements counted into a branch profile on
 * their way to @sink, and the profile handed to
 * @opts->branch_count_sink (named with @opts->name_addr) at the end, as
 * `decode --branch-profile` of the whole capture hands it. */
int cli_unit_decode_profile(const char *file, size_t unit,
			    const struct hwt_decode_opts *opts,
			    const struct hwt_elem_sink *sink);

#endif
