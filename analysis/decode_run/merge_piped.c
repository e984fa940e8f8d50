/* A merge whose read-back runs beside its consumer (merge_piped.h). */
#include "analysis/decode_run/merge_piped.h"

int merge_piped_new(struct merge_piped *m, const struct hwt_elem_sink *out,
		    unsigned int jobs)
{
	*m = (struct merge_piped){0};
	if (jobs > 1) {
		int err = hwt_pipe_new(out, &m->pipe);
		if (err)
			return err;
		m->piped = hwt_pipe_sink(m->pipe);
		out = &m->piped;
	}
	int err = hwt_merge_new(out, &m->merge);
	if (err) {
		hwt_pipe_free(m->pipe);
		m->pipe = NULL;
	}
	return err;
}

int merge_piped_finish(struct merge_piped *m)
{
	/* Without a thread for the pipe, elements go straight out. */
	if (m->pipe)
		(void)hwt_pipe_start(m->pipe);
	int err = hwt_merge_finish(m->merge);
	int perr = m->pipe ? hwt_pipe_finish(m->pipe) : 0;
	return err ? err : perr;
}

void merge_piped_free(struct merge_piped *m)
{
	hwt_pipe_free(m->pipe);
	hwt_merge_free(m->merge);
	*m = (struct merge_piped){0};
}
