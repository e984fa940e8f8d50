/* Output files that never destroy what was there before.
 *
 * Every file hwtrace writes (perf.data captures, decoded text) is written
 * to a temporary file in the same directory, named PATH.tmp.XXXXXX, and
 * renamed over PATH only when it is complete: a failed command leaves PATH
 * as it was. PATH must be a new name or an existing regular file; a
 * directory, a device, a FIFO, a socket, a symbolic link (it is neither
 * followed nor replaced: give the target, or remove the link) and any of
 * the command's own input files are refused before anything is created. */
#ifndef HWTRACE_OUTFILE_H
#define HWTRACE_OUTFILE_H

#include <stddef.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_outfile;

/* Whether @path may be written as an output of a command that reads
 * @inputs (@ninputs paths; NULL entries are skipped). Returns 0, or
 * HWT_ERR_CONFIG (a usage error: what @path is and why it is refused),
 * HWT_ERR_NOENT (its directory does not exist) or HWT_ERR_PERM (its
 * directory cannot be written); the message names @path. */
HWT_API int hwt_outfile_check(const char *path, const char *const *inputs,
			      size_t ninputs);

/* Checks @path as hwt_outfile_check does and creates the temporary file
 * beside it with @mode (less the umask). Errors as hwt_outfile_check,
 * HWT_ERR_IO, HWT_ERR_NOMEM. */
HWT_API int hwt_outfile_open(const char *path, const char *const *inputs,
			     size_t ninputs, unsigned int mode,
			     struct hwt_outfile **out);

/* The temporary file's descriptor (owned by @f) and its path. */
HWT_API int hwt_outfile_fd(const struct hwt_outfile *f);
HWT_API const char *hwt_outfile_temp_path(const struct hwt_outfile *f);

/* Closes the temporary file and renames it to the path given to open.
 * Frees @f even on error; when the close or the rename fails the
 * temporary file is removed and the path left as it was. The descriptor
 * must not be closed by the caller (a FILE made with fdopen: fflush it,
 * then hwt_outfile_release_fd before fclose). */
HWT_API int hwt_outfile_commit(struct hwt_outfile *f);

/* Removes the temporary file and frees @f; the path is untouched. NULL
 * is a no-op. */
HWT_API void hwt_outfile_discard(struct hwt_outfile *f);

/* Says the caller closes the descriptor itself (e.g. with fclose of a
 * FILE made by fdopen) before commit or discard. */
HWT_API void hwt_outfile_release_fd(struct hwt_outfile *f);

#ifdef __cplusplus
}
#endif

#endif
