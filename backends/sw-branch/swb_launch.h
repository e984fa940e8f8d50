/* Starting the traced program and waiting for its stops (swb_launch.c). */
#ifndef HWT_SWB_LAUNCH_H
#define HWT_SWB_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

#include "hwtrace/swbranch.h"

/* Forks and execs o->argv under ptrace; on success *out is stopped at
 * its exec with PTRACE_O_EXITKILL set. HWT_ERR_PERM when ptrace is not
 * allowed, HWT_ERR_NOENT when the program is missing, HWT_ERR_IO. */
int hwt_swb_launch(const struct hwt_swb_opts *o, pid_t *out);

/* Attaches to the running process @pid: every thread (or only thread
 * @tid when it is not 0), each seized (PTRACE_SEIZE with
 * PTRACE_O_TRACECLONE, so threads it starts are traced too, and without
 * PTRACE_O_EXITKILL: the program outlives its tracer) and stopped with
 * PTRACE_INTERRUPT. *tids (malloc'd) lists them, *n of them. A thread
 * that ends meanwhile is left out. HWT_ERR_NOENT when there is no such
 * process or thread, HWT_ERR_PERM when ptrace is not allowed (the message
 * names ptrace_scope), HWT_ERR_IO, HWT_ERR_NOMEM. */
int hwt_swb_attach(pid_t pid, pid_t tid, pid_t **tids, size_t *n);

/* Waits for the next stop of @pid. Returns 1 when stopped (the signal in
 * *sig), 0 when it ended (*status set), or a negative hwt_err. */
int hwt_swb_wait_stop(pid_t pid, int *sig, int *status);

#endif
