/* The one opener of input files (hwtrace/infile.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/os/os_file_kind.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/outfile.h"

/* "WHAT PATH", or PATH alone when @what is empty, for the messages. */
static const char *named(char *buf, size_t size, const char *what,
			 const char *path)
{
	snprintf(buf, size, "%s%s%s", what ? what : "", what && *what ? " " : "",
		 path);
	return buf;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A FIFO opened without blocking reports nothing to poll until a writer
 * has connected and written (or connected and gone: POLLHUP, the end of
 * the stream), so the wait is bounded here instead of in open(2). */
static int wait_writer(int fd, const char *name)
{
	int64_t deadline = now_ms() + HWT_INFILE_PIPE_WAIT_MS;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int64_t left = deadline - now_ms();
		int n = poll(&p, 1, left > 0 ? (int)left : 0);
		if (n > 0)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return hwt_error(HWT_ERR_IO, "%s: poll: %s", name,
					 strerror(errno));
		return hwt_error(HWT_ERR_IO, "%s: a FIFO with no writer (no "
				 "data in %d s): start the program that writes "
				 "it first, or give a file",
				 name, HWT_INFILE_PIPE_WAIT_MS / 1000);
	}
}

static int infile_open(const char *path, const char *what, unsigned int flags)
{
	char name[4096 + 64];
	named(name, sizeof(name), what, path);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int err = errno;
		if (err == ENOENT || err == ENOTDIR)
			return hwt_error(HWT_ERR_NOENT, "%s does not exist", name);
		return hwt_error(err == EACCES || err == EPERM ? HWT_ERR_PERM
							       : HWT_ERR_IO,
				 "%s: %s", name, strerror(err));
	}
	struct stat st;
	if (fstat(fd, &st)) {
		int err = errno;
		close(fd);
		return hwt_error(HWT_ERR_IO, "%s: %s", name, strerror(err));
	}
	bool pipe_ok = (flags & HWT_INFILE_PIPE) && S_ISFIFO(st.st_mode);
	if (!S_ISREG(st.st_mode) && !pipe_ok) {
		close(fd);
		return hwt_error(HWT_ERR_CONFIG, "%s is %s, not a regular file",
				 name, hwt_os_file_kind(st.st_mode));
	}
	int err = pipe_ok ? wait_writer(fd, name) : 0;
	if (!err && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		err = hwt_error(HWT_ERR_IO, "%s: fcntl: %s", name,
				strerror(errno));
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* Every input opened is remembered (when the program asked for it,
 * outfile.h), so that no output can replace it. */
static int infile_open_noted(const char *path, const char *what,
			     unsigned int flags)
{
	int fd = infile_open(path, what, flags);
	if (fd >= 0)
		hwt_outfile_note_input_fd(fd, path);
	return fd;
}

int hwt_infile_open(const char *path, const char *what, unsigned int flags)
{
	if (!(flags & HWT_INFILE_QUIET))
		return infile_open_noted(path, what, flags);
	/* A probe leaves the last message as it was: it may be the one a
	 * failing command is about to print. */
	char keep[2048];
	snprintf(keep, sizeof(keep), "%s", hwt_errmsg());
	int fd = infile_open_noted(path, what, flags);
	if (fd < 0 && keep[0])
		hwt_error(fd, "%s", keep);
	else if (fd < 0)
		hwt_error_clear();
	return fd;
}

int hwt_infile_fopen(const char *path, const char *what, unsigned int flags,
		     FILE **out)
{
	*out = NULL;
	int fd = hwt_infile_open(path, what, flags);
	if (fd < 0)
		return fd;
	*out = fdopen(fd, "r");
	if (!*out) {
		close(fd);
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", path);
	}
	return 0;
}

int hwt_infile_check(const char *path, const char *what, unsigned int flags)
{
	int fd = hwt_infile_open(path, what, flags);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
