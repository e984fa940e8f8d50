/* `hwtrace info` counts every kind of lost data and names missing binaries,
 * on a file written here with known records (the CLI is $HWTRACE). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

static uint8_t rec[512];
static size_t len;

static void begin(uint32_t type, uint16_t misc)
{
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &misc, 2);
	len = 8;
}

static void add(const void *p, size_t n)
{
	memcpy(rec + len, p, n);
	len += n;
}

static void add64(uint64_t v)
{
	add(&v, 8);
}

static void add32(uint32_t v)
{
	add(&v, 4);
}

/* The sample_id trailer of pid/tid 50/51 at @time on @cpu, id 7; then the
 * record's size. */
static void end(struct hwt_pd_writer *w, uint64_t time, uint32_t cpu)
{
	uint16_t size;

	len = (len + 7) & ~(size_t)7;
	add32(50);
	add32(51);
	add64(time);
	add32(cpu);
	add32(0);
	add64(7);
	size = (uint16_t)len;
	memcpy(rec + 6, &size, 2);
	CHECK_INT(hwt_pd_writer_record(w, rec), 0);
}

static void mmap2(struct hwt_pd_writer *w, const char *path, uint64_t time)
{
	static const uint8_t zeros[24];

	begin(PERF_RECORD_MMAP2, 0);
	add32(50);
	add32(51);
	add64(0x400000);
	add64(0x1000);
	add64(0);
	add(zeros, 24); /* maj, min, ino, ino_generation */
	add32(5); /* PROT_READ | PROT_EXEC */
	add32(2); /* MAP_PRIVATE */
	add(path, strlen(path) + 1);
	end(w, time, 0);
}

static void info_counts_losses(void)
{
	char path[] = "/tmp/hwt-info-XXXXXX", cmd[512], out[8192];
	struct hwt_pd_writer *w = NULL;
	struct perf_event_attr a = {0};
	struct hwt_pd_auxtrace aux = {0};
	static uint8_t trace[1000];
	uint64_t id = 7;
	const char *hwtrace = getenv("HWTRACE");
	FILE *p;
	size_t n;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	if (!hwtrace) {
		HWT_FAIL("HWTRACE (the CLI binary) is not set; run through ctest");
		return;
	}
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER;
	a.sample_id_all = 1;
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, &id, 1, "dummy:u"), 0);

	begin(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	add32(50);
	add32(51);
	add("worker", 7);
	end(w, 1000000000, 0);
	mmap2(w, "/bin/sh", 1000000100);
	mmap2(w, "/nonexistent/libtraced.so", 1000000200);
	mmap2(w, "[vdso]", 1000000300);
	/* LOST: id, lost 17. */
	begin(PERF_RECORD_LOST, 0);
	add64(7);
	add64(17);
	end(w, 1000000400, 1);
	/* LOST_SAMPLES: lost 5. */
	begin(PERF_RECORD_LOST_SAMPLES, 0);
	add64(5);
	end(w, 1000000500, 1);
	/* AUX: offset, size, flags. */
	begin(PERF_RECORD_AUX, 0);
	add64(0);
	add64(1000);
	add64(PERF_AUX_FLAG_TRUNCATED);
	end(w, 1000000600, 0);
	begin(PERF_RECORD_AUX, 0);
	add64(1000);
	add64(600);
	add64(PERF_AUX_FLAG_COLLISION | PERF_AUX_FLAG_PARTIAL);
	end(w, 1000000700, 1);
	/* AUXTRACE_ERROR: type, code, cpu, pid, tid, fmt, ip, time?; only
	 * counted. */
	begin(HWT_PD_RECORD_AUXTRACE_ERROR, 0);
	add32(1);
	add32(2);
	add32(0);
	add32(50);
	add32(51);
	add32(0);
	add64(0x401000);
	{
		uint16_t size = (uint16_t)len;

		memcpy(rec + 6, &size, 2);
		CHECK_INT(hwt_pd_writer_record(w, rec), 0);
	}
	aux.size = 1000;
	aux.cpu = 0;
	CHECK_INT(hwt_pd_writer_auxtrace(w, &aux, trace), 0);
	aux.size = 600;
	aux.cpu = 1;
	aux.idx = 1;
	aux.offset = 1000;
	CHECK_INT(hwt_pd_writer_auxtrace(w, &aux, trace), 0);
	/* The last time: 2.5 s after the first. */
	begin(PERF_RECORD_EXIT, 0);
	add32(50);
	add32(1);
	add32(51);
	add32(1);
	add64(3500000000);
	end(w, 3500000000, 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);

	snprintf(cmd, sizeof(cmd), "%s info %s", hwtrace, path);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	CHECK_INT(pclose(p), 0);
	CHECK_CONTAINS(out, "lost:        1 LOST records (17 events), 5 lost "
			    "samples, 1 truncated and 1 collided AUX writes, 1 "
			    "AUXTRACE errors\n");
	CHECK_CONTAINS(out, "trace:       1600 bytes in 2 AUXTRACE buffers\n");
	CHECK_CONTAINS(out, "  cpu 0       1000 bytes in 1 buffers\n");
	CHECK_CONTAINS(out, "  cpu 1       600 bytes in 1 buffers\n");
	CHECK_CONTAINS(out, "aux:         2 AUX records, 1600 bytes reported");
	CHECK_CONTAINS(out, "time:        1000000000 .. 3500000000 (2.500000 s)\n");
	CHECK_CONTAINS(out, "  50/51 worker\n");
	CHECK_CONTAINS(out, "commands:    worker\n");
	CHECK_CONTAINS(out, "backend:     none");
	CHECK_CONTAINS(out, "\n  /bin/sh\n");
	CHECK_CONTAINS(out, "\n  /nonexistent/libtraced.so MISSING\n");
	CHECK_CONTAINS(out, "\n  [vdso] (not a file)\n");
	CHECK_CONTAINS(out, "missing:     1 of 2 binaries are not on this machine");
	/* comm, 3 mmap2, lost, lost samples, 2 aux, error, 2 auxtrace, exit */
	CHECK_CONTAINS(out, "records:     12\n");
	unlink(path);
}

int main(void)
{
	RUN(info_counts_losses);
	return hwt_test_summary();
}
