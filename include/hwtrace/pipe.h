/* A sink that hands elements to a thread of its own: the consumer behind
 * it (formatting and writing output, say) runs beside the producer (the
 * time-ordered merge reading its records back) instead of after it, each
 * on a core of its own. Elements reach the consumer in the order they
 * were emitted, whole (strings and branch arrays copied), in batches. */
#ifndef HWTRACE_PIPE_H
#define HWTRACE_PIPE_H

#include "hwtrace/common.h"
#include "hwtrace/element.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_pipe;

/* A pipe into @out (borrowed; must outlive the pipe). It starts passing
 * elements straight to @out on the emitting thread, until
 * hwt_pipe_start. Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_pipe_new(const struct hwt_elem_sink *out,
			 struct hwt_pipe **pipe);

/* The sink to emit into; valid while @pipe is. Once started, it returns
 * the first error @out returned (with its message), at the next batch
 * after it: elements emitted after that one never reach @out. Errors:
 * HWT_ERR_NOMEM and @out's. */
HWT_API struct hwt_elem_sink hwt_pipe_sink(struct hwt_pipe *pipe);

/* From now on @out is called on the pipe's thread, and only there, until
 * hwt_pipe_finish returns. Errors: HWT_ERR_NOMEM (no thread could be
 * started: elements still go straight out). */
HWT_API int hwt_pipe_start(struct hwt_pipe *pipe);

/* Waits until every element emitted has reached @out, and stops the
 * thread: @out is called on the emitting thread again. Returns 0 or the
 * first error @out returned. */
HWT_API int hwt_pipe_finish(struct hwt_pipe *pipe);

/* Finishes (when started) and frees the pipe; NULL is a no-op. */
HWT_API void hwt_pipe_free(struct hwt_pipe *pipe);

#ifdef __cplusplus
}
#endif

#endif
