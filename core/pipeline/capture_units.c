/* A capture's units: listed once, by the decode pipeline, which cuts each
 * AUX piece with the backend's split op as `decode -j` does. */
#include <stdlib.h>

#include "core/pipeline/pipeline_internal.h"
#include "hwtrace/error.h"

int64_t hwt_capture_units(struct hwt_capture *cap,
			  const struct hwt_capture_unit **units)
{
	if (!cap || !units)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_units: missing argument");
	if (cap->kind != HWT_CAPTURE_PERF_DATA)
		return hwt_error(HWT_ERR_NOSUP, "%s: only perf.data captures are "
				 "cut into units; decode this one whole", cap->path);
	if (!cap->units_listed) {
		int err = hwt_decode_file_units(cap->path, &cap->dopts,
						&cap->units, &cap->nunits);
		if (err < 0)
			return err;
		cap->units_listed = true;
	}
	*units = cap->units;
	return (int64_t)cap->nunits;
}
