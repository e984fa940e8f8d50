/* A record session on the kernel emulator where one call of the OS seam
 * fails: every call in turn, with ENOMEM, EINTR, EIO and ENOSPC. Each run
 * ends either with an error that has a message, the output path left as
 * it was and no temporary file behind, or with success and a file that
 * reads back with every trace byte the emulated hardware produced.
 *
 * Then the disk fills up at each of the writer's writes in turn (pwrite
 * is interposed: from that write on, nothing may grow the file), with an
 * older file at the output path: it is kept byte for byte; with
 * hwt_pd_writer_keep_partial it is replaced by the capture cut short,
 * which says so; with no older file the capture cut short is kept,
 * marked, whenever its header made it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/session.h"

#define PMU_TYPE 47
#define TRACE_BYTES (96 * 1024)

/* The emulator's OS, with call number fail_at (from 1) answered -err. */
struct faulty {
	const struct hwt_os *inner;
	long calls, fail_at;
	int err;
	bool failed;
};

static bool fail_now(struct faulty *f)
{
	if (++f->calls != f->fail_at)
		return false;
	f->failed = true;
	return true;
}

#define INNER(f) ((f)->inner->ops)
#define CTX(f) ((f)->inner->ctx)

static int f_sysfs_read(void *ctx, const char *path, char *buf, size_t size)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->sysfs_read(CTX(f), path, buf, size);
}

static int f_procfs_read(void *ctx, const char *path, char *buf, size_t size)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->procfs_read(CTX(f), path, buf, size);
}

static int f_sysfs_list(void *ctx, const char *path, hwt_dir_cb cb, void *arg)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->sysfs_list(CTX(f), path, cb, arg);
}

static int f_open(void *ctx, struct perf_event_attr *attr, int pid, int cpu,
		  int group_fd, unsigned long flags)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->perf_event_open(CTX(f), attr, pid,
								  cpu, group_fd, flags);
}

static int f_mmap(void *ctx, int fd, size_t len, int prot, uint64_t off,
		  void **addr)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->mmap(CTX(f), fd, len, prot, off, addr);
}

/* A failed munmap or close still releases the resource, as the kernel's
 * do (close(2): the descriptor is gone even when it reports an error). */
static int f_munmap(void *ctx, void *addr, size_t len)
{
	struct faulty *f = ctx;
	bool fail = fail_now(f);
	int r = INNER(f)->munmap(CTX(f), addr, len);
	return fail ? -f->err : r;
}

static int f_close(void *ctx, int fd)
{
	struct faulty *f = ctx;
	bool fail = fail_now(f);
	int r = INNER(f)->close(CTX(f), fd);
	return fail ? -f->err : r;
}

static int f_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->ioctl(CTX(f), fd, req, arg);
}

static int f_poll(void *ctx, struct pollfd *fds, unsigned int n, int timeout)
{
	struct faulty *f = ctx;
	return fail_now(f) ? -f->err : INNER(f)->poll(CTX(f), fds, n, timeout);
}

static const struct hwt_os_ops faulty_ops = {
	.size = sizeof(struct hwt_os_ops),
	.sysfs_read = f_sysfs_read,
	.procfs_read = f_procfs_read,
	.sysfs_list = f_sysfs_list,
	.perf_event_open = f_open,
	.mmap = f_mmap,
	.munmap = f_munmap,
	.ioctl = f_ioctl,
	.poll = f_poll,
	.close = f_close,
};

/* The full disk: once pwrite call number disk_full_at (from 1) is
 * reached, a write may fill what the file holds already but not grow it
 * (short writes, then ENOSPC), as on a file system with no free block. */
static long pwrite_calls, disk_full_at;
static bool disk_was_full; /* a write of the run got ENOSPC */

static ssize_t real_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	static ssize_t (*next)(int, const void *, size_t, off_t);
	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "pwrite");
	return next(fd, buf, len, off);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	struct stat st;

	if (++pwrite_calls < disk_full_at || !disk_full_at || fstat(fd, &st) ||
	    (uint64_t)off + len <= (uint64_t)st.st_size)
		return real_pwrite(fd, buf, len, off);
	disk_was_full = true;
	if (off < st.st_size)
		return real_pwrite(fd, buf, (size_t)(st.st_size - off), off);
	errno = ENOSPC;
	return -1;
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

static uint8_t trace[TRACE_BYTES];
static char dir[] = "/tmp/hwt-faults-XXXXXX";
static char out_path[256];
static const char old_content[] = "a capture made before\n";

/* One record session as hwtrace record runs it: events opened, their
 * attributes written, the rings read until the trace unit is done,
 * stopped; the file kept on success, discarded on error. */
static int record_once(struct faulty *f, bool keep_partial)
{
	static const int cpu0[] = {0};
	struct hwt_emu_opts eo = {.size = sizeof(eo), .paced = true};
	struct hwt_emu *emu = NULL;
	struct hwt_pd_writer *w = NULL;
	struct hwt_writer_sink *ws = NULL;
	struct hwt_session *s = NULL;
	int ret;

	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_pt", PMU_TYPE), 0);
	CHECK_INT(hwt_emu_stream_aux(emu, 0, trace, sizeof(trace), 1), 0);
	f->inner = hwt_emu_os(emu);
	struct hwt_os os = {&faulty_ops, f};

	if ((ret = hwt_pd_writer_open(out_path, &w)) < 0)
		goto out;
	hwt_pd_writer_keep_partial(w, keep_partial);
	if ((ret = hwt_writer_sink_new(w, false, &ws)) < 0)
		goto out;
	struct hwt_session_opts so;
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.os = &os;
	so.aux = true;
	so.aux_attr.type = PMU_TYPE;
	so.aux_attr.size = sizeof(so.aux_attr);
	so.aux_attr.aux_watermark = 4096;
	so.cpus = cpu0;
	so.ncpus = 1;
	so.pid = -1;
	so.data_pages = 4;
	so.aux_pages = 4;
	so.sink = hwt_writer_sink_get(ws);
	if ((ret = hwt_session_new(&so, &s)) < 0 || (ret = hwt_session_open(s)) < 0)
		goto out;
	const struct perf_event_attr *a;
	const uint64_t *ids;
	size_t nids;
	const char *name;
	for (size_t i = 0; ret >= 0 &&
			   hwt_session_attr(s, i, &a, &ids, &nids, &name) == 0; i++)
		ret = hwt_pd_writer_add_attr(w, a, ids, nids, name);
	for (int guard = 0; ret == 0 && guard < 100000; guard++)
		ret = hwt_session_poll(s, 5, NULL, 0);
	if (ret == 1)
		ret = 0;
	else if (ret == 0)
		ret = hwt_error(HWT_ERR_IO, "the capture did not end");
	if (ret == 0)
		ret = hwt_session_stop(s);
out:
	hwt_session_free(s);
	/* As hwtrace record: a full disk ends the capture, which the writer
	 * keeps or not; any other failure discards it. */
	if (ret < 0 && ret != HWT_ERR_NOSPC) {
		hwt_pd_writer_discard(w);
	} else {
		ret = hwt_pd_writer_close(w);
	}
	hwt_writer_sink_free(ws);
	hwt_emu_free(emu);
	return ret;
}

static int files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

/* The AUX bytes of the file at out_path; -1 when it does not read.
 * @cut_short (may be NULL): whether the file says it was cut short. */
static long long aux_bytes_in_file_cut(bool *cut_short)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_aux_queues *q = NULL;
	long long total = -1;

	if (hwt_pd_reader_open(out_path, &r) < 0)
		return -1;
	if (cut_short)
		*cut_short = hwt_pd_reader_cut_short(r);
	if (hwt_pd_aux_queues_build(r, &q) == 0) {
		total = 0;
		for (size_t i = 0; i < hwt_pd_aux_queues_count(q); i++)
			total += (long long)hwt_pd_aux_queues_get(q, i)->bytes;
	}
	hwt_pd_aux_queues_free(q);
	hwt_pd_reader_free(r);
	return total;
}

static long long aux_bytes_in_file(void)
{
	return aux_bytes_in_file_cut(NULL);
}

static void write_old(void)
{
	FILE *f = fopen(out_path, "w");
	fputs(old_content, f);
	fclose(f);
}

static bool old_intact(void)
{
	char buf[128] = {0};
	FILE *f = fopen(out_path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	return n == strlen(old_content) && !strcmp(buf, old_content);
}

/* A run of the clean session with the disk full from pwrite call @k:
 * what hwt_pd_writer_close returned (its message in full_msg), and
 * whether the file at out_path then says it was cut short (false when
 * it does not read). */
static char full_msg[1024];

static int record_full_disk(long k, bool keep_partial, bool *cut)
{
	struct faulty none = {0};

	pwrite_calls = 0;
	disk_full_at = k;
	disk_was_full = false;
	hwt_error_clear();
	int ret = record_once(&none, keep_partial);
	snprintf(full_msg, sizeof(full_msg), "%s", hwt_errmsg());
	disk_full_at = 0;
	*cut = false;
	aux_bytes_in_file_cut(cut);
	return ret;
}

static void full_disk_at_every_write(void)
{
	struct faulty clean = {0};
	bool cut;

	unlink(out_path);
	pwrite_calls = 0;
	CHECK_INT(record_once(&clean, false), 0);
	long nwrites = pwrite_calls;
	CHECK(nwrites > 3);
	CHECK_INT(aux_bytes_in_file_cut(&cut), TRACE_BYTES);
	CHECK(!cut);
	long kept = 0, marked = 0, full_runs = 0;
	for (long k = 1; k <= nwrites; k++) {
		/* The file that was there stays, byte for byte. */
		write_old();
		int ret = record_full_disk(k, false, &cut);
		if (!disk_was_full) {
			/* Write k rewrote bytes the file had (the final
			 * header): no new space needed, and nothing lost. */
			if (ret != 0 || aux_bytes_in_file() != TRACE_BYTES || cut)
				HWT_FAIL("write %ld needed no space, yet: %d (%s), "
					 "%lld trace bytes, cut short %d", k, ret,
					 full_msg, aux_bytes_in_file(), cut);
			hwt_test_checks++;
			continue;
		}
		full_runs++;
		if (ret != HWT_ERR_NOSPC || !old_intact())
			HWT_FAIL("full disk at write %ld of %ld: %d (%s), the "
				 "older file %s", k, nwrites, ret, full_msg,
				 old_intact() ? "kept" : "changed");
		if (!strstr(full_msg, "kept as it was"))
			HWT_FAIL("full disk at write %ld: the message does not "
				 "say the older file was kept: %s", k, full_msg);
		if (files_in_dir() != 1)
			HWT_FAIL("full disk at write %ld: %d files in %s", k,
				 files_in_dir(), dir);
		/* Asked for: the capture cut short replaces it, marked (or,
		 * when not even its header fitted, the older file stays). */
		write_old();
		ret = record_full_disk(k, true, &cut);
		long long got = aux_bytes_in_file();
		if (ret != HWT_ERR_NOSPC || (!cut && !old_intact()) ||
		    (cut && (got < 0 || got > TRACE_BYTES)) ||
		    (cut && !strstr(full_msg, "marked as cut short")))
			HWT_FAIL("full disk at write %ld, partial kept: %d (%s), "
				 "cut short %d, %lld trace bytes", k, ret,
				 full_msg, cut, got);
		kept += cut;
		/* No older file: the capture cut short is kept, marked. */
		unlink(out_path);
		ret = record_full_disk(k, false, &cut);
		if (ret != HWT_ERR_NOSPC ||
		    (access(out_path, F_OK) == 0) != cut)
			HWT_FAIL("full disk at write %ld, new file: %d (%s), "
				 "file %s, cut short %d", k, ret, full_msg,
				 access(out_path, F_OK) ? "absent" : "present",
				 cut);
		marked += cut;
		if (files_in_dir() != (cut ? 1 : 0))
			HWT_FAIL("full disk at write %ld, new file: %d files in "
				 "%s", k, files_in_dir(), dir);
		hwt_test_checks += 5;
	}
	printf("%ld writes per capture, %ld of which ran out of space when the "
	       "disk was full from them on: the older file kept every time, "
	       "the capture cut short kept (marked) %ld times when asked and "
	       "%ld times as a new file\n", nwrites, full_runs, kept, marked);
	/* Only the first write (the header) leaves nothing to keep. */
	CHECK(full_runs >= 3);
	CHECK_INT(kept, full_runs - 1);
	CHECK_INT(marked, full_runs - 1);
}

int main(void)
{
	static const int errs[] = {ENOMEM, EINTR, EIO, ENOSPC};

	for (size_t i = 0; i < sizeof(trace); i++)
		trace[i] = (uint8_t)(i * 131 + 7) | 1;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(out_path, sizeof(out_path), "%s/out.data", dir);

	/* Without a fault: the number of calls a session makes, and the
	 * whole trace in the file. */
	struct faulty clean = {0};
	write_old();
	CHECK_INT(record_once(&clean, false), 0);
	CHECK_INT(aux_bytes_in_file(), TRACE_BYTES);
	long ncalls = clean.calls;
	CHECK(ncalls > 10);

	long failed_runs = 0, ok_runs = 0;
	for (size_t e = 0; e < sizeof(errs) / sizeof(errs[0]); e++) {
		for (long k = 1; k <= ncalls; k++) {
			struct faulty f = {.fail_at = k, .err = errs[e]};
			write_old();
			hwt_error_clear();
			int ret = record_once(&f, false);
			if (getenv("HWT_FAULTS_VERBOSE"))
				printf("%s at call %ld: %d %s\n", strerror(errs[e]),
				       k, ret, ret < 0 ? hwt_errmsg() : "");
			if (ret < 0) {
				failed_runs++;
				if (!hwt_errmsg()[0])
					HWT_FAIL("errno %d at call %ld: error %d "
						 "without a message", errs[e], k, ret);
				if (!old_intact())
					HWT_FAIL("errno %d at call %ld: the output "
						 "was changed by a failed record",
						 errs[e], k);
			} else {
				ok_runs++;
				long long got = aux_bytes_in_file();
				if (got != TRACE_BYTES)
					HWT_FAIL("errno %d at call %ld: success, but "
						 "the file holds %lld of %d trace "
						 "bytes", errs[e], k, got,
						 TRACE_BYTES);
			}
			if (files_in_dir() != 1)
				HWT_FAIL("errno %d at call %ld: %d files in %s, "
					 "want only the output", errs[e], k,
					 files_in_dir(), dir);
			hwt_test_checks += 3;
		}
	}
	printf("%ld calls per session; %ld runs ended with an error, %ld "
	       "succeeded\n", ncalls, failed_runs, ok_runs);
	CHECK(failed_runs > 0);
	full_disk_at_every_write();
	unlink(out_path);
	rmdir(dir);
	return hwt_test_summary();
}
