/* The control FIFO: perf record's commands, one per line (or one without a
 * newline, as perf accepts), each acknowledged with "ack\n". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

static char dir[64], ctl[128], ack[128];

static void put(const char *text)
{
	int fd = open(ctl, O_WRONLY | O_NONBLOCK);

	CHECK(fd >= 0);
	CHECK_INT(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
}

static void test_commands_and_acks(void)
{
	struct hwt_control *c = NULL;
	char buf[300] = {0};
	int afd;

	CHECK_INT(mkfifo(ctl, 0600), 0);
	CHECK_INT(mkfifo(ack, 0600), 0);
	snprintf(buf, sizeof(buf), "fifo:%s,%s", ctl, ack);
	CHECK_INT(hwt_control_open(buf, &c), 0);
	if (!c)
		return;
	afd = open(ack, O_RDONLY | O_NONBLOCK);
	CHECK_INT(hwt_control_read(c), HWT_CTL_NONE);
	put("snapshot\nenable\ndis");
	CHECK_INT(hwt_control_read(c), HWT_CTL_SNAPSHOT);
	CHECK_INT(hwt_control_ack(c), 0);
	CHECK_INT(hwt_control_read(c), HWT_CTL_ENABLE);
	/* Half a line: nothing yet. */
	CHECK_INT(hwt_control_read(c), HWT_CTL_NONE);
	put("able\nbogus\nstop");
	CHECK_INT(hwt_control_read(c), HWT_CTL_DISABLE);
	CHECK_INT(hwt_control_read(c), HWT_CTL_UNKNOWN);
	CHECK_INT(hwt_control_read(c), HWT_CTL_STOP);
	CHECK_INT(hwt_control_read(c), HWT_CTL_NONE);
	/* The newline of a command taken bare is not a command. */
	put("\nsnapshot\n");
	CHECK_INT(hwt_control_read(c), HWT_CTL_SNAPSHOT);
	CHECK_INT(hwt_control_read(c), HWT_CTL_NONE);
	memset(buf, 0, sizeof(buf));
	CHECK_INT(read(afd, buf, sizeof(buf) - 1), 4);
	CHECK_STR(buf, "ack\n");
	close(afd);
	hwt_control_free(c);
}

static void test_bad_specs(void)
{
	struct hwt_control *c = NULL;
	char spec[160];

	CHECK_INT(hwt_control_open("fd:3,4", &c), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "expected fifo:CTL[,ACK]");
	snprintf(spec, sizeof(spec), "fifo:%s/missing", dir);
	CHECK_INT(hwt_control_open(spec, &c), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "missing");
	CHECK_CONTAINS(hwt_errmsg(), "mkfifo");
	CHECK(c == NULL);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hwt-ctl-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(ctl, sizeof(ctl), "%s/ctl", dir);
	snprintf(ack, sizeof(ack), "%s/ack", dir);
	RUN(test_commands_and_acks);
	RUN(test_bad_specs);
	unlink(ctl);
	unlink(ack);
	rmdir(dir);
	return hwt_test_summary();
}
