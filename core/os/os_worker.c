/* Sandboxed worker processes (os_worker.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/os/os_worker.h"
#include "hwtrace/error.h"

/* The worker's end of the socket, moved here before the rest is closed. */
#define WORKER_FD 3

/* What a decoder computing over its socket needs: its descriptors, memory
 * that is never executable, the clock, and a way to end (abort() raises
 * SIGABRT at itself). No open, no exec, no network, no other process. */
static const char *const allowed_calls[] = {
	"read", "write", "readv", "writev", "recvfrom", "sendto", "recvmsg",
	"sendmsg", "close", "munmap", "mremap", "brk", "madvise", "futex",
	"sched_yield", "getpid", "gettid", "clock_gettime", "gettimeofday",
	"getrandom", "rt_sigreturn", "rt_sigprocmask", "exit", "exit_group",
	"fstat", "newfstatat", "lseek",
	/* A sanitizer runtime sets up its signal stack. */
	"sigaltstack",
};

static int sandbox(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (!ctx)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < sizeof(allowed_calls) / sizeof(*allowed_calls); i++) {
		int nr = seccomp_syscall_resolve_name(allowed_calls[i]);
		/* A call this architecture does not have (fstat on arm64). */
		if (nr != __NR_SCMP_ERROR)
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	}
	/* The argument tests written out (libseccomp's SCMP_A0..A2 leave a
	 * field to the compiler, which clang warns about): memory that is
	 * not executable, signals only to this process. */
	const struct scmp_arg_cmp no_exec = {.arg = 2, .op = SCMP_CMP_MASKED_EQ,
					     .datum_a = PROT_EXEC, .datum_b = 0};
	const struct scmp_arg_cmp to_self = {.arg = 0, .op = SCMP_CMP_EQ,
					     .datum_a = (scmp_datum_t)getpid(),
					     .datum_b = 0};
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, no_exec);
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
			       no_exec);
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, to_self);
	if (!rc)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return rc ? -1 : 0;
}

/* The worker's start: nothing of the parent's that could act on its
 * behalf (signal handlers, descriptors) survives into the sandbox. */
static void worker_run(int fd, hwt_worker_main main, void *arg)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (fd != WORKER_FD) {
		if (dup2(fd, WORKER_FD) < 0)
			_exit(126);
		close(fd);
	}
	/* Standard error stays, for a sanitizer's report. */
	close(0);
	close(1);
	if (syscall(SYS_close_range, WORKER_FD + 1, ~0u, 0) != 0)
		for (int i = WORKER_FD + 1; i < 4096; i++)
			close(i);
	/* A kernel without seccomp (or qemu-user, which does not pass it
	 * on) still gets the worker's separate memory; the worker says so. */
	bool sandboxed = sandbox() == 0;
	/* _exit: the parent's atexit handlers (and a leak check, which
	 * would need calls the sandbox refuses) are not the worker's. */
	_exit(main(arg, WORKER_FD, sandboxed));
}

int hwt_worker_start(struct hwt_worker *w, hwt_worker_main main, void *arg)
{
	int sv[2];
	w->pid = 0;
	w->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return hwt_error(HWT_ERR_IO, "cannot make a socket for a decoder "
				 "worker: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		close(sv[0]);
		close(sv[1]);
		return hwt_error(HWT_ERR_IO, "cannot start a decoder worker "
				 "process: %s", strerror(err));
	}
	if (pid == 0) {
		close(sv[0]);
		worker_run(sv[1], main, arg);
	}
	close(sv[1]);
	w->pid = pid;
	w->fd = sv[0];
	return 0;
}

/* Waits for @events on the socket: 0, HWT_ERR_BUSY after @timeout_ms,
 * HWT_ERR_EOF when it failed. */
static int wait_for(struct hwt_worker *w, short events, unsigned int timeout_ms)
{
	struct pollfd pfd = {.fd = w->fd, .events = events};
	int r;
	while ((r = poll(&pfd, 1, (int)timeout_ms)) < 0 && errno == EINTR)
		;
	return r > 0 ? 0 : r == 0 ? HWT_ERR_BUSY : HWT_ERR_EOF;
}

int hwt_worker_send(struct hwt_worker *w, const void *buf, size_t len,
		    unsigned int timeout_ms)
{
	const char *p = buf;
	while (len) {
		ssize_t n = send(w->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return HWT_ERR_EOF;
		int err = wait_for(w, POLLOUT, timeout_ms);
		if (err < 0)
			return err;
	}
	return 0;
}

int hwt_worker_recv(struct hwt_worker *w, void *buf, size_t len,
		    unsigned int timeout_ms)
{
	char *p = buf;
	while (len) {
		ssize_t n = recv(w->fd, p, len, MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return HWT_ERR_EOF;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return HWT_ERR_EOF;
		int err = wait_for(w, POLLIN, timeout_ms);
		if (err < 0)
			return err;
	}
	return 0;
}

void hwt_worker_stop(struct hwt_worker *w, bool kill_it, char *why,
		     size_t why_size)
{
	if (why && why_size)
		why[0] = 0;
	if (!w->pid)
		return;
	if (kill_it)
		kill(w->pid, SIGKILL);
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	int status = 0;
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	if (!why || !why_size)
		return;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
		snprintf(why, why_size, "was stopped by its sandbox (signal %d: "
			 "it made a system call decoding does not need, as a "
			 "sanitizer's report of a crash does)", SIGSYS);
	else if (WIFSIGNALED(status))
		snprintf(why, why_size, "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(why, why_size, "exited with status %d",
			 WEXITSTATUS(status));
}

/* All of @len bytes read into or written from @buf, blocking. */
static int move_all(int fd, char *buf, size_t len, bool out)
{
	while (len) {
		ssize_t n = out ? write(fd, buf, len) : read(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int hwt_worker_read_all(int fd, void *buf, size_t len)
{
	return move_all(fd, buf, len, false);
}

int hwt_worker_write_all(int fd, const void *buf, size_t len)
{
	/* Only read through when @out. */
	return move_all(fd, (char *)buf, len, true);
}
