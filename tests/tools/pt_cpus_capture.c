/* pt_cpus_capture DIR KIB NCPU: writes DIR/code.bin (a 6-byte loop at
 * 0x400000) and DIR/perf.data, an Intel PT capture of NCPU CPUs running
 * that loop, KIB KiB of trace each in one AUXTRACE buffer, a PSB+ every 4
 * KiB whose TSC goes up by 100. CPU c's time stamps start 30 * c after
 * CPU 0's, but the last two CPUs' are the same: merged by time, the
 * CPUs' elements interleave, and some tie. A capture large enough for
 * the merge to read back in slices (about 12,000 elements a KiB). */
#include <stdio.h>
#include <stdlib.h>

#include "hwtrace/error.h"
#include "unit/pt_enc_psb.h"
#include "unit/test_pt_capture.h"

#define ORG 0x400000ull
#define MAX_CPUS 16

/* 400000 inc rax; 400003 jne 400000; 400005 ret */
static const uint8_t code[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};

int main(int argc, char **argv)
{
	unsigned long kib = argc == 4 ? strtoul(argv[2], NULL, 0) : 0;
	unsigned long ncpu = argc == 4 ? strtoul(argv[3], NULL, 0) : 0;
	if (!kib || ncpu < 2 || ncpu > MAX_CPUS) {
		fprintf(stderr, "usage: pt_cpus_capture DIR KIB NCPU (2 to %d)\n",
			MAX_CPUS);
		return 2;
	}
	char bin[4096], data[4096];
	snprintf(bin, sizeof(bin), "%s/code.bin", argv[1]);
	snprintf(data, sizeof(data), "%s/perf.data", argv[1]);
	FILE *f = fopen(bin, "wb");
	if (!f || fwrite(code, 1, sizeof(code), f) != sizeof(code) || fclose(f)) {
		perror(bin);
		return 1;
	}
	size_t size = kib << 10;
	uint8_t *trace = malloc(size * ncpu);
	struct pt_capture_buffer bufs[MAX_CPUS];
	if (!trace)
		return 1;
	for (uint32_t cpu = 0; cpu < ncpu; cpu++) {
		uint64_t start = 1000 + 30 * (cpu < ncpu - 1 ? cpu : cpu - 1);
		uint8_t *t = trace + cpu * size;
		size_t n = pt_enc_passes(t, size, start, ORG, pt_enc_loop_taken,
					 NULL);
		if (!n) {
			fprintf(stderr, "pt_cpus_capture: encoding failed\n");
			return 1;
		}
		bufs[cpu] = (struct pt_capture_buffer){cpu, 0, t, n};
	}
	struct pt_capture c = {.code_path = bin, .code_addr = ORG,
			       .code_size = sizeof(code), .buffers = bufs,
			       .nbuffers = ncpu};
	if (pt_capture_write(data, &c) < 0) {
		fprintf(stderr, "pt_cpus_capture: %s: %s\n", data, hwt_errmsg());
		return 1;
	}
	free(trace);
	return 0;
}
