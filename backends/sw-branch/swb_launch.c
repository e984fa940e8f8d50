/* sw_branch: starting the program under ptrace, stopped at its exec,
 * and waiting for a traced thread's next stop. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/sw-branch/swb_launch.h"
#include "hwtrace/error.h"

int hwt_swb_wait_stop(pid_t pid, int *sig, int *status)
{
	for (;;) {
		if (waitpid(pid, status, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return hwt_error(HWT_ERR_IO, "waitpid(%d): %s", (int)pid,
					 strerror(errno));
		}
		if (WIFSTOPPED(*status)) {
			*sig = WSTOPSIG(*status);
			return 1;
		}
		if (WIFEXITED(*status) || WIFSIGNALED(*status))
			return 0;
	}
}

/* Child side of fork: report failure through @fd as one int errno, with
 * the failing step in the second. */
static void child(int fd, const struct hwt_swb_opts *o)
{
	int msg[2];

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
		msg[0] = 1;
		msg[1] = errno;
		if (write(fd, msg, sizeof(msg)) < 0)
			_exit(126);
		_exit(126);
	}
	if (o->quiet_child) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
	}
	execvp(o->argv[0], o->argv);
	msg[0] = 2;
	msg[1] = errno;
	if (write(fd, msg, sizeof(msg)) < 0)
		_exit(127);
	_exit(127);
}

int hwt_swb_launch(const struct hwt_swb_opts *o, pid_t *out)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return hwt_error(HWT_ERR_IO, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return hwt_error(HWT_ERR_IO, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		child(p[1], o);
	}
	close(p[1]);
	int msg[2] = {0, 0}, sig, status;
	ssize_t n = read(p[0], msg, sizeof(msg));
	close(p[0]);
	int r = hwt_swb_wait_stop(pid, &sig, &status);
	if (n == (ssize_t)sizeof(msg)) {
		if (r == 1)
			kill(pid, SIGKILL);
		if (msg[0] == 1)
			return hwt_error(HWT_ERR_PERM, "ptrace is not allowed "
					 "here: %s (check /proc/sys/kernel/yama/"
					 "ptrace_scope and seccomp)", strerror(msg[1]));
		return hwt_error(msg[1] == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
				 "cannot run %s: %s", o->argv[0], strerror(msg[1]));
	}
	if (r < 0)
		return r;
	if (r == 0 || sig != SIGTRAP)
		return hwt_error(HWT_ERR_IO, "%s did not stop at exec under "
				 "ptrace", o->argv[0]);
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_EXITKILL);
	*out = pid;
	return 0;
}
