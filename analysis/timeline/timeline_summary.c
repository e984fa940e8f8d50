/* What a finished timeline holds and left out, and where its threads'
 * names come from: the capture's own record of them over time. */
#include <inttypes.h>

#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/timeline.h"

int hwt_timeline_name_capture_threads(struct hwt_timeline *timeline,
				      const struct hwt_capture *cap)
{
	const struct hwt_capture_task *t;
	size_t n = hwt_capture_tasks(cap, &t);
	int err = 0;
	for (size_t i = 0; !err && i < n; i++)
		err = hwt_timeline_name_thread(timeline, t[i].pid, t[i].tid,
					       t[i].name);
	return err;
}

int hwt_timeline_name_capture_file(struct hwt_timeline *timeline,
				   const char *path)
{
	struct hwt_capture *cap = NULL;
	int err = hwt_capture_open(path, NULL, &cap);
	if (!err)
		err = hwt_timeline_name_capture_threads(timeline, cap);
	hwt_capture_free(cap);
	return err;
}

int hwt_timeline_write_summary(const struct hwt_timeline *timeline, FILE *out,
			       const char *prefix, const char *name)
{
	struct hwt_timeline_stats st;
	hwt_timeline_get_stats(timeline, &st);
	fprintf(out, "%swrote %s: %" PRIu64 " slices on %" PRIu64 " threads of %"
		PRIu64 " processes, %" PRIu64 " instants; left out %" PRIu64
		" shorter than --min-duration, %" PRIu64 " deeper than "
		"--max-depth, %" PRIu64 " without time\n", prefix, name,
		st.slices, st.threads, st.processes, st.instants,
		st.dropped_short, st.dropped_deep, st.untimed);
	/* Without time the slices' places are made up: the reader must know. */
	if (st.sequence)
		fprintf(out, "%sthe capture has no timestamps: its slices are in "
			"sequence order (1 us per call and return), as the "
			"file's metadata says\n", prefix);
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing the timeline's "
				       "summary failed") : 0;
}
