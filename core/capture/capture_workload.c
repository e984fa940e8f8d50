#define _GNU_SOURCE
/* The workload: forked stopped so its events can be opened with
 * enable_on_exec before it runs, as perf does. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/session.h"

struct hwt_workload {
	pid_t pid;
	int go_fd;     /* write end: a byte lets the child exec */
	int err_fd;    /* read end: the child's errno if exec failed */
	bool reaped;
	char prog[256];
};

int hwt_workload_new(char *const argv[], struct hwt_workload **out)
{
	int go[2], errp[2];
	struct hwt_workload *w;

	*out = NULL;
	if (!argv || !argv[0])
		return hwt_error(HWT_ERR_INVAL, "workload: no command");
	w = calloc(1, sizeof(*w));
	if (!w)
		return hwt_error(HWT_ERR_NOMEM, "no memory for the workload");
	snprintf(w->prog, sizeof(w->prog), "%s", argv[0]);
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		free(w);
		return hwt_error(HWT_ERR_IO, "workload: pipe: %s", strerror(errno));
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		close(errp[0]);
		close(errp[1]);
		free(w);
		return hwt_error(HWT_ERR_IO, "workload: fork: %s", strerror(e));
	}
	if (w->pid == 0) {
		char c;
		close(go[1]);
		close(errp[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		c = (char)errno;
		if (write(errp[1], &c, 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(errp[1]);
	w->go_fd = go[1];
	w->err_fd = errp[0];
	*out = w;
	return 0;
}

pid_t hwt_workload_pid(const struct hwt_workload *w)
{
	return w->pid;
}

int hwt_workload_start(struct hwt_workload *w)
{
	char c = 1;
	ssize_t n;

	if (write(w->go_fd, &c, 1) != 1)
		return hwt_error(HWT_ERR_IO, "workload %s: could not start it: %s",
				 w->prog, strerror(errno));
	close(w->go_fd);
	w->go_fd = -1;
	/* EOF (exec closed the pipe) means it runs. */
	n = read(w->err_fd, &c, 1);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == 1)
		return hwt_error(HWT_ERR_NOENT, "cannot run %s: %s", w->prog,
				 strerror((unsigned char)c));
	return 0;
}

int hwt_workload_poll(struct hwt_workload *w, int *status)
{
	pid_t r;

	if (w->reaped)
		return 1;
	r = waitpid(w->pid, status, WNOHANG);
	if (r < 0)
		return hwt_error(HWT_ERR_IO, "waitpid %d: %s", (int)w->pid,
				 strerror(errno));
	if (r == 0)
		return 0;
	w->reaped = true;
	return 1;
}

void hwt_workload_free(struct hwt_workload *w)
{
	int status;

	if (!w)
		return;
	bool started = w->go_fd < 0;
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	if (!w->reaped) {
		/* As perf record: the command gets SIGTERM, so it can end
		 * cleanly; one that has not ended in the grace time is
		 * killed. */
		pid_t r = 0;
		kill(w->pid, started ? SIGTERM : SIGKILL);
		for (int i = 0; started && i < HWT_TERM_GRACE_MS / 10 &&
				(r = waitpid(w->pid, &status, WNOHANG)) == 0; i++)
			usleep(10000);
		if (r <= 0) {
			kill(w->pid, SIGKILL);
			waitpid(w->pid, &status, 0);
		}
	}
	free(w);
}
