/* The line `hwtrace view` ends with: how the page's timeline was drawn,
 * so that a reader knows how much of it was added up or left out. */
#include <inttypes.h>

#include "hwtrace/error.h"
#include "hwtrace/view.h"

int hwt_view_write_summary(const struct hwt_view *view, FILE *out,
			   const char *prefix, const char *name)
{
	struct hwt_view_stats st;

	if (!view || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_view_write_summary: no view "
				 "or no stream");
	hwt_view_get_stats(view, &st);
	fprintf(out, "%swrote %s: a timeline of %" PRIu64 " calls and %" PRIu64
		" shorter than a pixel added up in %" PRIu64 " blocks (%" PRIu64
		" without time left out), %" PRIu64 " marks\n",
		prefix ? prefix : "", name ? name : "the page", st.slices,
		st.slices_short, st.blocks, st.untimed, st.marks);
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing the view's summary "
				       "failed") : 0;
}
