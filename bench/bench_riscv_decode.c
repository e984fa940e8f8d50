/* RISC-V N-Trace decode speed (riscv_ntrace), beside Intel PT's decode
 * (its fast path, the default) in the same run: ns per instruction and MB/s
 * of trace, each the median of three runs in CPU seconds (user + system)
 * with the spread beside it; the two take turns run by run.
 *
 * The N-Trace input is the Nexus Trace TG's t1 stream (RV32, HTM, implicit
 * returns, repeated history: 2,604 bytes for 164,959 instructions)
 * repeated until one decode takes at least 2.5 s, decoded from a file with
 * its ELF (hwt_decode_raw, --elf) into a counting sink. The Intel PT
 * input is bench_pt_decode's (--write: a loop with a pseudo-random
 * branch and a call, a PSB+ every 4 KiB), found beside this program,
 * decoded the same way with its code (--map).
 *
 * Usage: bench_riscv_decode [PT_TRACE_KIB]   (default 4096) */
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hwtrace/decode.h"
#include "hwtrace/error.h"

#define RUNS 3
#define T1 HWT_TESTDATA "/riscv-ntrace/t1/"
#define PT_ORG 0x400000ull /* bench_pt_decode's code address */

static uint64_t insns;

static int count(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	if (e->type == HWT_ELEM_RANGE)
		insns += e->u.range.insns;
	return 0;
}

static double cpu_now(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* One decode of @trace; CPU seconds, insns in `insns`. */
static double one(const char *backend, const char *options, const char *trace,
		  const struct hwt_map_spec *map, bool elf)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 1};
	if (elf) {
		opts.elfs = map;
		opts.nelfs = 1;
	} else {
		opts.maps = map;
		opts.nmaps = 1;
	}
	struct hwt_elem_sink sink = {count, NULL};
	insns = 0;
	double t = cpu_now();
	if (hwt_decode_raw(backend, options, trace, &opts, &sink) < 0) {
		fprintf(stderr, "%s: %s\n", backend, hwt_errmsg());
		exit(1);
	}
	return cpu_now() - t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void row(const char *what, double *runs, double mb, uint64_t n)
{
	qsort(runs, RUNS, sizeof(*runs), cmp_double);
	double med = runs[RUNS / 2];
	printf("%-24s %7.3f s (%.3f..%.3f)  %7.1f MB/s  %6.2f ns/insn  "
	       "(%" PRIu64 " insns, %.2f MB)\n", what, med, runs[0],
	       runs[RUNS - 1], mb / med, med * 1e9 / (double)n, n, mb);
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	const char *pt_kib = argc > 1 ? argv[1] : "4096";
	char dir[] = "/tmp/hwt-bench-riscv-XXXXXX", rv[64], cmd[4200];
	char self[4096], pt[96], code[96];

	if (!mkdtemp(dir))
		return 1;
	snprintf(rv, sizeof(rv), "%s/t1.bin", dir);
	snprintf(pt, sizeof(pt), "%s/trace.pt", dir);
	snprintf(code, sizeof(code), "%s/code.bin", dir);

	/* t1, copied until a decode takes 2 s or more. */
	FILE *in = fopen(T1 "test-NEX.bin", "rb");
	static uint8_t t1[4096];
	size_t n1 = in ? fread(t1, 1, sizeof(t1), in) : 0;
	if (in)
		fclose(in);
	if (!n1) {
		fprintf(stderr, "cannot read %s\n", T1 "test-NEX.bin");
		return 1;
	}
	struct hwt_map_spec elf = {.path = T1 "test.elf"};
	const char *rv_opts = "xlen=32,callstack=8";
	size_t copies = 16;
	for (;;) {
		FILE *out = fopen(rv, "wb");
		for (size_t i = 0; out && i < copies; i++)
			fwrite(t1, 1, n1, out);
		if (!out || fclose(out))
			return 1;
		double t = one("riscv_ntrace", rv_opts, rv, &elf, true);
		/* Room for a busier machine in the timed runs. */
		if (t >= 2.5)
			break;
		copies = (size_t)(copies * (t > 0.05 ? 3.0 / t : 16)) + 1;
	}
	double mb_rv = copies * n1 / 1e6;

	/* Intel PT: bench_pt_decode's trace, written by it. */
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	bool have_pt = false;
	if (len > 0) {
		self[len] = 0;
		snprintf(cmd, sizeof(cmd), "'%s/bench_pt_decode' --write '%s' %s "
			 ">/dev/null", dirname(self), dir, pt_kib);
		have_pt = system(cmd) == 0;
	}
	struct hwt_map_spec map = {.path = code, .vaddr = PT_ORG};
	double t_rv[RUNS], t_pt[RUNS];
	uint64_t n_rv = 0, n_pt = 0;
	for (int r = 0; r < RUNS; r++) {
		t_rv[r] = one("riscv_ntrace", rv_opts, rv, &elf, true);
		n_rv = insns;
		if (have_pt) {
			t_pt[r] = one("intel_pt", NULL, pt, &map, false);
			n_pt = insns;
		}
	}
	if (n_rv != copies * 164959ull) {
		fprintf(stderr, "riscv_ntrace decoded %" PRIu64 " instructions, "
			"want %zu x 164959\n", n_rv, copies);
		return 1;
	}
	printf("t1 x %zu; CPU s, median of %d (least..most)\n", copies, RUNS);
	row("riscv_ntrace (t1)", t_rv, mb_rv, n_rv);
	if (have_pt) {
		double mb_pt = file_size(pt) / 1e6;
		row("intel_pt (fast path)", t_pt, mb_pt, n_pt);
		printf("ratio riscv_ntrace / intel_pt ns per instruction: %.2f\n",
		       (t_rv[RUNS / 2] / (double)n_rv) /
			       (t_pt[RUNS / 2] / (double)n_pt));
	} else {
		printf("intel_pt: bench_pt_decode could not write its trace "
		       "(built without libipt?)\n");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
