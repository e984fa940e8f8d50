/* Starting the traced program and waiting for its stops (swb_launch.c). */
#ifndef HWT_SWB_LAUNCH_H
#define HWT_SWB_LAUNCH_H

#include <sys/types.h>

#include "hwtrace/swbranch.h"

/* Forks and execs o->argv under ptrace; on success *out is stopped at
 * its exec with PTRACE_O_EXITKILL set. HWT_ERR_PERM when ptrace is not
 * allowed, HWT_ERR_NOENT when the program is missing, HWT_ERR_IO. */
int hwt_swb_launch(const struct hwt_swb_opts *o, pid_t *out);

/* Waits for the next stop of @pid. Returns 1 when stopped (the signal in
 * *sig), 0 when it ended (*status set), or a negative hwt_err. */
int hwt_swb_wait_stop(pid_t pid, int *sig, int *status);

#endif
