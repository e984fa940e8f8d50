/* Output files that never destroy what was there before.
 *
 * Every file hwtrace writes (perf.data captures, decoded text, databases)
 * is written to a temporary file in the same directory, named
 * PATH.tmp.XXXXXX (PATH's file name cut to fit NAME_MAX), and renamed
 * over PATH only when it is complete: a failed command leaves PATH as it
 * was. PATH must be a new name or an existing regular file; a directory,
 * a device, a FIFO, a socket, a symbolic link (it is neither followed nor
 * replaced: give the target, or remove the link) and any of the command's
 * input files are refused before anything is created.
 *
 * Inputs are known by identity (device and inode), not by name: those
 * given to the check, and, once hwt_outfile_track_inputs is on, every
 * file the library reads (captures, maps, snapshot files, the binaries a
 * decode opens, kallsyms, vmlinux, perf maps, debug files), which is
 * checked again just before the rename.
 *
 * The temporaries have one owner: whatever way the process ends (exit,
 * or SIGINT, SIGTERM, SIGHUP, SIGQUIT once hwt_outfile_catch_signals has
 * run), the temporaries not yet committed or discarded are removed. */
#ifndef HWTRACE_OUTFILE_H
#define HWTRACE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_outfile;

/* Whether @path may be written as an output of a command that reads
 * @inputs (@ninputs paths; NULL entries are skipped) and has read what
 * hwt_outfile_note_input was told. Returns 0, or HWT_ERR_CONFIG (a usage
 * error: what @path is and why it is refused), HWT_ERR_NOENT (its
 * directory does not exist) or HWT_ERR_PERM (its directory cannot be
 * written); the message names @path. */
HWT_API int hwt_outfile_check(const char *path, const char *const *inputs,
			      size_t ninputs);

/* Checks @path as hwt_outfile_check does and creates the temporary file
 * beside it with @mode (less the umask). Errors as hwt_outfile_check,
 * HWT_ERR_NOSPC, HWT_ERR_IO, HWT_ERR_NOMEM. */
HWT_API int hwt_outfile_open(const char *path, const char *const *inputs,
			     size_t ninputs, unsigned int mode,
			     struct hwt_outfile **out);

/* The temporary file's descriptor (owned by @f) and its path. */
HWT_API int hwt_outfile_fd(const struct hwt_outfile *f);
HWT_API const char *hwt_outfile_temp_path(const struct hwt_outfile *f);

/* Whether the path given to open named a file then (which commit
 * replaces). */
HWT_API bool hwt_outfile_replaces(const struct hwt_outfile *f);

/* Makes commit fail, rather than replace, when the path names a file by
 * then, made by whoever (renameat2 RENAME_NOREPLACE, or link and unlink
 * where the file system has no such rename): of several commands writing
 * the same new name at once, exactly one succeeds. */
HWT_API void hwt_outfile_set_no_replace(struct hwt_outfile *f);

/* Closes the temporary file and renames it to the path given to open.
 * Frees @f even on error; when the close or the rename fails the
 * temporary file is removed and the path left as it was. The descriptor
 * must not be closed by the caller (a FILE made with fdopen: fflush it,
 * then hwt_outfile_release_fd before fclose). Errors: HWT_ERR_CONFIG
 * (the path is now a file this process has read, or, with
 * hwt_outfile_set_no_replace, a file exists there), HWT_ERR_NOSPC,
 * HWT_ERR_IO. */
HWT_API int hwt_outfile_commit(struct hwt_outfile *f);

/* Removes the temporary file and frees @f; the path is untouched. NULL
 * is a no-op. */
HWT_API void hwt_outfile_discard(struct hwt_outfile *f);

/* Says the caller closes the descriptor itself (e.g. with fclose of a
 * FILE made by fdopen) before commit or discard. */
HWT_API void hwt_outfile_release_fd(struct hwt_outfile *f);

/* Turns on (or off, forgetting what was noted) the record of the files
 * this process reads. Off by default, since a long-lived program may
 * rewrite what it read earlier; the hwtrace CLI turns it on, one command
 * being one process. Thread-safe. */
HWT_API void hwt_outfile_track_inputs(bool on);

/* Notes @path (its identity now: a later file of the name is another
 * one), or the file open on @fd, as read by this process: no output may
 * replace it. @path is the name messages use. A no-op unless tracking is
 * on, or for what is not a regular file. Thread-safe. */
HWT_API void hwt_outfile_note_input(const char *path);
HWT_API void hwt_outfile_note_input_fd(int fd, const char *path);

/* Installs a handler of SIGINT, SIGTERM, SIGHUP and SIGQUIT, for each
 * that has the default action now, which removes this process's
 * temporaries and then ends the process by the signal as the default
 * action would. A program with handlers of its own calls
 * hwt_outfile_remove_temporaries from them. Returns how many handlers
 * were installed. */
HWT_API int hwt_outfile_catch_signals(void);

/* Removes every temporary this process has open (not those of its
 * parent, after a fork). Async-signal-safe; the temporaries' objects
 * stay to be discarded. */
HWT_API void hwt_outfile_remove_temporaries(void);

#ifdef __cplusplus
}
#endif

#endif
