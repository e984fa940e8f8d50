/* Opening the files a command reads.
 *
 * Every input hwtrace opens by a name a user or a capture gave (captures,
 * raw trace streams, --map images, profiles, snapshot files, kallsyms,
 * the traced binaries) goes through this opener, so that all of them
 * behave alike: a regular file is opened; a directory, a device, a socket
 * or a FIFO is refused with a message that says what the path is and what
 * was expected, before anything reads it. The open itself never blocks (a
 * FIFO with no writer would block open(2) forever). Where a stream is
 * meant (a perf.data capture in pipe mode), a FIFO or a pipe is accepted
 * with HWT_INFILE_PIPE, and its writer is waited for a bounded time. */
#ifndef HWTRACE_INFILE_H
#define HWTRACE_INFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_infile_flags {
	/* A FIFO or a pipe is meant too: it is opened, and the open waits
	 * up to HWT_INFILE_PIPE_WAIT_MS for a writer to connect. */
	HWT_INFILE_PIPE = 1u << 0,
	/* A probe among candidates (symbol and debug files): a failure
	 * leaves the thread's last message (hwt_errmsg) as it was. */
	HWT_INFILE_QUIET = 1u << 1,
};

/* How long a FIFO with no writer is waited for (milliseconds). */
#define HWT_INFILE_PIPE_WAIT_MS 10000

/* Opens @path for reading as the input @what ("--map", "profile": the
 * words messages start with; NULL or "" for the path alone) and returns its
 * descriptor (close-on-exec, blocking reads), owned by the caller.
 * Errors (the message names @what and @path): HWT_ERR_NOENT (it does not
 * exist), HWT_ERR_PERM, HWT_ERR_CONFIG (a directory, device, socket, or a
 * FIFO where HWT_INFILE_PIPE was not given: the path names the wrong
 * thing), HWT_ERR_IO (a FIFO whose writer did not come, other failures). */
HWT_API int hwt_infile_open(const char *path, const char *what,
			    unsigned int flags);

/* As hwt_infile_open, as a FILE opened "r" (owned by the caller: fclose
 * it). Same errors, and HWT_ERR_NOMEM. */
HWT_API int hwt_infile_fopen(const char *path, const char *what,
			     unsigned int flags, FILE **out);

/* Reads the whole file @path (opened as hwt_infile_fopen opens it) into
 * *@data (malloc'd, the caller's to free, also for an empty file) and its
 * size into *@len. Errors: those of hwt_infile_fopen, HWT_ERR_NOMEM,
 * HWT_ERR_IO (a read that failed), naming @path; *@data is then NULL. */
HWT_API int hwt_infile_read_all(const char *path, const char *what,
				uint8_t **data, size_t *len);

/* Checks that @path would open as hwt_infile_open opens it (for readers
 * that take a path, such as an INI parser), and closes it again. Returns
 * 0 or the errors of hwt_infile_open. */
HWT_API int hwt_infile_check(const char *path, const char *what,
			     unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif
