/* hwt_pd_summarize on quipper's Intel PT capture counts what perf report
 * -D of the same file shows (perf.data.intel_pt-4.14.perf-report-D.txt:
 * 257 events, 15 samples, 10 AUX records, COMM perf then echo for
 * 3174/3174, AUXTRACE 0x2fd0 bytes on CPU 0 and 0x21a00 on CPU 3,
 * AUXTRACE_INFO type 1); a copy cut short gives the reader's error with
 * the summary of the records before the cut. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"

#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

static void counts_as_perf(void)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_summary *s = NULL;
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_summarize(r, &s), 0);
	if (s) {
		CHECK_U64(s->records, 257);
		CHECK_U64(s->samples, 15);
		CHECK_U64(s->aux_records, 10);
		CHECK(s->have_auxtrace_info);
		CHECK_INT(s->auxtrace_type, 1);
		CHECK_U64(s->auxtrace_buffers, 2);
		CHECK_INT(s->ncpus, 2);
		if (s->ncpus == 2) {
			CHECK_INT(s->cpus[0].cpu, 0);
			CHECK_U64(s->cpus[0].bytes, 0x2fd0);
			CHECK_INT(s->cpus[1].cpu, 3);
			CHECK_U64(s->cpus[1].bytes, 0x21a00);
		}
		CHECK_U64(s->lost_records, 0);
		CHECK_INT(s->ncommands, 2);
		if (s->ncommands == 2) {
			CHECK_STR(s->commands[0], "perf");
			CHECK_STR(s->commands[1], "echo");
		}
		bool echo = false;
		for (size_t i = 0; i < s->nthreads; i++)
			echo |= s->threads[i].pid == 3174 && s->threads[i].tid == 3174 &&
				!strcmp(s->threads[i].comm, "echo");
		CHECK(echo);
		CHECK(s->nbinaries > 0);
	}
	hwt_pd_summary_free(s);
	hwt_pd_reader_free(r);
}

static void cut_short(void)
{
	char path[] = "/tmp/hwt-summary-XXXXXX";
	int fd = mkstemp(path);
	FILE *in = fopen(QUIPPER, "rb");
	static char buf[30000];
	size_t n = in ? fread(buf, 1, sizeof(buf), in) : 0;
	CHECK(fd >= 0 && n == sizeof(buf));
	CHECK(fd >= 0 && write(fd, buf, n) == (ssize_t)n);
	if (in)
		fclose(in);
	if (fd >= 0)
		close(fd);
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_summary *s = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	int err = r ? hwt_pd_summarize(r, &s) : 0;
	CHECK(err < 0);
	CHECK(s != NULL);
	if (s)
		CHECK(s->records > 0 && s->records < 257);
	hwt_pd_summary_free(s);
	hwt_pd_reader_free(r);
	unlink(path);
}

int main(void)
{
	RUN(counts_as_perf);
	RUN(cut_short);
	return hwt_test_summary();
}
