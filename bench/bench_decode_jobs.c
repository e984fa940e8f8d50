/* Parallel decode and memory, measured in one run:
 *  (b) hwt_decode_file with jobs=2 against jobs=1 on the same per-CPU
 *      Intel PT capture (4 CPUs, equal trace each), elements into a
 *      counting sink; and, when HWTRACE names the CLI, `hwtrace decode
 *      -j2` against `-j1` writing text to /dev/null, --per-cpu (the
 *      calling thread attributes and formats while the workers decode)
 *      and merged by time (the default; with -j2 the merge's read-back
 *      and the formatting run on two threads);
 *      Beside them, what two threads can gain on this machine at all:
 *      the bare libipt block-decoder loop over the capture's four
 *      streams, on one thread and on two (two streams each), in the
 *      same rounds. Two threads that share nothing gain less than 2x
 *      on a virtual machine whose cores are not wholly its own;
 *  (g) what a segment's setup costs with many files mapped, as a real
 *      process has: jobs=1 on the capture with MMAP2 records of up to 300
 *      shared libraries of this machine besides (the trace runs in none
 *      of them) against jobs=1 on the capture without;
 *  (h) a trace through much code: jobs=1 and jobs=2 on a capture whose
 *      trace calls 4,096 functions 4 KiB apart (16 MiB of code) at
 *      random, against the bare libipt block-decoder loop on the same
 *      streams (bench/libipt_loop.h): libipt's caches of the code met
 *      before count here;
 *  (i) Intel BTS and sw_branch: jobs=2 against jobs=1 on a capture of
 *      two threads' BTS records (tests/unit/bts_capture.h: a loop's
 *      branch, with every other kind of record now and then), 12 x
 *      MIB_PER_CPU MiB of records each (a record decodes fast: the
 *      command takes 2 s or more at the default size), against `perf
 *      script --itrace=b` on the same file; when HWTRACE names the CLI,
 *      `hwtrace decode -j1` and `-j2`;
 *  (f) the peak RSS of a child process decoding the capture (jobs=1 and
 *      jobs=2), at 1x and at 10x the trace, in two layouts: pieces of
 *      1 MiB (AUX losses between them) and one contiguous piece per CPU.
 * Each time is RUNS runs, alternated, reported as median and spread
 * (max - min); the machine's load average is printed beside them, as
 * other work on it slows every run.
 *
 * The trace is made here with libipt's packet encoder: a loop whose
 * conditional branch is taken on every TNT bit, with a PSB+ every 4 KiB.
 *
 * Usage: bench_decode_jobs [MIB_PER_CPU [RSS_KIB_PER_CPU]]
 *        (defaults 8 and 256: the RSS runs use 1x and 10x that)
 *        bench_decode_jobs --write DIR [MIB_PER_CPU]
 * The second form only writes DIR/code.bin and DIR/perf.data (the pieces
 * layout) and times nothing, for profiling and timing command lines. */
#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <intel-pt.h>

#include "bench/libipt_loop.h"

#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "tests/unit/bts_capture.h"
#include "tests/unit/pt_enc_psb.h"
#include "tests/unit/test_pt_capture.h"

#define RUNS 3
#define NCPU 4
#define ORG 0x400000ull
#define PIECE (1u << 20)

/* 400000 inc rax; 400003 jne 400000; 400005 ret */
static const uint8_t code[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The code of (h), BIG_CODE_SIZE bytes from ORG: `call *%rax; jmp ORG`
 * at ORG, and NFN functions of one `ret` each, 4 KiB apart from FN_BASE. */
#define FN_BASE 0x800000ull
#define NFN 4096u
#define BIG_CODE_SIZE (FN_BASE - ORG + NFN * 4096ull)

static uint8_t *make_big_code(void)
{
	uint8_t *c = calloc(1, BIG_CODE_SIZE);
	if (!c)
		return NULL;
	static const uint8_t loop[] = {0xff, 0xd0, 0xeb, 0xfc};
	memcpy(c, loop, sizeof(loop));
	for (size_t i = 0; i < NFN; i++)
		c[FN_BASE - ORG + i * 4096] = 0xc3;
	return c;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(data, 1, size, f) == size;
	if (f && fclose(f))
		ok = false;
	return ok ? 0 : -1;
}

/* The packets of one pass of make_big_code's loop, into a function
 * picked at random (@arg: the random state): the TIP of the call, and
 * the return, compressed, a TNT bit. */
static int big_pass(struct pt_encoder *e, void *arg)
{
	uint64_t *rnd = arg;
	*rnd = *rnd * 6364136223846793005ull + 1442695040888963407ull;
	int err = pt_enc_ip(e, ppt_tip, FN_BASE + (*rnd >> 33) % NFN * 4096);
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = 1;
	p.payload.tnt.payload = 1;
	return err | pt_enc_put(e, &p);
}

/* @size bytes of trace of code[]'s loop, or with @big of
 * make_big_code's, a PSB+ every 4 KiB; the first one enables. */
static size_t make_trace(uint8_t *buf, size_t size, uint64_t tsc, bool big)
{
	uint64_t rnd = 12345;
	return big ? pt_enc_passes(buf, size, tsc, ORG, big_pass, &rnd)
		   : pt_enc_passes(buf, size, tsc, ORG, pt_enc_loop_taken, NULL);
}

/* NCPU queues of @size bytes each, in buffers of PIECE bytes; with
 * @pieces, a gap in the AUX offsets after each buffer (else they continue
 * each other and the decoder joins them into one piece per CPU). */
static int write_capture_with(const char *path, const char *bin,
			      uint64_t code_size, const uint8_t *trace,
			      size_t size, bool pieces,
			      const void *const *extra, size_t nextra)
{
	size_t nbuf = (size + PIECE - 1) / PIECE * NCPU, k = 0;
	struct pt_capture_buffer *bufs = calloc(nbuf, sizeof(*bufs));
	uint64_t offset[NCPU] = {0};
	if (!bufs)
		return HWT_ERR_NOMEM;
	for (size_t at = 0; at < size; at += PIECE) {
		size_t len = size - at < PIECE ? size - at : PIECE;
		for (uint32_t cpu = 0; cpu < NCPU; cpu++) {
			bufs[k++] = (struct pt_capture_buffer){cpu, offset[cpu],
							       trace + at, len};
			offset[cpu] += len + (pieces ? 4096 : 0);
		}
	}
	struct pt_capture c = {.code_path = bin, .code_addr = ORG,
			       .code_size = code_size, .extra = extra,
			       .nextra = nextra, .buffers = bufs, .nbuffers = k};
	int err = pt_capture_write(path, &c);
	free(bufs);
	return err;
}

static int write_capture(const char *path, const char *bin, const uint8_t *trace,
			 size_t size, bool pieces)
{
	return write_capture_with(path, bin, sizeof(code), trace, size, pieces,
				  NULL, 0);
}

#define MAX_LIBS 300
#define LIB_BASE 0x7f0000000000ull

/* MMAP2 records of up to MAX_LIBS shared libraries of this machine, one
 * 256 MiB apart from LIB_BASE: the files a real process has mapped. */
static size_t library_mmaps(uint8_t (*rec)[1024], const void **ptr)
{
	static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu",
					   "/usr/lib/aarch64-linux-gnu",
					   "/usr/lib64", "/usr/lib"};
	size_t n = 0;
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *ent;
		while (dir && n < MAX_LIBS && (ent = readdir(dir))) {
			char path[512];
			struct stat st;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], ent->d_name);
			if (!strstr(ent->d_name, ".so") || stat(path, &st) ||
			    !S_ISREG(st.st_mode) || st.st_size < 4096)
				continue;
			pt_capture_mmap2(rec[n], path, LIB_BASE + (n << 28),
					 (uint64_t)st.st_size & ~4095ull, NULL,
					 0, 2 /* the dummy event's id */);
			ptr[n] = rec[n];
			n++;
		}
		if (dir)
			closedir(dir);
	}
	return n;
}

static uint64_t counted;

static int count(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	counted++;
	return 0;
}

/* CPU seconds (user + system) of this process so far. */
static double cpu_time(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double last_cpu; /* CPU seconds of the last time_lib */

static double time_lib(const char *data, unsigned jobs)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = jobs};
	struct hwt_elem_sink sink = {count, NULL};
	counted = 0;
	double t = now(), c = cpu_time();
	if (hwt_decode_file(data, &opts, &sink) < 0) {
		fprintf(stderr, "decode: %s\n", hwt_errmsg());
		return -1;
	}
	last_cpu = cpu_time() - c;
	return now() - t;
}

/* The bare libipt loop over @n of the capture's streams (each the same
 * trace, as write_capture lays them out). */
struct bare_streams {
	uint8_t *trace;
	size_t size;
	const char *bin;
	int n;
};

static void *bare_loop(void *arg)
{
	struct bare_streams *b = arg;
	for (int i = 0; i < b->n; i++)
		libipt_block_loop(b->trace, b->size, b->bin, sizeof(code), ORG,
				  false, NULL);
	return NULL;
}

/* Wall seconds of the bare loop over all NCPU streams on @threads
 * threads (1 or 2), NCPU / threads streams each. */
static double time_bare(uint8_t *trace, size_t size, const char *bin,
			int threads)
{
	struct bare_streams b = {trace, size, bin, NCPU / threads};
	pthread_t other;
	double t = now();
	if (threads == 2 && pthread_create(&other, NULL, bare_loop, &b))
		return -1;
	bare_loop(&b);
	if (threads == 2)
		pthread_join(other, NULL);
	return now() - t;
}

/* Wall seconds of a shell command, or -1 when it fails. */
static double time_command(const char *cmd)
{
	double t = now();
	if (system(cmd) != 0)
		return -1;
	return now() - t;
}

static double time_cli(const char *hwtrace, const char *data, unsigned jobs,
		       bool per_cpu)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "'%s' decode -j%u %s'%s' >/dev/null 2>&1",
		 hwtrace, jobs, per_cpu ? "--per-cpu " : "", data);
	return time_command(cmd);
}

/* Peak RSS (KiB) of a child that decodes @data with @jobs threads. */
static long child_rss(const char *data, unsigned jobs)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(time_lib(data, jobs) < 0);
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || status)
		return -1;
	return ru.ru_maxrss;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void print_times(const char *what, double *t)
{
	qsort(t, RUNS, sizeof(*t), cmp_double);
	printf("%-34s median %7.3f s  spread %.3f s\n", what, t[RUNS / 2],
	       t[RUNS - 1] - t[0]);
	fflush(stdout);
}

static void load(void)
{
	double l[3];
	if (getloadavg(l, 3) == 3)
		printf("load average %.2f %.2f %.2f on %ld CPUs\n", l[0], l[1],
		       l[2], sysconf(_SC_NPROCESSORS_ONLN));
}

/* jobs=2 against jobs=1 on @data: the library into a counting sink, and
 * when @hwtrace names the CLI, `hwtrace decode -j1` and `-j2`; beside
 * them the shell command @peer (NULL: none), printed as @peer_name, and
 * when @bare gives the trace of each stream, the bare libipt loop over
 * them on one thread and on two; taking turns run by run. */
static void jobs_against_one(const char *data, const char *hwtrace,
			     const char *peer, const char *peer_name,
			     const struct bare_streams *bare)
{
	double t1[RUNS], t2[RUNS], u1[RUNS], u2[RUNS], tp[RUNS], c1[RUNS],
		c2[RUNS], m1[RUNS], m2[RUNS], b1[RUNS], b2[RUNS];
	for (int r = 0; r < RUNS; r++) {
		if (bare) {
			b1[r] = time_bare(bare->trace, bare->size, bare->bin, 1);
			b2[r] = time_bare(bare->trace, bare->size, bare->bin, 2);
		}
		t1[r] = time_lib(data, 1);
		u1[r] = last_cpu;
		t2[r] = time_lib(data, 2);
		u2[r] = last_cpu;
		if (peer)
			tp[r] = time_command(peer);
		if (hwtrace) {
			c1[r] = time_cli(hwtrace, data, 1, true);
			c2[r] = time_cli(hwtrace, data, 2, true);
			m1[r] = time_cli(hwtrace, data, 1, false);
			m2[r] = time_cli(hwtrace, data, 2, false);
		}
	}
	printf("%" PRIu64 " elements\n", counted);
	print_times("library jobs=1 (counting sink)", t1);
	print_times("library jobs=2 (counting sink)", t2);
	printf("ratio jobs=1 / jobs=2 time: %.2f\n", t1[RUNS / 2] / t2[RUNS / 2]);
	print_times("library jobs=1 CPU time", u1);
	print_times("library jobs=2 CPU time", u2);
	if (bare) {
		print_times("bare libipt loop, 1 thread", b1);
		print_times("bare libipt loop, 2 threads", b2);
		printf("ratio 1 / 2 threads, bare loop (this machine's most): "
		       "%.2f\n", b1[RUNS / 2] / b2[RUNS / 2]);
	}
	if (peer) {
		print_times(peer_name, tp);
		printf("ratio peer / library jobs=1 time: %.2f\n",
		       tp[RUNS / 2] / t1[RUNS / 2]);
	}
	if (hwtrace) {
		print_times("hwtrace decode --per-cpu -j1 >/dev/null", c1);
		print_times("hwtrace decode --per-cpu -j2 >/dev/null", c2);
		printf("ratio -j1 / -j2 time: %.2f\n", c1[RUNS / 2] / c2[RUNS / 2]);
		print_times("hwtrace decode -j1 >/dev/null (merged)", m1);
		print_times("hwtrace decode -j2 >/dev/null (merged)", m2);
		printf("ratio -j1 / -j2 time (merged): %.2f\n",
		       m1[RUNS / 2] / m2[RUNS / 2]);
		if (peer)
			printf("ratio peer / hwtrace decode -j2 time: %.2f\n",
			       tp[RUNS / 2] / c2[RUNS / 2]);
	}
	load();
}

/* (i): jobs=2 against jobs=1 and perf script on a capture of BTS or
 * sw_branch records, @mib MiB a thread. */
static int bench_bts(const char *dir, const char *hwtrace, size_t mib,
		     bool swb)
{
	char bin[300], data[300], cmd[1024];
	snprintf(bin, sizeof(bin), "%s/bts-code.bin", dir);
	snprintf(data, sizeof(data), "%s/bts.data", dir);
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = bts_capture_sized(bin, swb, mib);
	if (bts_capture_write_code(bin) < 0 || bts_capture_write(data, &c, w) < 0) {
		fprintf(stderr, "%s\n", hwt_errmsg());
		return -1;
	}
	struct stat st;
	printf("%s capture: %.1f MiB, %u branch records\n",
	       swb ? "sw_branch" : "Intel BTS",
	       stat(data, &st) ? 0 : st.st_size / 1048576.0,
	       w[0].branches + w[1].branches);
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' --itrace=b >/dev/null "
		 "2>&1", data);
	jobs_against_one(data, hwtrace, cmd, "perf script --itrace=b >/dev/null",
			 NULL);
	unlink(data);
	unlink(bin);
	return 0;
}

int main(int argc, char **argv)
{
	bool write_only = argc > 2 && !strcmp(argv[1], "--write");
	size_t mib = argc > 1 + 2 * write_only
			     ? strtoul(argv[1 + 2 * write_only], NULL, 0) : 8;
	const char *hwtrace = getenv("HWTRACE");
	char tmp[] = "/tmp/hwt-bench-jobs-XXXXXX", bin[300], data[300], big[300];
	const char *dir = write_only ? argv[2] : mkdtemp(tmp);
	if (!mib || !dir)
		return 1;
	snprintf(bin, sizeof(bin), "%s/code.bin", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(big, sizeof(big), "%s/big.data", dir);
	if (write_file(bin, code, sizeof(code)) < 0)
		return 1;
	size_t rss_kib = !write_only && argc > 2 ? strtoul(argv[2], NULL, 0) : 256;
	size_t cap = (mib << 20) > (rss_kib * 10 << 10) ? mib << 20
							 : rss_kib * 10 << 10;
	uint8_t *trace = malloc(cap);
	size_t size1 = trace ? make_trace(trace, mib << 20, 1000, false) : 0;
	if (!size1 || !rss_kib)
		return 1;

	/* (b) on the pieces layout at 1x. */
	if (write_capture(data, bin, trace, size1, true) < 0) {
		fprintf(stderr, "%s\n", hwt_errmsg());
		return 1;
	}
	printf("capture: %d CPUs x %.1f MiB of Intel PT\n", NCPU,
	       size1 / 1048576.0);
	if (write_only)
		return 0;
	load();
	struct bare_streams bare = {trace, size1, bin, NCPU};
	jobs_against_one(data, hwtrace, NULL, NULL, &bare);
	double t1[RUNS], t2[RUNS];

	/* (g) the same capture with many files mapped. */
	static uint8_t lib_rec[MAX_LIBS][1024];
	const void *lib_ptr[MAX_LIBS];
	size_t nlibs = library_mmaps(lib_rec, lib_ptr);
	if (write_capture_with(big, bin, sizeof(code), trace, size1, true,
			       lib_ptr, nlibs) < 0)
		return 1;
	for (int r = 0; r < RUNS; r++) {
		t1[r] = time_lib(data, 1);
		t2[r] = time_lib(big, 1);
	}
	char what[64];
	snprintf(what, sizeof(what), "library jobs=1, %zu files mapped", nlibs);
	print_times("library jobs=1, 1 file mapped", t1);
	print_times(what, t2);
	printf("ratio time with %zu files / with 1: %.2f\n", nlibs,
	       t2[RUNS / 2] / t1[RUNS / 2]);
	load();

	/* (h) a trace through 16 MiB of code. */
	char big_bin[300];
	snprintf(big_bin, sizeof(big_bin), "%s/big-code.bin", dir);
	uint8_t *big_code = make_big_code();
	size_t big_size = make_trace(trace, mib << 20, 1000, true);
	if (!big_code || !big_size ||
	    write_file(big_bin, big_code, BIG_CODE_SIZE) < 0 ||
	    write_capture_with(big, big_bin, BIG_CODE_SIZE, trace, big_size,
			       true, NULL, 0) < 0)
		return 1;
	free(big_code);
	double tb[RUNS];
	for (int r = 0; r < RUNS; r++) {
		t1[r] = time_lib(big, 1);
		t2[r] = time_lib(big, 2);
		double t = now();
		for (int cpu = 0; cpu < NCPU; cpu++)
			libipt_block_loop(trace, big_size, big_bin, BIG_CODE_SIZE,
					  ORG, false, NULL);
		tb[r] = now() - t;
	}
	printf("16 MiB of code: %" PRIu64 " elements\n", counted);
	print_times("library jobs=1", t1);
	print_times("library jobs=2", t2);
	print_times("bare libipt loop", tb);
	printf("ratio jobs=1 / bare libipt speed: %.2f\n", tb[RUNS / 2] / t1[RUNS / 2]);
	printf("ratio jobs=1 / jobs=2 time: %.2f\n", t1[RUNS / 2] / t2[RUNS / 2]);
	unlink(big_bin);
	load();

	/* (i) Intel BTS and sw_branch. */
	if (bench_bts(dir, hwtrace, 12 * mib, false) < 0 ||
	    bench_bts(dir, hwtrace, 12 * mib, true) < 0)
		return 1;

	/* (f) peak RSS at 1x and 10x, in both layouts. */
	size_t size10 = make_trace(trace, rss_kib * 10 << 10, 1000, false);
	size1 = make_trace(trace, rss_kib << 10, 1000, false);
	if (!size1 || !size10)
		return 1;
	for (int layout = 0; layout < 2; layout++) {
		bool pieces = layout == 0;
		if (write_capture(data, bin, trace, size1, pieces) < 0 ||
		    write_capture(big, bin, trace, size10, pieces) < 0)
			return 1;
		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			long r1 = child_rss(data, jobs), r10 = child_rss(big, jobs);
			printf("peak RSS jobs=%u, %s: 1x (%zu KiB) %ld KiB, "
			       "10x %ld KiB, ratio %.2f\n", jobs,
			       pieces ? "1 MiB pieces" : "one piece per CPU",
			       NCPU * size1 >> 10, r1, r10,
			       r1 > 0 ? (double)r10 / r1 : 0);
		}
	}
	unlink(data);
	unlink(big);
	unlink(bin);
	rmdir(dir);
	free(trace);
	return 0;
}
