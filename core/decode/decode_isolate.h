/* Isolated decoders (decode_isolate.c): a backend whose decoder runs in
 * sandboxed worker processes, for decoding untrusted trace. A worker that
 * crashes or stops answering costs the bytes it was decoding (an error
 * element names them) and the decode goes on. */
#ifndef HWT_CORE_DECODE_ISOLATE_H
#define HWT_CORE_DECODE_ISOLATE_H

#include <stdbool.h>

#include "hwtrace/backend.h"
#include "hwtrace/decode.h"

struct hwt_isolation;

/* Whether @opts (hwt_decode_opts.isolate) asks for @b's decoder to run
 * isolated. A packet listing never is: it runs no element decoder. */
bool hwt_isolate_wanted(const struct hwt_backend *b,
			const struct hwt_decode_opts *opts);

/* Whether @b's decoder is isolated when the caller does not say
 * (HWT_ISOLATE_DEFAULT); in core/backend_registry.c, which knows the
 * compiled-in backends. */
bool hwt_backend_isolated_by_default(const struct hwt_backend *b);

/* Starts an isolation of @inner's decoder; hwt_isolation_backend then
 * gives the backend to decode with, valid until hwt_isolation_close. */
int hwt_isolation_open(const struct hwt_backend *inner,
		       const struct hwt_decode_opts *opts,
		       struct hwt_isolation **out);
const struct hwt_backend *hwt_isolation_backend(struct hwt_isolation *iso);

/* Calls @fn(@ctx, sink) in a sandboxed worker process of @iso's, a fork
 * of this one made now: @fn reads what this process holds at the call
 * (files it read, an image it built) and may make no system call the
 * worker's filter refuses. The elements it sends come to @sink here, in
 * its order. When the worker is lost, an error element to @sink says so,
 * naming the bytes @what describes ("the snapshot's buffer ..."), the
 * loss is counted for hwt_isolation_close, and the result is 0 (or the
 * sink's error); otherwise it is @fn's, its error message too. @warn
 * (optional) says once a process that a worker runs without its filter
 * (a kernel that refused it). */
int hwt_isolation_call(struct hwt_isolation *iso,
		       const struct hwt_elem_sink *sink,
		       void (*warn)(void *arg, const char *message),
		       void *warn_arg,
		       int (*fn)(void *ctx, const struct hwt_elem_sink *sink),
		       void *ctx, const char *what);

/* Ends @iso (NULL: none) once every decoder instance of it is destroyed,
 * and returns @err, or, when @err is not an error but a worker was lost,
 * an error that counts the lost parts and names the first. */
int hwt_isolation_close(struct hwt_isolation *iso, int err);

#endif
