/* The one opener of input files (hwtrace/infile.h): a regular file opens
 * with blocking reads; a directory, a device and a FIFO are refused with
 * what they are, without blocking; a FIFO is taken where a stream is
 * meant once its writer comes, and refused after the wait when none does
 * (the wait is 10 s: that part runs once); a probe leaves the last
 * message alone. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

static char dir[] = "/tmp/hwt-infile-test.XXXXXX";
static char path[256], fifo[256];

static void regular_file_opens_blocking(void)
{
	FILE *f = fopen(path, "w");
	fputs("bytes", f);
	fclose(f);
	int fd = hwt_infile_open(path, "--map", 0);
	CHECK(fd >= 0);
	CHECK_INT(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	char buf[8] = "";
	CHECK_INT(read(fd, buf, sizeof(buf)), 5);
	close(fd);
	FILE *g = NULL;
	CHECK_INT(hwt_infile_fopen(path, "profile", 0, &g), 0);
	CHECK(g && fgets(buf, sizeof(buf), g) && !strcmp(buf, "bytes"));
	if (g)
		fclose(g);
	CHECK_INT(hwt_infile_check(path, NULL, 0), 0);
}

static void non_files_are_named(void)
{
	char want[512];
	CHECK_INT(hwt_infile_open(dir, "--map", 0), HWT_ERR_CONFIG);
	snprintf(want, sizeof(want), "--map %s is a directory, not a regular file", dir);
	CHECK_STR(hwt_errmsg(), want);
	CHECK_INT(hwt_infile_open("/dev/null", NULL, 0), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "/dev/null is a character device, not a regular file");
	/* No writer, and no waiting: the open does not block. */
	time_t t0 = time(NULL);
	CHECK_INT(hwt_infile_open(fifo, "trace file", 0), HWT_ERR_CONFIG);
	CHECK(time(NULL) - t0 < 3);
	snprintf(want, sizeof(want), "trace file %s is a FIFO, not a regular file", fifo);
	CHECK_STR(hwt_errmsg(), want);
	CHECK_INT(hwt_infile_open("/nonexistent/x", "profile", 0), HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "profile /nonexistent/x does not exist");
}

static void *writer(void *arg)
{
	(void)arg;
	usleep(300 * 1000);
	int fd = open(fifo, O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, "pipe", 4);
		close(fd);
	}
	return NULL;
}

static void fifo_is_a_stream_where_meant(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	int fd = hwt_infile_open(fifo, NULL, HWT_INFILE_PIPE);
	CHECK(fd >= 0);
	char buf[8] = "";
	if (fd >= 0) {
		CHECK_INT(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
		CHECK_INT(read(fd, buf, sizeof(buf)), 4);
		close(fd);
	}
	pthread_join(t, NULL);
	CHECK(!memcmp(buf, "pipe", 4));

	time_t t0 = time(NULL);
	CHECK_INT(hwt_infile_open(fifo, NULL, HWT_INFILE_PIPE), HWT_ERR_IO);
	time_t took = time(NULL) - t0;
	CHECK(took >= HWT_INFILE_PIPE_WAIT_MS / 1000 - 1 &&
	      took <= HWT_INFILE_PIPE_WAIT_MS / 1000 + 3);
	CHECK_CONTAINS(hwt_errmsg(), "a FIFO with no writer (no data in 10 s)");
}

static void probe_keeps_the_last_message(void)
{
	hwt_error(HWT_ERR_FORMAT, "the decode's own failure");
	CHECK_INT(hwt_infile_check("/nonexistent/x", NULL, HWT_INFILE_QUIET),
		  HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "the decode's own failure");
	hwt_error_clear();
	CHECK_INT(hwt_infile_check(fifo, NULL, HWT_INFILE_QUIET), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "");
}

/* A whole file into memory: every byte, across the reads that grow the
 * buffer (64 KiB, then doubled); an empty file is 0 bytes; a directory
 * is refused naming what it is for. */
static void whole_file_reads(void)
{
	enum { SIZE = 200003 };
	uint8_t *want = malloc(SIZE), *got = NULL;
	size_t len = 1;
	char msg[512];
	FILE *f = fopen(path, "w");
	for (size_t i = 0; want && i < SIZE; i++)
		want[i] = (uint8_t)(i * 7 + i / 251);
	CHECK(want && f && fwrite(want, 1, SIZE, f) == SIZE);
	if (f)
		fclose(f);
	CHECK_INT(hwt_infile_read_all(path, "--emulate-trace", &got, &len), 0);
	CHECK_U64(len, SIZE);
	CHECK(got && want && memcmp(got, want, SIZE) == 0);
	free(got);
	free(want);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	got = NULL;
	CHECK_INT(hwt_infile_read_all(path, "--emulate-trace", &got, &len), 0);
	CHECK_U64(len, 0);
	free(got);
	CHECK_INT(hwt_infile_read_all(dir, "--emulate-trace", &got, &len),
		  HWT_ERR_CONFIG);
	CHECK(got == NULL);
	snprintf(msg, sizeof(msg), "--emulate-trace %s is a directory, not a "
		 "regular file", dir);
	CHECK_STR(hwt_errmsg(), msg);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/file", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	if (mkfifo(fifo, 0600))
		return 1;
	RUN(regular_file_opens_blocking);
	RUN(non_files_are_named);
	RUN(whole_file_reads);
	RUN(fifo_is_a_stream_where_meant);
	RUN(probe_keeps_the_last_message);
	unlink(path);
	unlink(fifo);
	rmdir(dir);
	return hwt_test_summary();
}
