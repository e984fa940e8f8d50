/* Error codes and the detailed message of the last failure.
 *
 * Every fallible hwtrace function returns a negative hwt_err code. The code
 * says what class of failure it was; the detailed message (hwt_errmsg) says
 * which file, PMU, INI key or record, and what to do about it. The library
 * never prints: the CLI prints the message. */
#ifndef HWTRACE_ERROR_H
#define HWTRACE_ERROR_H

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_err {
	HWT_OK = 0,
	HWT_ERR_NOMEM = -1,     /* out of memory */
	HWT_ERR_INVAL = -2,     /* invalid argument (a caller bug) */
	HWT_ERR_IO = -3,        /* a read, write or system call failed */
	HWT_ERR_NOENT = -4,     /* a file, PMU, sink or key does not exist */
	HWT_ERR_FORMAT = -5,    /* input is corrupt or not of the expected format */
	HWT_ERR_NOSUP = -6,     /* not supported (missing decoder, PMU feature) */
	HWT_ERR_PERM = -7,      /* the kernel refused: privileges or limits */
	HWT_ERR_CONFIG = -8,    /* a profile or option value is wrong */
	HWT_ERR_TRUNCATED = -9, /* input ends inside a record */
	HWT_ERR_DECODE = -10,   /* trace could not be decoded */
	HWT_ERR_NOSPC = -11,    /* no space left for output */
	HWT_ERR_EOF = -12,      /* end of input (not a failure by itself) */
	HWT_ERR_BUSY = -13,     /* a resource is in use */
};

/* A short, static description of @err. Never NULL. */
HWT_API const char *hwt_errstr(int err);

/* The detailed message of the last failure in this thread, or "" when none
 * was recorded. The string stays valid until the next hwtrace call that
 * fails in this thread. */
HWT_API const char *hwt_errmsg(void);

/* Records a detailed message for the calling thread and returns @err, so a
 * failing function can end with `return hwt_error(HWT_ERR_NOENT, ...)`.
 * Backends use this too. */
HWT_API int hwt_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Forgets the last detailed message of this thread. */
HWT_API void hwt_error_clear(void);

#ifdef __cplusplus
}
#endif

#endif
