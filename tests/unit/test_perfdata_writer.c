/* The writer: what it writes reads back field for field in perf's layouts,
 * a capture that dies without closing still reads up to its last flush,
 * and a full disk ends the capture with NOSPC, a message naming the file and
 * what was kept, and a file that still reads. */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

static char dir[64];

static void path_in(char *buf, size_t size, const char *dirname,
		    const char *name)
{
	snprintf(buf, size, "%s/%s", dirname, name);
}

static struct perf_event_attr dummy_attr(void)
{
	struct perf_event_attr a = {0};

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER;
	a.sample_id_all = 1;
	return a;
}

/* An ITRACE_START for pid/tid @n at time @n on cpu 1, id 5, as the kernel
 * lays it out: header, pid, tid, then the sample_id trailer. */
static void itrace_start(uint8_t rec[48], uint32_t n)
{
	memset(rec, 0, 48);
	rec[0] = PERF_RECORD_ITRACE_START;
	rec[6] = 48;
	memcpy(rec + 8, &n, 4);
	memcpy(rec + 12, &n, 4);
	memcpy(rec + 16, &n, 4);
	memcpy(rec + 20, &n, 4);
	memcpy(rec + 24, &(uint64_t){n}, 8);
	rec[32] = 1;
	rec[40] = 5;
}

static void round_trip(void)
{
	char path[128];
	struct hwt_pd_writer *w = NULL;
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct perf_event_attr a = dummy_attr(), b = dummy_attr();
	uint64_t ids_a[] = {5, 6}, ids_b[] = {9};
	static const uint8_t bid[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3};
	struct hwt_pd_build_id got;
	struct hwt_pd_aux_queues *q = NULL;
	struct hwt_pd_auxtrace aux = {0};
	const char payload[] = "thirteen byte";
	uint8_t r48[48], buf[64];
	uint64_t aux_offset = 0, size;
	const void *data;
	uint32_t avail, online;
	char s[256];

	path_in(path, sizeof(path), dir, "rt.data");
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	b.type = 6;
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, ids_a, 2, "dummy:u"), 0);
	CHECK_INT(hwt_pd_writer_add_attr(w, &b, ids_b, 1, "intel_pt//"), 0);
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_HOSTNAME, "board7", 6), 0);
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CMDLINE,
					    "hwtrace\0record\0ls", 18), 0);
	CHECK_INT(hwt_pd_writer_set_nr_cpus(w, 8, 6), 0);
	CHECK_INT(hwt_pd_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, bid,
					     20, "/bin/ls"), 0);
	itrace_start(r48, 77);
	CHECK_INT(hwt_pd_writer_record(w, r48), 0);
	aux.size = 13;
	aux.offset = 0x1000;
	aux.reference = 0xabc;
	aux.idx = 2;
	aux.tid = 77;
	aux.cpu = 2;
	CHECK_INT(hwt_pd_writer_auxtrace(w, &aux, payload), 0);
	CHECK_INT(hwt_pd_writer_record(w, r48), 0);
	/* Too late for events; a record smaller than its header. */
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, ids_a, 2, "x"), HWT_ERR_INVAL);
	r48[6] = 4;
	CHECK_INT(hwt_pd_writer_record(w, r48), HWT_ERR_INVAL);
	CHECK_INT(hwt_pd_writer_close(w), 0);

	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_reader_nr_attrs(r), 2);
	CHECK_STR(hwt_pd_reader_attr(r, 0)->name, "dummy:u");
	CHECK_STR(hwt_pd_reader_attr(r, 1)->name, "intel_pt//");
	CHECK_INT(hwt_pd_reader_attr(r, 1)->attr.type, 6);
	CHECK_INT(hwt_pd_reader_attr(r, 0)->nids, 2);
	CHECK(hwt_pd_reader_attr_by_id(r, 9) == hwt_pd_reader_attr(r, 1));
	CHECK(hwt_pd_reader_attr_by_id(r, 6) == hwt_pd_reader_attr(r, 0));
	CHECK(hwt_pd_reader_attr_by_id(r, 7) == NULL);
	/* perf's do_write_string: u32 length padded to 64, then the bytes. */
	CHECK_INT(hwt_pd_reader_feature(r, HWT_PD_FEAT_HOSTNAME, &data, &size), 0);
	CHECK_U64(size, 4 + 64);
	CHECK_INT(*(const uint32_t *)data, 64);
	CHECK_STR((const char *)data + 4, "board7");
	CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HOSTNAME, s,
					       sizeof(s)), 0);
	CHECK_STR(s, "board7");
	/* Defaults from this machine for what was not set. */
	CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_ARCH, s, sizeof(s)), 0);
	CHECK(s[0] != '\0');
	CHECK_INT(hwt_pd_reader_cmdline(r, s, sizeof(s)), 0);
	CHECK_STR(s, "hwtrace record ls");
	CHECK_INT(hwt_pd_reader_nr_cpus(r, &avail, &online), 0);
	CHECK_INT(avail, 8);
	CHECK_INT(online, 6);
	CHECK_INT(hwt_pd_reader_build_id(r, 0, &got), 1);
	CHECK_INT(got.size, 20);
	CHECK(memcmp(got.id, bid, 20) == 0);
	CHECK_STR(got.filename, "/bin/ls");
	CHECK_INT(got.pid, -1);
	CHECK_INT(hwt_pd_reader_build_id(r, 1, &got), 0);

	CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
	CHECK_INT(rec.type, PERF_RECORD_ITRACE_START);
	CHECK_U64(rec.file_offset, hwt_pd_reader_header(r)->data_offset);
	CHECK_INT(rec.sid.tid, 77);
	CHECK_U64(rec.sid.time, 77);
	CHECK_INT(rec.sid.cpu, 1);
	CHECK_U64(rec.sid.id, 5);
	CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
	CHECK_INT(rec.type, HWT_PD_RECORD_AUXTRACE);
	/* The payload is padded to 8 bytes and the size says so. */
	CHECK_U64(rec.aux.size, 16);
	CHECK_U64(rec.aux.offset, 0x1000);
	CHECK_U64(rec.aux.reference, 0xabc);
	CHECK_INT(rec.aux.idx, 2);
	CHECK_INT(rec.aux.tid, 77);
	CHECK_INT(rec.aux.cpu, 2);
	CHECK(memcmp(rec.aux_data, "thirteen byte\0\0\0", 16) == 0);
	aux_offset = rec.file_offset;
	CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
	CHECK_U64(rec.file_offset, aux_offset + 48 + 16);
	CHECK_INT(hwt_pd_reader_next(r, &rec), 0);
	CHECK_U64(hwt_pd_reader_counts(r)[PERF_RECORD_ITRACE_START], 2);

	/* The auxtrace index: u64 count, then {offset, size of the record
	 * header} per buffer, as perf's auxtrace_index__write has it. */
	CHECK_INT(hwt_pd_reader_feature(r, HWT_PD_FEAT_AUXTRACE, &data, &size), 0);
	CHECK_U64(size, 8 + 16);
	memcpy(buf, data, 24);
	CHECK_U64(*(uint64_t *)buf, 1);
	CHECK_U64(*(uint64_t *)(buf + 8), aux_offset);
	CHECK_U64(*(uint64_t *)(buf + 16), 48);
	CHECK_INT(hwt_pd_aux_queues_build(r, &q), 0);
	if (q) {
		const struct hwt_pd_aux_queue *qu = hwt_pd_aux_queues_get(q, 0);

		CHECK(hwt_pd_aux_queues_from_index(q));
		CHECK_INT(hwt_pd_aux_queues_count(q), 1);
		CHECK_INT(qu->idx, 2);
		CHECK_INT(qu->cpu, 2);
		CHECK_U64(qu->buffers[0].data_offset, aux_offset + 48);
		CHECK_INT(hwt_pd_aux_buffer_read(r, &qu->buffers[0], buf), 0);
		CHECK(memcmp(buf, "thirteen byte", 13) == 0);
	}
	hwt_pd_aux_queues_free(q);
	hwt_pd_reader_free(r);
}

/* Big payloads bypass the buffer; many small records cross it. */
static void big_and_many(void)
{
	char path[128];
	struct hwt_pd_writer *w = NULL;
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct perf_event_attr a = dummy_attr();
	uint64_t id = 5;
	struct hwt_pd_auxtrace aux = {0};
	size_t big = 3 << 20, n = 0;
	uint8_t *payload = malloc(big), r48[48];
	int ret;

	for (size_t i = 0; i < big; i++)
		payload[i] = (uint8_t)(i * 7);
	path_in(path, sizeof(path), dir, "big.data");
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, &id, 1, "dummy"), 0);
	for (uint32_t i = 0; i < 20000; i++) {
		itrace_start(r48, i);
		CHECK_INT(hwt_pd_writer_record(w, r48), 0);
		if (i == 10000) {
			aux.size = big;
			aux.cpu = 1;
			aux.idx = 1;
			CHECK_INT(hwt_pd_writer_auxtrace(w, &aux, payload), 0);
		}
	}
	CHECK_U64(hwt_pd_writer_data_size(w), 20000 * 48 + 48 + big);
	CHECK_INT(hwt_pd_writer_close(w), 0);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	while ((ret = hwt_pd_reader_next(r, &rec)) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE) {
			CHECK_U64(rec.aux.size, big);
			CHECK(memcmp(rec.aux_data, payload, big) == 0);
		} else {
			CHECK_U64(rec.sid.time, n);
			n++;
		}
	}
	CHECK_INT(ret, 0);
	CHECK_INT(n, 20000);
	hwt_pd_reader_free(r);
	free(payload);
}

/* Counts the records of @path; *err gets the reader's final status. */
static size_t count_records(const char *path, int *err)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	size_t n = 0;

	*err = hwt_pd_reader_open(path, &r);
	if (*err)
		return 0;
	while ((*err = hwt_pd_reader_next(r, &rec)) > 0)
		n++;
	hwt_pd_reader_free(r);
	return n;
}

/* A writer killed without closing: the header describes the records up to
 * the last FINISHED_ROUND, so the file reads without error up to there,
 * in hwtrace and in perf. It is the temporary file beside the path
 * (killed.data.tmp.XXXXXX): the path itself was never created. */
static void killed_capture_still_reads(void)
{
	char path[128], final[128], cmd[400];
	int status, err;
	pid_t pid;
	glob_t g;

	path_in(final, sizeof(final), dir, "killed.data");
	pid = fork();
	if (pid == 0) {
		struct hwt_pd_writer *w;
		struct perf_event_attr a = dummy_attr();
		uint64_t id = 5;
		uint8_t r48[48], round[8] = {HWT_PD_RECORD_FINISHED_ROUND, 0, 0,
					     0, 0, 0, 8, 0};

		if (hwt_pd_writer_open(final, &w) ||
		    hwt_pd_writer_add_attr(w, &a, &id, 1, "dummy"))
			_exit(2);
		for (uint32_t i = 0; i < 30; i++) {
			itrace_start(r48, i);
			hwt_pd_writer_record(w, r48);
			if (i == 19)
				hwt_pd_writer_record(w, round);
		}
		raise(SIGKILL);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(access(final, F_OK) != 0);
	snprintf(cmd, sizeof(cmd), "%s.tmp.*", final);
	CHECK_INT(glob(cmd, 0, NULL, &g), 0);
	CHECK_INT(g.gl_pathc, 1);
	snprintf(path, sizeof(path), "%s", g.gl_pathc ? g.gl_pathv[0] : final);
	globfree(&g);
	/* 20 records and the round. */
	CHECK_INT(count_records(path, &err), 21);
	CHECK_INT(err, 0);
	snprintf(cmd, sizeof(cmd), "PERF_PAGER= /usr/bin/perf report --force -D --stdio "
		 "-i %s 2>&1 | grep -c 'PERF_RECORD_ITRACE_START pid'", path);
	{
		FILE *p = popen(cmd, "r");
		int n = -1;

		CHECK(p != NULL);
		if (p) {
			CHECK_INT(fscanf(p, "%d", &n), 1);
			pclose(p);
		}
		CHECK_INT(n, 20);
	}
}

/* Fills a 256 KiB tmpfs. Runs in a child with its own mount namespace, so
 * the mount vanishes with it; exits with the number of failed checks. */
static int fill_disk(const char *mnt)
{
	char path[128];
	struct hwt_pd_writer *w = NULL;
	struct perf_event_attr a = dummy_attr();
	uint64_t id = 5, kept;
	struct hwt_pd_auxtrace aux = {0};
	uint8_t payload[40000], r48[48];
	int err = 0, rerr;
	size_t n, i;

	memset(payload, 0x5a, sizeof(payload));
	path_in(path, sizeof(path), mnt, "full.data");
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return 1;
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, &id, 1, "dummy"), 0);
	for (i = 0; i < 100000 && !err; i++) {
		itrace_start(r48, (uint32_t)i);
		err = hwt_pd_writer_record(w, r48);
		if (!err && i % 3 == 0) {
			aux.size = sizeof(payload);
			err = hwt_pd_writer_auxtrace(w, &aux, payload);
		}
	}
	CHECK_INT(err, HWT_ERR_NOSPC);
	CHECK_CONTAINS(hwt_errmsg(), path);
	CHECK_CONTAINS(hwt_errmsg(), "no space left");
	CHECK_CONTAINS(hwt_errmsg(), "bytes of records kept");
	kept = hwt_pd_writer_data_size(w);
	CHECK(kept > 0);
	/* Later calls give the same error; close cannot add the features. */
	CHECK_INT(hwt_pd_writer_record(w, r48), HWT_ERR_NOSPC);
	CHECK_INT(hwt_pd_writer_close(w), HWT_ERR_NOSPC);
	n = count_records(path, &rerr);
	CHECK_INT(rerr, 0);
	CHECK(n > 0);
	{
		struct hwt_pd_reader *r = NULL;

		CHECK_INT(hwt_pd_reader_open(path, &r), 0);
		if (r) {
			struct stat st;

			CHECK_INT(stat(path, &st), 0);
			/* The records, then the cut-short feature's table
			 * entry when it fitted. */
			uint64_t end = hwt_pd_reader_header(r)->data_offset +
				       hwt_pd_reader_header(r)->data_size;
			CHECK((uint64_t)st.st_size == end ||
			      (uint64_t)st.st_size == end + 16);
			CHECK(hwt_pd_reader_cut_short(r));
			hwt_pd_reader_free(r);
		}
	}
	return hwt_test_failures;
}

static void full_disk_ends_capture_cleanly(void)
{
	char mnt[128];
	int status;
	pid_t pid;

	path_in(mnt, sizeof(mnt), dir, "small-fs");
	mkdir(mnt, 0700);
	pid = fork();
	if (pid == 0) {
		/* Root may mount in a private namespace; others may in a user
		 * namespace of their own where the kernel allows it. */
		if (unshare(CLONE_NEWNS) &&
		    unshare(CLONE_NEWUSER | CLONE_NEWNS))
			_exit(100);
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("tmpfs", mnt, "tmpfs", 0, "size=256k"))
			_exit(100);
		_exit(fill_disk(mnt) ? 1 : 0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 100) {
		/* The documented fallback: without a way to mount a small
		 * filesystem, /dev/full shows the error path only. */
		struct hwt_pd_writer *w = NULL;
		struct perf_event_attr a = dummy_attr();
		uint64_t id = 5;
		uint8_t r48[48];

		fprintf(stderr, "note: cannot mount a small tmpfs here (needs "
			"root or user namespaces); the full-disk checks did "
			"not run\n");
		HWT_FAIL("no small filesystem to fill");
		(void)w; (void)a; (void)id; (void)r48;
		return;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	rmdir(mnt);
}

/* A COMPRESSED record (perf record -z) whose bytes are not zstd data
 * stops the reader with an error naming it, not skipped. */
static void compressed_records_corrupt(void)
{
	char path[128];
	struct hwt_pd_writer *w = NULL;
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct perf_event_attr a = dummy_attr();
	uint64_t id = 5;
	uint8_t r48[48], comp[16] = {HWT_PD_RECORD_COMPRESSED, 0, 0, 0, 0, 0, 16};

	path_in(path, sizeof(path), dir, "z.data");
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, &id, 1, "dummy"), 0);
	itrace_start(r48, 3);
	CHECK_INT(hwt_pd_writer_record(w, r48), 0);
	CHECK_INT(hwt_pd_writer_record(w, comp), 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
	CHECK_INT(hwt_pd_reader_next(r, &rec), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "COMPRESSED (81) at byte offset 304: its "
		       "zstd data is corrupt (Unknown frame descriptor); the "
		       "records before it are intact");
	hwt_pd_reader_free(r);
}

static void open_errors(void)
{
	struct hwt_pd_writer *w = NULL;

	CHECK_INT(hwt_pd_writer_open("/nonexistent/dir/x.data", &w), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "/nonexistent/dir/x.data");
	CHECK_CONTAINS(hwt_errmsg(), "directory /nonexistent/dir: No such file");
	/* Not a regular file: refused, nothing written. */
	CHECK_INT(hwt_pd_writer_open("/dev/full", &w), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "output /dev/full is a character device");
	CHECK_INT(hwt_pd_writer_open(dir, &w), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "is a directory");
	CHECK(w == NULL);
	CHECK(w == NULL);
	CHECK_INT(hwt_pd_writer_close(NULL), 0);
}

int main(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/hwt-writer-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	RUN(round_trip);
	RUN(big_and_many);
	RUN(killed_capture_still_reads);
	RUN(full_disk_ends_capture_cleanly);
	RUN(compressed_records_corrupt);
	RUN(open_errors);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return hwt_test_summary();
}
