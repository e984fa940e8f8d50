/* rvtrace_capture TRACE ELF ADDR OUT [series|WORD1]: writes OUT, a
 * per-thread capture of the rvtrace PMU as a board would give it (a
 * process that mapped ELF's file at ADDR, its N-Trace stream TRACE in one
 * AUXTRACE buffer, the AUXTRACE_INFO of an RV32 encoder with an 8-deep
 * implicit-return stack, as hwtrace's record op writes it), for `hwtrace
 * record --emulate` to replay through the emulated rvtrace PMU. "series":
 * the one word the series' perf tool writes instead; WORD1: another
 * version word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/backend.h"
#include "unit/test_pt_capture.h"

#define RVTRACE_PMU_TYPE 9 /* the fixture riscv-rvtrace's */

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	uint8_t *buf = NULL;

	if (f && fstat(fileno(f), &sb) == 0 && sb.st_size > 0 &&
	    (buf = malloc((size_t)sb.st_size)) &&
	    fread(buf, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		*size = (size_t)sb.st_size;
	if (f)
		fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: rvtrace_capture TRACE ELF ADDR OUT "
			"[series|WORD1]\n");
		return 2;
	}
	size_t trace_size = 0, elf_size = 0;
	uint8_t *trace = slurp(argv[1], &trace_size);
	uint8_t *elf = slurp(argv[2], &elf_size);
	if (!trace || !elf) {
		fprintf(stderr, "rvtrace_capture: cannot read %s\n",
			trace ? argv[2] : argv[1]);
		return 1;
	}
	free(elf);
	uint64_t addr = strtoull(argv[3], NULL, 0);
	const uint64_t sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr rv = {
		.type = RVTRACE_PMU_TYPE, .size = sizeof(rv), .config = 1,
		.sample_type = sample_type | PERF_SAMPLE_IP,
		.sample_id_all = 1, .exclude_kernel = 1, .disabled = 1,
	};
	struct perf_event_attr dummy = hwt_test_dummy_attr(sample_type);
	uint64_t id_rv = 1, id_dummy = 2;
	/* docs/riscv.md's layout: the PMU type (the series' word), hwtrace's
	 * version word ("HWRV", 1), xlen, callstack, src, ts (0: delta),
	 * extaddr. */
	uint64_t priv[7] = {RVTRACE_PMU_TYPE, 0x4857525600000001ull, 32, 8, 0,
			    0, 0};
	size_t npriv = 7;
	if (argc == 6 && !strcmp(argv[5], "series"))
		npriv = 1;
	else if (argc == 6)
		priv[1] = strtoull(argv[5], NULL, 0);
	struct hwt_pd_writer *w;
	uint8_t rec[1024];
	int err = hwt_pd_writer_open(argv[4], &w);

	dummy.exclude_kernel = 1;
	if (!err)
		err = hwt_pd_writer_add_attr(w, &rv, &id_rv, 1, "rvtrace/event=1/u");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id_dummy, 1, "dummy:u");
	if (!err)
		err = hwt_pd_writer_auxtrace_info(w, HWT_AUXTRACE_RISCV_TRACE, priv,
						  npriv);
	pt_capture_mmap2(rec, argv[2], addr, elf_size,
			 NULL, 0, id_dummy);
	if (!err)
		err = hwt_pd_writer_record(w, rec);
	struct hwt_pd_auxtrace aux = {
		.size = trace_size, .tid = PT_CAPTURE_PID, .cpu = UINT32_MAX,
	};
	if (!err)
		err = hwt_pd_writer_auxtrace(w, &aux, trace);
	free(trace);
	if (err) {
		hwt_pd_writer_discard(w);
		fprintf(stderr, "rvtrace_capture: %s\n", hwt_errmsg());
		return 1;
	}
	if ((err = hwt_pd_writer_close(w))) {
		fprintf(stderr, "rvtrace_capture: %s\n", hwt_errmsg());
		return 1;
	}
	return 0;
}
