/* Sandboxed worker processes (os_worker.c): a fork of the calling process
 * that talks to it over one socket and may make no system call but those
 * computing over that socket needs (seccomp). The decoders of untrusted
 * trace run in them (core/decode/decode_isolate.c), so that a library
 * that reads wild memory or loops forever on a crafted stream takes down
 * a worker, not the decode. */
#ifndef HWT_CORE_OS_WORKER_H
#define HWT_CORE_OS_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct hwt_worker {
	pid_t pid; /* 0: not running */
	int fd;    /* the parent's end of the socket */
};

/* Runs in the worker, with @fd its end of the socket, @sandboxed false
 * when the kernel refused the seccomp filter; returns the worker's exit
 * status. */
typedef int (*hwt_worker_main)(void *arg, int fd, bool sandboxed);

/* Forks a worker running @main(@arg, fd). In the worker every signal has
 * its default action (none of the parent's handlers, which remove its
 * temporary files, runs there), every descriptor but the socket and
 * standard error is closed, it dies with its parent, and the seccomp
 * filter allows only reading and writing descriptors it has, memory
 * (mmap, brk, ...), the clock, and ending itself. */
int hwt_worker_start(struct hwt_worker *w, hwt_worker_main main, void *arg);

/* The parent's side: sends all of @buf; HWT_ERR_EOF when the worker is
 * gone (no SIGPIPE), HWT_ERR_BUSY when it took none of it for
 * @timeout_ms. */
int hwt_worker_send(struct hwt_worker *w, const void *buf, size_t len,
		    unsigned int timeout_ms);

/* Receives exactly @len bytes, waiting at most @timeout_ms for each part
 * of them; HWT_ERR_EOF when the worker is gone, HWT_ERR_BUSY when it sent
 * nothing for that long. */
int hwt_worker_recv(struct hwt_worker *w, void *buf, size_t len,
		    unsigned int timeout_ms);

/* Ends the worker (SIGKILL when @kill_it, else it is waited for after its
 * socket is closed) and reaps it. With @why non-NULL, writes there how it
 * ended ("killed by signal 11 (Segmentation fault)"). */
void hwt_worker_stop(struct hwt_worker *w, bool kill_it, char *why,
		     size_t why_size);

/* The worker's side of the socket: all of @len bytes, blocking. 0, or -1
 * when the other side is gone. */
int hwt_worker_read_all(int fd, void *buf, size_t len);
int hwt_worker_write_all(int fd, const void *buf, size_t len);

#endif
