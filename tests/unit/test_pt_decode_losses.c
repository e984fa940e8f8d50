/* Losses the kernel and perf report in a capture become elements of the
 * stream, each with what was lost: PERF_RECORD_AUX with TRUNCATED (a gap
 * "truncated" at the end of the data that made it) and COLLISION, and
 * PERF_RECORD_LOST (a gap "lost" saying how many records), and perf's
 * AUXTRACE_ERROR (an error with perf's message). The trace itself (libipt's
 * loop-tnt stream) still decodes to ptxed's addresses. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "test_pt_capture.h"

#define PTT HWT_TESTDATA "/ptt/expected"

struct seen {
	char text[2048];
	int ranges;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct seen *s = arg;
	size_t len = strlen(s->text);
	if (e->type == HWT_ELEM_RANGE)
		s->ranges++;
	else if (e->type == HWT_ELEM_GAP)
		snprintf(s->text + len, sizeof(s->text) - len, "gap %s %s\n",
			 hwt_gap_reason_name(e->u.gap.reason),
			 e->u.gap.detail ? e->u.gap.detail : "-");
	else if (e->type == HWT_ELEM_ERROR)
		snprintf(s->text + len, sizeof(s->text) - len, "error %s\n",
			 e->u.error.message);
	return 0;
}

static size_t sample_id(uint8_t *p, uint64_t time)
{
	return pt_capture_sample_id(p, time, 2);
}

static void losses_become_elements(void)
{
	static uint8_t trace[4096];
	FILE *f = fopen(PTT "/loop-tnt.pt", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	size_t n = fread(trace, 1, sizeof(trace), f);
	fclose(f);
	struct stat st;
	CHECK_INT(stat(PTT "/loop-tnt.bin", &st), 0);

	/* PERF_RECORD_AUX: offset 0, size n, TRUNCATED. */
	static uint8_t aux[64], collision[64], lost[64], error[128];
	uint64_t a[3] = {0, n, 0x1};
	memcpy(aux + 8, a, 24);
	pt_capture_header(aux, PERF_RECORD_AUX, 0, 32 + sample_id(aux + 32, 5));
	/* COLLISION (0x8) of 16 bytes at offset 4. */
	uint64_t c[3] = {4, 16, 0x8};
	memcpy(collision + 8, c, 24);
	pt_capture_header(collision, PERF_RECORD_AUX, 0,
			  32 + sample_id(collision + 32, 6));
	/* PERF_RECORD_LOST: 3 records of id 2. */
	uint64_t l[2] = {2, 3};
	memcpy(lost + 8, l, 16);
	pt_capture_header(lost, PERF_RECORD_LOST, 0, 24 + sample_id(lost + 24, 7));
	/* AUXTRACE_ERROR: type, code, cpu, pid, tid, fmt, ip, msg[64]. */
	uint32_t e[6] = {1, 0, 0, PT_CAPTURE_PID, PT_CAPTURE_PID, 0};
	memcpy(error + 8, e, 24);
	memcpy(error + 40, "Lost trace data", 16);
	pt_capture_header(error, HWT_PD_RECORD_AUXTRACE_ERROR, 0, 8 + 24 + 8 + 64);

	const void *extra[] = {aux, collision, lost, error};
	struct pt_capture cap = {
		.code_path = PTT "/loop-tnt.bin",
		.code_addr = 0x100000, /* loop-tnt.ptt: org 0x100000 */
		.code_size = (uint64_t)st.st_size,
		.trace = trace,
		.trace_size = n,
		.extra = extra,
		.nextra = 4,
	};
	char tmp[] = "/tmp/hwt-pt-losses-XXXXXX", data[64];
	CHECK(mkdtemp(tmp) != NULL);
	snprintf(data, sizeof(data), "%s/perf.data", tmp);
	CHECK_INT(pt_capture_write(data, &cap), 0);

	struct seen s = {{0}, 0};
	struct hwt_decode_opts opts = {.size = sizeof(opts), .disasm = true};
	struct hwt_elem_sink sink = {collect, &s};
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	/* loop-tnt-ptxed.exp: 10 instructions. */
	CHECK_INT(s.ranges, 10);
	char want[512];
	snprintf(want, sizeof(want),
		 "gap truncated the AUX buffer was full: trace after 0x%zx lost\n"
		 "gap collision sample collision at 0x4\n"
		 "gap lost 3 records lost\n"
		 "error perf auxtrace error: Lost trace data\n", n);
	CHECK_STR(s.text, want);

	unlink(data);
	rmdir(tmp);
}

int main(void)
{
	RUN(losses_become_elements);
	return hwt_test_summary();
}
