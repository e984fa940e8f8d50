/* The control FIFO: perf record's --control fifo:CTL[,ACK] protocol. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/session.h"

struct hwt_control {
	int fd, ack_fd;
	char buf[256];
	size_t len;
};

int hwt_control_open(const char *spec, struct hwt_control **out)
{
	char ctl[4096], *ack;
	struct hwt_control *c;

	*out = NULL;
	if (strncmp(spec, "fifo:", 5) || !spec[5])
		return hwt_error(HWT_ERR_CONFIG,
				 "--control %s: expected fifo:CTL[,ACK]", spec);
	snprintf(ctl, sizeof(ctl), "%s", spec + 5);
	ack = strchr(ctl, ',');
	if (ack)
		*ack++ = '\0';
	c = calloc(1, sizeof(*c));
	if (!c)
		return hwt_error(HWT_ERR_NOMEM, "no memory for the control FIFO");
	c->ack_fd = -1;
	/* Read-write, so the FIFO never reports EOF between writers. */
	c->fd = open(ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0) {
		int e = errno;
		free(c);
		return hwt_error(e == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
				 "control FIFO %s: %s (create it with mkfifo)", ctl,
				 strerror(e));
	}
	if (ack && *ack) {
		c->ack_fd = open(ack, O_RDWR | O_CLOEXEC);
		if (c->ack_fd < 0) {
			int e = errno;
			close(c->fd);
			free(c);
			return hwt_error(e == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
					 "control ack FIFO %s: %s", ack, strerror(e));
		}
	}
	*out = c;
	return 0;
}

int hwt_control_fd(const struct hwt_control *c)
{
	return c->fd;
}

static enum hwt_control_cmd parse(const char *line)
{
	if (!strcmp(line, "snapshot"))
		return HWT_CTL_SNAPSHOT;
	if (!strcmp(line, "enable"))
		return HWT_CTL_ENABLE;
	if (!strcmp(line, "disable"))
		return HWT_CTL_DISABLE;
	if (!strcmp(line, "stop"))
		return HWT_CTL_STOP;
	return HWT_CTL_UNKNOWN;
}

enum hwt_control_cmd hwt_control_read(struct hwt_control *c)
{
	char *nl;

	for (;;) {
		nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			enum hwt_control_cmd cmd;
			bool empty;
			size_t used = (size_t)(nl - c->buf) + 1;
			*nl = '\0';
			/* perf's clients may send a trailing NUL too. */
			cmd = parse(c->buf[0] == '\0' && c->len > 1 ? c->buf + 1 : c->buf);
			empty = c->buf[0] == '\0' && used <= 2;
			memmove(c->buf, c->buf + used, c->len - used);
			c->len -= used;
			if (empty)
				continue; /* a newline after a bare command */
			return cmd;
		}
		if (c->len == sizeof(c->buf))
			c->len = 0; /* a line that long is not a command */
		ssize_t n = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n <= 0) {
			/* perf also takes a command without a newline. */
			if (c->len && memchr(c->buf, '\0', c->len) == NULL &&
			    c->len < sizeof(c->buf)) {
				c->buf[c->len] = '\0';
				enum hwt_control_cmd cmd = parse(c->buf);
				if (cmd != HWT_CTL_UNKNOWN) {
					c->len = 0;
					return cmd;
				}
			}
			return HWT_CTL_NONE;
		}
		c->len += (size_t)n;
	}
}

int hwt_control_ack(struct hwt_control *c)
{
	if (c->ack_fd < 0)
		return 0;
	if (write(c->ack_fd, "ack\n", 4) != 4)
		return hwt_error(HWT_ERR_IO, "control ack FIFO: %s", strerror(errno));
	return 0;
}

void hwt_control_free(struct hwt_control *c)
{
	if (!c)
		return;
	close(c->fd);
	if (c->ack_fd >= 0)
		close(c->ack_fd);
	free(c);
}
