/* Progress reports of a decode (hwt_decode_opts.progress): bytes of trace
 * decoded of the total, between chunks and, where the backend calls
 * params.progress, within one. */
#ifndef HWT_CORE_DECODE_PROGRESS_H
#define HWT_CORE_DECODE_PROGRESS_H

#include "hwtrace/backend.h"
#include "hwtrace/decode.h"

struct hwt_progress {
	const struct hwt_decode_opts *opts;
	struct hwt_decode_progress p;
	uint64_t base; /* bytes of the chunks before the current one */
};

/* Reports done 0 of @total; a no-op without opts->progress. */
void hwt_progress_start(struct hwt_progress *pr,
			const struct hwt_decode_opts *opts, uint64_t total,
			uint32_t streams);

/* Hooks @pr into the backend's params (progress within a chunk), before
 * the decoder is created from them. */
void hwt_progress_params(struct hwt_progress *pr,
			 const struct hwt_decode_opts *opts,
			 struct hwt_decode_params *params);

/* A chunk of @bytes is done: the next one starts after it. */
void hwt_progress_chunk_done(struct hwt_progress *pr, uint64_t bytes);

/* Reports done == total. */
void hwt_progress_finish(struct hwt_progress *pr);

#endif
