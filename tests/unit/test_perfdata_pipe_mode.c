/* perf's pipe mode through a real pipe: a 16-byte header, then events and
 * features as ATTR and FEATURE records, and AUXTRACE payloads inline
 * (larger than the reader's window, so they cross it). Laid out here by
 * hand from perf.data-file-format.txt. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define PAYLOAD (1 << 20)

static uint8_t stream[PAYLOAD + 4096];
static size_t stream_len;

static void put(const void *p, size_t n)
{
	memcpy(stream + stream_len, p, n);
	stream_len += n;
}

static void put64(uint64_t v)
{
	put(&v, 8);
}

static void header(uint32_t type, uint16_t size)
{
	uint32_t t = type;
	uint16_t misc = 0;

	put(&t, 4);
	put(&misc, 2);
	put(&size, 2);
}

static void build_stream(void)
{
	static const uint8_t zeros[56];
	struct perf_event_attr a = {0};
	uint32_t u32;

	stream_len = 0;
	put("PERFILE2", 8);
	put64(16);
	/* ATTR: the attribute, then its ids. */
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.size = sizeof(a);
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER;
	a.sample_id_all = 1;
	header(HWT_PD_RECORD_HEADER_ATTR, 8 + sizeof(a) + 16);
	put(&a, sizeof(a));
	put64(21);
	put64(22);
	/* FEATURE: hostname, as perf's do_write_string lays it out. */
	header(HWT_PD_RECORD_HEADER_FEATURE, 16 + 4 + 64);
	put64(HWT_PD_FEAT_HOSTNAME);
	u32 = 64;
	put(&u32, 4);
	put("pipehost", 8);
	put(zeros, 56);
	/* ITRACE_START 9/9 with the trailer: pid/tid, time 1234, cpu 3, id. */
	header(PERF_RECORD_ITRACE_START, 48);
	u32 = 9;
	put(&u32, 4);
	put(&u32, 4);
	put(&u32, 4);
	put(&u32, 4);
	put64(1234);
	put64(3);
	put64(22);
	/* AUXTRACE of 1 MiB, its bytes i * 3. */
	header(HWT_PD_RECORD_AUXTRACE, 48);
	put64(PAYLOAD);
	put64(0);
	put64(0x77);
	u32 = 3;
	put(&u32, 4);
	u32 = 9;
	put(&u32, 4);
	u32 = 3;
	put(&u32, 4);
	u32 = 0;
	put(&u32, 4);
	for (size_t i = 0; i < PAYLOAD; i++)
		stream[stream_len + i] = (uint8_t)(i * 3);
	stream_len += PAYLOAD;
	/* HEADER_BUILD_ID: pid, 20 id bytes + size + 3 reserved, a name
	 * padded to 64 (perf's struct perf_record_header_build_id). */
	header(HWT_PD_RECORD_HEADER_BUILD_ID, 8 + 4 + 24 + 64);
	stream[stream_len - 4] = 2; /* misc: PERF_RECORD_MISC_USER */
	u32 = (uint32_t)-1;
	put(&u32, 4);
	put("\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee"
	    "\xff\x00\x01\x02\x03\x04", 20);
	put(zeros, 4);
	put("/usr/bin/traced", 15);
	put(zeros, 64 - 15);
	header(HWT_PD_RECORD_FINISHED_ROUND, 8);
}

/* Reads the stream from standard input, fed by a child through a pipe in
 * small writes so that reads come back short. */
static void read_through_pipe(bool load_aux)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	int fds[2], saved = dup(0), status;
	char host[64];
	uint8_t byte;
	pid_t pid;

	CHECK_INT(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (size_t off = 0; off < stream_len; off += 1000) {
			size_t n = stream_len - off < 1000 ? stream_len - off : 1000;

			if (write(fds[1], stream + off, n) != (ssize_t)n)
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	dup2(fds[0], 0);
	close(fds[0]);

	CHECK_INT(hwt_pd_reader_open("-", &r), 0);
	if (r) {
		struct hwt_pd_aux_queues *q = NULL;

		CHECK(hwt_pd_reader_is_pipe(r));
		CHECK_STR(hwt_pd_reader_path(r), "<stdin>");
		hwt_pd_reader_set_load_aux(r, load_aux);
		CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
		CHECK_INT(rec.type, HWT_PD_RECORD_HEADER_ATTR);
		CHECK_U64(rec.file_offset, 16);
		CHECK_INT(hwt_pd_reader_nr_attrs(r), 1);
		CHECK(hwt_pd_reader_attr_by_id(r, 22) == hwt_pd_reader_attr(r, 0));
		CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
		CHECK_INT(rec.type, HWT_PD_RECORD_HEADER_FEATURE);
		CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HOSTNAME,
						       host, sizeof(host)), 0);
		CHECK_STR(host, "pipehost");
		CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
		CHECK_INT(rec.type, PERF_RECORD_ITRACE_START);
		CHECK_U64(rec.sid.time, 1234);
		CHECK_INT(rec.sid.cpu, 3);
		CHECK_INT(rec.sid.tid, 9);
		CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
		CHECK_INT(rec.type, HWT_PD_RECORD_AUXTRACE);
		CHECK_U64(rec.aux.size, PAYLOAD);
		CHECK_U64(rec.aux.reference, 0x77);
		CHECK_INT(rec.aux.idx, 3);
		if (load_aux) {
			int bad = 0;

			CHECK(rec.aux_data != NULL);
			for (size_t i = 0; rec.aux_data && i < PAYLOAD; i++)
				bad += rec.aux_data[i] != (uint8_t)(i * 3);
			CHECK_INT(bad, 0);
		} else {
			CHECK(rec.aux_data == NULL);
		}
		CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
		CHECK_INT(rec.type, HWT_PD_RECORD_HEADER_BUILD_ID);
		{
			struct hwt_pd_build_id b;

			CHECK_INT(hwt_pd_reader_build_id(r, 0, &b), 1);
			CHECK_STR(b.filename, "/usr/bin/traced");
			CHECK_INT(b.pid, -1);
			CHECK_INT(b.id[0], 0x11);
			CHECK_INT(b.id[19], 0x04);
			CHECK_INT(b.size, 20);
			CHECK_INT(hwt_pd_reader_build_id(r, 1, &b), 0);
		}
		CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
		CHECK_INT(rec.type, HWT_PD_RECORD_FINISHED_ROUND);
		CHECK_U64(rec.file_offset, stream_len - 8);
		CHECK_INT(hwt_pd_reader_next(r, &rec), 0);
		CHECK_INT(hwt_pd_reader_read_at(r, 0, &byte, 1), HWT_ERR_NOSUP);
		CHECK_INT(hwt_pd_aux_queues_build(r, &q), HWT_ERR_NOSUP);
		CHECK(q == NULL);
		hwt_pd_reader_free(r);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	dup2(saved, 0);
	close(saved);
}

static void pipe_with_payloads(void)
{
	read_through_pipe(true);
}

static void pipe_skipping_payloads(void)
{
	read_through_pipe(false);
}

/* The same stream cut inside the payload, from a regular file. */
static void pipe_cut_in_payload(void)
{
	char path[] = "/tmp/hwt-pipe-XXXXXX";
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	int fd = mkstemp(path), n = 0, ret;

	CHECK(fd >= 0);
	CHECK_INT(write(fd, stream, stream_len - 5000), stream_len - 5000);
	close(fd);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (r) {
		while ((ret = hwt_pd_reader_next(r, &rec)) > 0)
			n++;
		CHECK_INT(n, 3);
		CHECK_INT(ret, HWT_ERR_TRUNCATED);
		CHECK_CONTAINS(hwt_errmsg(), "AUXTRACE (71) at byte offset");
		hwt_pd_reader_free(r);
	}
	unlink(path);
}

int main(void)
{
	build_stream();
	RUN(pipe_with_payloads);
	RUN(pipe_skipping_payloads);
	RUN(pipe_cut_in_payload);
	return hwt_test_summary();
}
