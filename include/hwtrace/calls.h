/* `hwtrace decode --calls`: one line per call and per return, indented by
 * depth, as perf script's call/return trace. Built on hwtrace/stack.h: the
 * writer's stack ops print what the stacks report. */
#ifndef HWTRACE_CALLS_H
#define HWTRACE_CALLS_H

#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/output.h"
#include "hwtrace/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_calls_writer;

/* A writer of calls and returns to @out (borrowed, not closed) in text or
 * JSON lines (`{"type":"call",...}`, `{"type":"return",...}`, see
 * docs/decode.md). @namer may be NULL (addresses only) and is copied.
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_calls_writer_new(FILE *out, enum hwt_output_format format,
				 const struct hwt_func_namer *namer,
				 struct hwt_calls_writer **writer);

/* Hands the lines the writer holds to its stream (the writer buffers
 * them). Errors: HWT_ERR_IO. */
HWT_API int hwt_calls_writer_flush(struct hwt_calls_writer *writer);

/* Frees the writer, its lines handed to the stream first (an error is
 * left on the stream: check it with ferror, or call
 * hwt_calls_writer_flush before); NULL is a no-op. */
HWT_API void hwt_calls_writer_free(struct hwt_calls_writer *writer);

/* Stack ops whose on_enter and on_exit write lines; valid while @writer
 * is (set function_start for tail calls and unwinding).
 * Their errors: HWT_ERR_IO when a write fails. */
HWT_API struct hwt_stack_ops hwt_calls_writer_ops(struct hwt_calls_writer *writer);

/* The whole of `decode --calls`, for every program that lists calls: the
 * elements of a capture's decode or of a cursor, their stacks rebuilt
 * with the function starts of @namer, every call and return written to
 * @out as the writer above writes it. Zero-initialise, then set size. */
struct hwt_cursor;

struct hwt_calls_decode {
	size_t size;            /* sizeof(struct hwt_calls_decode) */
	FILE *out;              /* borrowed, not closed */
	enum hwt_output_format format;
	/* Optional: names the functions (the lines' names and the
	 * stacks' function starts); NULL: addresses only. */
	const struct hwt_func_namer *namer;
	/* The elements, exactly one of: a capture decoded and merged as
	 * hwt_stack_decode does it (file, opts, per_cpu, elements, unit,
	 * filters; its ops and namer are this call's own, the ones given
	 * are ignored), or what a cursor has left. */
	const struct hwt_stack_decode *decode;
	struct hwt_cursor *cursor;
};

/* Runs @run: the lines are all on @out (flushed) when it returns, even
 * after a decode that failed part way. *@result (may be NULL) gets what
 * the stacks (and a decode's merge) saw, as hwt_stack_decode fills it;
 * from a cursor, merge is zero and merged false. Returns 0, the decode's
 * or cursor's error; HWT_ERR_IO (a write failed), HWT_ERR_NOMEM,
 * HWT_ERR_INVAL (a NULL or short @run, no @out, neither or both of
 * decode and cursor). */
HWT_API int hwt_calls_decode(const struct hwt_calls_decode *run,
			     struct hwt_stack_decode_result *result);

#ifdef __cplusplus
}
#endif

#endif
