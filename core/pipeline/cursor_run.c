/* A cursor's elements pushed into a sink: for consumers that are sinks
 * (stacks, edge maps, outputs) fed from a cursor, in one call. */
#include "hwtrace/capture.h"
#include "hwtrace/error.h"

int hwt_cursor_run(struct hwt_cursor *cur, const struct hwt_elem_sink *sink)
{
	if (!cur || !sink || !sink->emit)
		return hwt_error(HWT_ERR_INVAL, "hwt_cursor_run: missing argument");
	struct hwt_elem e;
	int rc;
	while ((rc = hwt_cursor_next(cur, &e)) > 0) {
		int err = sink->emit(sink->arg, &e);
		if (err < 0)
			return err;
	}
	return rc;
}
