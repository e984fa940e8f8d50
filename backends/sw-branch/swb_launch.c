/* sw_branch: starting the program under ptrace, stopped at its exec,
 * and waiting for a traced thread's next stop. */
#define _GNU_SOURCE /* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

static bool listed(const pid_t *tids, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/* Seizes thread @tid and waits until PTRACE_INTERRUPT has stopped it:
 * 1 when it is stopped, 0 when it ended first, or an error. */
static int seize(pid_t tid)
{
	int status;

	if (ptrace(PTRACE_SEIZE, tid, NULL, (void *)(long)PTRACE_O_TRACECLONE)) {
		if (errno == ESRCH)
			return 0;
		return hwt_error(errno == EPERM ? HWT_ERR_PERM : HWT_ERR_IO,
				 "cannot attach to thread %d: %s%s", (int)tid,
				 strerror(errno), errno == EPERM ? " (check "
				 "/proc/sys/kernel/yama/ptrace_scope: 0 lets a "
				 "process trace any of its user's, or run as "
				 "root)" : "");
	}
	if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL))
		return errno == ESRCH ? 0 : hwt_error(HWT_ERR_IO,
				"ptrace(INTERRUPT) of thread %d: %s", (int)tid,
				strerror(errno));
	for (;;) {
		if (waitpid(tid, &status, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECHILD ? 0 : hwt_error(HWT_ERR_IO,
					"waitpid(%d): %s", (int)tid, strerror(errno));
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			return 0;
		if (status >> 16 == PTRACE_EVENT_STOP)
			return 1;
		/* A signal came first: it is delivered, and the interrupt
		 * stop follows. */
		if (ptrace(PTRACE_CONT, tid, NULL,
			   (void *)(long)WSTOPSIG(status)))
			return errno == ESRCH ? 0 : hwt_error(HWT_ERR_IO,
					"ptrace(CONT) of thread %d: %s", (int)tid,
					strerror(errno));
	}
}

/* One pass over /proc/PID/task, seizing the threads not listed yet;
 * *added says whether there were any. */
static int attach_pass(pid_t pid, pid_t **tids, size_t *n, bool *added)
{
	char path[64];
	struct dirent *d;
	int err = 0;

	*added = false;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *dir = opendir(path);
	if (!dir)
		return hwt_error(HWT_ERR_NOENT, "no process %d to attach to "
				 "(%s: %s)", (int)pid, path, strerror(errno));
	while (!err && (d = readdir(dir))) {
		pid_t tid = (pid_t)atoi(d->d_name);
		if (tid <= 0 || listed(*tids, *n, tid))
			continue;
		int r = seize(tid);
		if (r <= 0) {
			err = r;
			continue;
		}
		pid_t *v = realloc(*tids, (*n + 1) * sizeof(**tids));
		if (!v) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
			break;
		}
		*tids = v;
		(*tids)[(*n)++] = tid;
		*added = true;
	}
	closedir(dir);
	return err;
}

int hwt_swb_attach(pid_t pid, pid_t tid, pid_t **tids, size_t *n)
{
	bool added = true;
	int err = 0;

	*tids = NULL;
	*n = 0;
	if (tid) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
		if (access(path, F_OK))
			return hwt_error(HWT_ERR_NOENT, "no thread %d in process %d "
					 "to attach to", (int)tid, (int)pid);
		int r = seize(tid);
		if (r <= 0)
			return r ? r : hwt_error(HWT_ERR_NOENT, "thread %d ended "
						 "before it could be attached",
						 (int)tid);
		if (!(*tids = malloc(sizeof(**tids))))
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
		(*tids)[(*n)++] = tid;
		return 0;
	}
	/* Threads started while the others were being stopped show up in a
	 * later pass; once a pass finds none, every thread is stopped. */
	while (!err && added)
		err = attach_pass(pid, tids, n, &added);
	if (!err && !*n)
		err = hwt_error(HWT_ERR_NOENT, "process %d ended before it could "
				"be attached", (int)pid);
	return err;
}
