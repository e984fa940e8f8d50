/* Spill files: scratch space for what does not fit in memory (the
 * time-ordered merge, the parallel decode's batches, an export's rows).
 *
 * A spill file is created in $TMPDIR (or /tmp when TMPDIR is unset or
 * empty), as the directory a user sets for scratch space, and unlinked at
 * once: it has no name, and nothing is left behind however the command
 * ends. (glibc's tmpfile() ignores TMPDIR, which is why this exists.) */
#ifndef HWTRACE_SPILL_H
#define HWTRACE_SPILL_H

#include <stdio.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The directory spill files are made in: $TMPDIR, or "/tmp". Never
 * NULL; valid until the environment changes. */
HWT_API const char *hwt_spill_dir(void);

/* Creates a spill file for @what ("the time-ordered merge": the words the
 * message uses) and opens it "w+" in *@out, owned by the caller (fclose
 * it). Errors: HWT_ERR_IO (the message names the directory, the reason
 * and that TMPDIR chooses another), HWT_ERR_NOMEM. */
HWT_API int hwt_spill_open(const char *what, FILE **out);

#ifdef __cplusplus
}
#endif

#endif
