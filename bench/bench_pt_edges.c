/* `decode --edges` speed against a bare libipt block-decoder loop on the
 * same Intel PT trace, measured in one run:
 *  - the peer: pt_blk_sync_forward, pt_blk_next and pt_blk_event until the
 *    end (libipt's default block options, its image section cache), which
 *    produces the blocks that edges would be read from and nothing else;
 *  - hwtrace: hwt_decode_raw with an edge map (the library, one thread),
 *    and the command line `hwtrace decode --raw intel_pt:TRACE --map ...
 *    --edges -o FILE` (what a user times; its path is argv[2], optional)
 *    with -j 1 and -j 2: the stream is cut at PSBs into segments that
 *    every thread counts.
 * With the command line, also `hwtrace decode perf.data --edges` with
 * -j 1 and -j 2 on a perf.data of the same trace as one thread's
 * AUXTRACE pieces of about 4 MiB (cut at PSBs, as a long recording
 * has many pieces). The outputs of -j 1 and -j 2 are checked to be the
 * same.
 * The trace (bench/pt_edges_trace.h) has conditional branches, direct
 * calls, compressed returns and interrupts (mostly TNT packets, as most
 * code makes), a PSB+ every 4 KiB; with "indirect", also an indirect jump
 * in every iteration and uncompressed returns (a TIP-heavy trace); with
 * "kernel", also a traced kernel's PIPs (in each PSB+, with each
 * interrupt's TIP, and before each iretq's: PT_EDGES_PIP). Three runs of each, alternated; the
 * median and the spread (min-max) are printed, and the ratio of medians,
 * of CPU time (user + system: on a machine shared with other work, wall
 * time measures the others) and, beside it, of wall time.
 *
 * Usage: bench_pt_edges [TRACE_MIB [HWTRACE|- [indirect|kernel]]]
 *        (default 64) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench/libipt_loop.h"
#include "bench/pt_edges_trace.h"
#include "hwtrace/decode.h"
#include "hwtrace/edges.h"
#include "hwtrace/error.h"
#include "tests/unit/test_pt_capture.h"

#define RUNS 3

/* A run's times: wall and CPU (this process, or its children). */
struct times {
	double wall, cpu;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static struct times start(void)
{
	return (struct times){clock_s(CLOCK_MONOTONIC),
			      clock_s(CLOCK_PROCESS_CPUTIME_ID)};
}

static struct times since(struct times t0)
{
	struct times t = start();
	return (struct times){t.wall - t0.wall, t.cpu - t0.cpu};
}

/* The peer: blocks until the end, counting their instructions. */
static struct times bare_libipt(uint8_t *trace, size_t size, const char *bin,
				uint64_t *insns)
{
	struct times t = start();
	uint64_t n = libipt_block_loop(trace, size, bin, sizeof(pt_edges_code),
				       PT_EDGES_ORG, false, NULL);
	*insns = n;
	return since(t);
}

static struct times library_edges(const char *pt, const char *bin,
				  uint64_t *taken, uint64_t *fallbacks)
{
	struct hwt_map_spec map = {bin, PT_EDGES_ORG};
	struct hwt_edges *edges = hwt_edges_new();
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = &map,
				       .nmaps = 1, .edges = edges};
	struct hwt_elem_sink sink = hwt_edges_sink(edges);
	struct times t = start();
	if (!edges || hwt_decode_raw("intel_pt", NULL, pt, &opts, &sink) < 0) {
		fprintf(stderr, "hwtrace: %s\n", hwt_errmsg());
		exit(1);
	}
	t = since(t);
	*taken = hwt_edges_total(edges);
	*fallbacks = hwt_edges_stats(edges)->fallbacks;
	hwt_edges_free(edges);
	return t;
}

/* The times of a shell command; -1 when it failed. */
static struct times time_command(const char *cmd)
{
	double wall = clock_s(CLOCK_MONOTONIC), cpu = children_cpu();
	if (system(cmd) != 0)
		return (struct times){-1, -1};
	return (struct times){clock_s(CLOCK_MONOTONIC) - wall,
			      children_cpu() - cpu};
}

/* `hwtrace decode --raw intel_pt:PT --map BIN@ORG --edges -j JOBS -o
 * OUT`. */
static struct times cli_edges(const char *hwtrace, const char *pt,
			      const char *bin, int jobs, const char *out)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "'%s' decode --raw intel_pt:'%s' --map "
		 "'%s@0x%llx' --edges -j %d -o '%s' >/dev/null 2>&1", hwtrace,
		 pt, bin, (unsigned long long)PT_EDGES_ORG, jobs, out);
	return time_command(cmd);
}

/* `hwtrace decode DATA --edges -j JOBS -o OUT`. */
static struct times cli_edges_file(const char *hwtrace, const char *data,
				   int jobs, const char *out)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "'%s' decode '%s' --edges -j %d -o '%s' "
		 ">/dev/null 2>&1", hwtrace, data, jobs, out);
	return time_command(cmd);
}

/* Whether files @a and @b hold the same bytes. */
static bool same_file(const char *a, const char *b)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Prints the median and spread of CPU and wall time; returns the
 * medians. */
static struct times report(const char *what, const struct times *t, double mb)
{
	double cpu[RUNS], wall[RUNS];
	for (int r = 0; r < RUNS; r++) {
		cpu[r] = t[r].cpu;
		wall[r] = t[r].wall;
	}
	qsort(cpu, RUNS, sizeof(*cpu), by_value);
	qsort(wall, RUNS, sizeof(*wall), by_value);
	printf("%-36s cpu %7.4f s (%.4f-%.4f) %7.1f MB/s; wall %7.4f s "
	       "(%.4f-%.4f)\n", what, cpu[RUNS / 2], cpu[0], cpu[RUNS - 1],
	       mb / cpu[RUNS / 2], wall[RUNS / 2], wall[0], wall[RUNS - 1]);
	return (struct times){wall[RUNS / 2], cpu[RUNS / 2]};
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	const char *hwtrace = argc > 2 && strcmp(argv[2], "-") ? argv[2] : NULL;
	bool indirect = argc > 3 && !strcmp(argv[3], "indirect");
	bool kernel = argc > 3 && !strcmp(argv[3], "kernel");
	char dir[] = "/tmp/hwt-bench-edges-XXXXXX", bin[256], pt[256];
	char data[256], out1[256], out2[256], raw1[256], raw2[256];
	if (!mkdtemp(dir) || !mib)
		return 2;
	snprintf(bin, sizeof(bin), "%s/code.bin", dir);
	snprintf(pt, sizeof(pt), "%s/trace.pt", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(out1, sizeof(out1), "%s/edges-j1.txt", dir);
	snprintf(out2, sizeof(out2), "%s/edges-j2.txt", dir);
	snprintf(raw1, sizeof(raw1), "%s/raw-edges-j1.txt", dir);
	snprintf(raw2, sizeof(raw2), "%s/raw-edges-j2.txt", dir);
	size_t cap = mib << 20;
	uint8_t *trace = malloc(cap + 4096);
	int what = PT_EDGES_INTERRUPTS | (indirect ? 0 : PT_EDGES_DIRECT) |
		   (kernel ? PT_EDGES_PIP : 0);
	size_t size = trace ? pt_edges_make(trace, cap + 4096, cap, what) : 0;
	uint8_t code[sizeof(pt_edges_code)];
	pt_edges_code_for(what, code);
	FILE *f = fopen(bin, "wb");
	int ok = size && f && fwrite(code, 1, sizeof(code), f) == sizeof(code);
	if (f)
		ok &= fclose(f) == 0;
	f = fopen(pt, "wb");
	ok &= f && fwrite(trace, 1, size, f) == size;
	if (f)
		ok &= fclose(f) == 0;
	struct pt_capture pieces = {.code_path = bin, .code_addr = PT_EDGES_ORG,
				    .code_size = sizeof(code), .trace = trace,
				    .trace_size = size,
				    .piece_size = (size_t)4 << 20};
	if (ok && hwtrace)
		ok = pt_capture_write(data, &pieces) == 0;
	if (!ok) {
		fprintf(stderr, "cannot write the inputs in %s\n", dir);
		return 1;
	}

	struct times t_ipt[RUNS], t_lib[RUNS], t_r1[RUNS], t_r2[RUNS];
	struct times t_j1[RUNS], t_j2[RUNS];
	uint64_t insns = 0, taken = 0, fallbacks = 0;
	bool cli_ok = hwtrace != NULL;
	for (int r = 0; r < RUNS; r++) {
		t_ipt[r] = bare_libipt(trace, size, bin, &insns);
		t_lib[r] = library_edges(pt, bin, &taken, &fallbacks);
		if (cli_ok && ((t_r1[r] = cli_edges(hwtrace, pt, bin, 1,
						     raw1)).wall < 0 ||
			       (t_r2[r] = cli_edges(hwtrace, pt, bin, 2,
						     raw2)).wall < 0))
			cli_ok = false;
		if (cli_ok && ((t_j1[r] = cli_edges_file(hwtrace, data, 1,
							 out1)).wall < 0 ||
			       (t_j2[r] = cli_edges_file(hwtrace, data, 2,
							 out2)).wall < 0))
			cli_ok = false;
	}
	double mb = size / 1e6;
	printf("trace: %.2f MB; libipt: %" PRIu64 " instructions; edges: %"
	       PRIu64 " taken branches, %" PRIu64 " chunks through the block "
	       "decoder\n", mb, insns, taken, fallbacks);
	struct times ipt = report("libipt block decoder, bare loop", t_ipt, mb);
	struct times lib = report("hwtrace --edges (library)", t_lib, mb);
	printf("ratio --edges (library) / bare libipt speed: cpu %.2f, wall %.2f\n",
	       ipt.cpu / lib.cpu, ipt.wall / lib.wall);
	if (cli_ok) {
		struct times r1 = report("raw stream, --edges -j 1", t_r1, mb);
		printf("ratio hwtrace decode --edges -j 1 / bare libipt speed: "
		       "cpu %.2f, wall %.2f\n", ipt.cpu / r1.cpu,
		       ipt.wall / r1.wall);
		struct times r2 = report("raw stream, --edges -j 2", t_r2, mb);
		printf("ratio --edges -j 2 / -j 1 speed: wall %.2f (outputs "
		       "%s); -j 2 / bare libipt: wall %.2f\n", r1.wall / r2.wall,
		       same_file(raw1, raw2) ? "the same" : "DIFFER",
		       ipt.wall / r2.wall);
		struct times j1 = report("perf.data in pieces, --edges -j 1",
					 t_j1, mb);
		struct times j2 = report("perf.data in pieces, --edges -j 2",
					 t_j2, mb);
		printf("ratio --edges -j 2 / -j 1 speed: wall %.2f (outputs %s)\n",
		       j1.wall / j2.wall, same_file(out1, out2) ? "the same"
							       : "DIFFER");
	}

	unlink(out1);
	unlink(out2);
	unlink(raw1);
	unlink(raw2);
	unlink(data);
	unlink(pt);
	unlink(bin);
	rmdir(dir);
	free(trace);
	return 0;
}
