/* Progress reports of a decode: see decode_progress.h. */
#include "core/decode/decode_progress.h"

static void report(struct hwt_progress *pr, uint64_t done)
{
	if (!pr->opts || !pr->opts->progress)
		return;
	/* A backend's offset may run past what the chunk said it holds. */
	pr->p.done = done < pr->p.total ? done : pr->p.total;
	pr->opts->progress(pr->opts->progress_arg, &pr->p);
}

void hwt_progress_start(struct hwt_progress *pr,
			const struct hwt_decode_opts *opts, uint64_t total,
			uint32_t streams)
{
	pr->opts = opts;
	pr->p.done = 0;
	pr->p.total = total;
	pr->p.streams = streams;
	pr->base = 0;
	report(pr, 0);
}

static void within_chunk(void *arg, uint64_t chunk_done)
{
	struct hwt_progress *pr = arg;
	/* A parallel decode may decode a segment of a chunk again on the
	 * calling thread, whose offsets count from the segment's start:
	 * never report less than before. */
	if (pr->base + chunk_done > pr->p.done)
		report(pr, pr->base + chunk_done);
}

void hwt_progress_params(struct hwt_progress *pr,
			 const struct hwt_decode_opts *opts,
			 struct hwt_decode_params *params)
{
	pr->opts = opts;
	if (!opts || !opts->progress)
		return;
	params->progress = within_chunk;
	params->progress_arg = pr;
}

void hwt_progress_chunk_done(struct hwt_progress *pr, uint64_t bytes)
{
	pr->base += bytes;
	report(pr, pr->base);
}

void hwt_progress_finish(struct hwt_progress *pr)
{
	report(pr, pr->p.total);
}
