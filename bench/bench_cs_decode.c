/* CoreSight decode speed, measured in one run beside two peers on the same
 * trace:
 *  - OpenCSD's trc_pkt_lister (Debian libopencsd-bin) with -decode_only
 *    and with -decode (packets and elements printed) on an OpenCSD
 *    snapshot: Snowball's PTM trace buffer repeated to a few MB;
 *  - perf 6.1's `perf script --itrace=b` on a perf.data holding the real
 *    simpleperf ETMv4 buffer many times over (written with hwt_pd_writer).
 *  - and, on a raw ETE stream (ete_mem's buffer repeated, as a TRBE
 *    writes one unit's trace), trc_pkt_lister -decode on the snapshot
 *    beside `hwtrace decode --raw` with one thread and with two (the
 *    stream cut at its sync points, cs_sync_points.c).
 * The command is timed isolated (the default) and with --no-isolate on
 * the perf.data and the raw ETE stream (-j 1): their ratio is the cost of
 * the decoder's worker processes (docs/decode.md, "Isolated decoders").
 * hwtrace is timed twice on the first two inputs: as users run it (the
 * `hwtrace decode` command, text to /dev/null) and as a library into a
 * counting sink. Every time is the median of RUNS runs, printed with its spread
 * (fastest and slowest); the peers' times include their process start-up
 * and text output (to /dev/null), as the command's do.
 *
 * Usage: bench_cs_decode [SNAPSHOT_REPEATS [PERF_BUFFERS [ETE_REPEATS]]]
 *        bench_cs_decode --write DIR [PERF_BUFFERS [ETE_REPEATS]]
 * The second form only writes the perf.data (with DIR/symfs) and the raw
 * ETE stream (DIR/ete_mem, its decode arguments in DIR/ete.args) and times
 * nothing.
 * The test data is found through $HWT_TESTDATA, the command through
 * $HWT_CLI (default: tools/hwtrace in the build tree beside bench/). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backends/arm-cs/cs_snapshot.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "tests/unit/pd_copy.h"

#define RUNS 3

/* $HWT_TESTDATA, else ../shared/testdata beside the source tree. */
static const char *testdata(void)
{
	static char path[1024];
	const char *env = getenv("HWT_TESTDATA");
	if (env && *env)
		return env;
	snprintf(path, sizeof(path), "%s", __FILE__);
	char *slash = strrchr(path, '/');
	if (slash)
		*slash = '\0'; /* .../bench */
	slash = strrchr(path, '/');
	if (slash)
		*slash = '\0'; /* the source tree */
	strncat(path, "/../shared/testdata", sizeof(path) - strlen(path) - 1);
	return path;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t counted;

static int count(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	counted++;
	return 0;
}

static int copy_file(const char *from, const char *to, int repeat)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	int ok = in && out;
	if (ok) {
		fseek(in, 0, SEEK_END);
		long n = ftell(in);
		char *buf = malloc(n > 0 ? (size_t)n : 1);
		rewind(in);
		ok = buf && fread(buf, 1, (size_t)n, in) == (size_t)n;
		for (int i = 0; ok && i < repeat; i++)
			ok = fwrite(buf, 1, (size_t)n, out) == (size_t)n;
		free(buf);
	}
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* RUNS times of one thing: median, fastest, slowest. */
struct timing {
	double median, min, max;
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static struct timing summarise(double *t)
{
	qsort(t, RUNS, sizeof(*t), by_value);
	return (struct timing){t[RUNS / 2], t[0], t[RUNS - 1]};
}

/* Times a shell command RUNS times; median negative when it fails. */
static struct timing time_cmd(const char *cmd)
{
	double t[RUNS];
	for (int i = 0; i < RUNS; i++) {
		double t0 = now();
		if (system(cmd) != 0)
			return (struct timing){-1, -1, -1};
		t[i] = now() - t0;
	}
	return summarise(t);
}

/* The hwtrace command: $HWT_CLI, else tools/hwtrace of this build tree. */
static const char *cli(void)
{
	static char path[1024];
	const char *env = getenv("HWT_CLI");
	if (env && *env)
		return env;
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (n <= 0)
		return "hwtrace";
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	if (slash)
		*slash = '\0'; /* .../build/bench */
	slash = strrchr(path, '/');
	if (slash)
		*slash = '\0'; /* .../build */
	strcat(path, "/tools/hwtrace");
	return path;
}

static void print_row(const char *name, struct timing t, double mb)
{
	printf("  %-28s %8.3f s (%.3f-%.3f)  %8.2f MB/s\n", name, t.median,
	       t.min, t.max, mb / t.median);
}

typedef int (*decode_fn)(const char *path, const struct hwt_decode_opts *opts,
			 const struct hwt_elem_sink *sink);

/* RUNS decodes of @path into a counting sink; @symfs is set when not
 * NULL. */
static struct timing time_decode(decode_fn decode, const char *path,
				 const char *symfs, uint64_t *elems)
{
	double t[RUNS];
	for (int i = 0; i < RUNS; i++) {
		struct hwt_decode_opts opts = {.size = sizeof(opts)};
		if (symfs) {
			opts.lookup.size = sizeof(opts.lookup);
			opts.lookup.symfs = symfs;
		}
		struct hwt_elem_sink sink = {count, NULL};
		counted = 0;
		double t0 = now();
		if (decode(path, &opts, &sink) != 0) {
			fprintf(stderr, "hwtrace: %s\n", hwt_errmsg());
			return (struct timing){-1, -1, -1};
		}
		t[i] = now() - t0;
	}
	*elems = counted;
	return summarise(t);
}

/* The simpleperf capture with its one AUXTRACE buffer written @copies
 * times (each its own buffer, as a long full-trace session has). */
static int write_big_capture(const char *src, const char *dst, int copies,
			     uint64_t *bytes)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_writer *w;
	struct hwt_pd_record rec;
	int err = hwt_test_pd_copy_open(src, dst, &r, &w);
	if (err)
		return err;
	*bytes = 0;
	bool aux_done = false;
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1) {
		err = 0;
		if (rec.type >= 64 && rec.type != 70 && rec.type != 71)
			continue;
		if (rec.type == PERF_RECORD_AUX) {
			/* perf decodes the parts of AUXTRACE buffers that AUX
			 * records announce: one per copy of the 0x180-byte
			 * buffer, in place of the original four. */
			uint8_t aux[256];
			if (aux_done || rec.size > sizeof(aux) || rec.size < 32)
				continue;
			memcpy(aux, rec.data, rec.size);
			for (int i = 0; i < copies && !err; i++) {
				uint64_t off = (uint64_t)i * 0x180, size = 0x180;
				memcpy(aux + 8, &off, 8);
				memcpy(aux + 16, &size, 8);
				err = hwt_pd_writer_record(w, aux);
			}
			aux_done = true;
			continue;
		}
		if (rec.type != 71) {
			err = hwt_pd_writer_record(w, rec.data);
			continue;
		}
		struct hwt_pd_auxtrace aux = rec.aux;
		for (int i = 0; i < copies && !err; i++) {
			err = hwt_pd_writer_auxtrace(w, &aux, rec.aux_data);
			aux.offset += aux.size;
			*bytes += aux.size;
		}
	}
	int cerr = hwt_pd_writer_close(w);
	hwt_pd_reader_free(r);
	return err ? err : cerr;
}

static void make_dirs(const char *base)
{
	char p[600];
	static const char *const parts[] = {"/data", "/data/local",
					    "/data/local/tmp"};
	mkdir(base, 0700);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s%s", base, parts[i]);
		mkdir(p, 0700);
	}
}

/* `--raw cs_etm,...:TRACE --map FILE@ADDR...` for the snapshot @dir's
 * first buffer (an ETE source_data one) with @trace in its place. */
static int raw_arguments(const char *dir, const char *trace, char *buf,
			 size_t len)
{
	struct hwt_cs_snapshot *ss;
	if (hwt_cs_snapshot_load(dir, &ss) != 0)
		return -1;
	const struct hwt_cs_source *s = &ss->buffers[0].sources[0];
	int n = snprintf(buf, len, "--raw 'cs_etm,ete,traceid=0x%x,"
			 "configr=0x%x,idr0=0x%x,idr1=0x%x,idr2=0x%x,"
			 "idr8=0x%x,devarch=0x%x:%s'", s->trace_id,
			 s->cfg.ete.reg_configr, s->cfg.ete.reg_idr0,
			 s->cfg.ete.reg_idr1, s->cfg.ete.reg_idr2,
			 s->cfg.ete.reg_idr8, s->cfg.ete.reg_devarch, trace);
	for (size_t i = 0; i < ss->ndumps && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, " --map '%s@0x%" PRIx64
			      "'", ss->dumps[i].path, ss->dumps[i].address);
	hwt_cs_snapshot_free(ss);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Writes @tmp/ete_mem: the ete_mem snapshot with its trace buffer
 * repeated @repeats times, its path in @p, and the `hwtrace decode`
 * arguments that decode it as a raw stream in @args. */
static int make_raw_ete(const char *tmp, int repeats, char *ss, size_t ss_len,
			char *p, size_t p_len, char *args, size_t args_len)
{
	static const char *const files[] = {
		"snapshot.ini", "trace.ini", "cpu_0.ini", "ETE_0_s1.ini",
	};
	char from[600];
	snprintf(ss, ss_len, "%s/ete_mem", tmp);
	mkdir(ss, 0700);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(from, sizeof(from), "%s/opencsd/ete_mem/%s",
			 testdata(), files[i]);
		snprintf(p, p_len, "%s/%s", ss, files[i]);
		if (copy_file(from, p, 1) != 0)
			return -1;
	}
	snprintf(from, sizeof(from), "%s/opencsd/ete_mem/bindir", testdata());
	snprintf(p, p_len, "%s/bindir", ss);
	if (symlink(from, p) != 0)
		return -1;
	snprintf(from, sizeof(from), "%s/opencsd/ete_mem/session1.bin",
		 testdata());
	snprintf(p, p_len, "%s/session1.bin", ss);
	if (copy_file(from, p, repeats) != 0)
		return -1;
	return raw_arguments(ss, p, args, args_len);
}

/* ete_mem with its trace buffer repeated @repeats times: hwtrace decode
 * --raw with 1 and 2 threads against trc_pkt_lister -decode. */
static int bench_raw_ete(const char *tmp, int repeats)
{
	char ss[600], p[900], args[4096], cmd[6144];
	if (make_raw_ete(tmp, repeats, ss, sizeof(ss), p, sizeof(p), args,
			 sizeof(args)) != 0)
		return -1;
	struct stat st;
	stat(p, &st);
	double mb = st.st_size / 1e6;

	struct timing one, two, full;
	snprintf(cmd, sizeof(cmd), "'%s' decode %s -j 1 -o /dev/null "
		 "2>/dev/null", cli(), args);
	one = time_cmd(cmd);
	snprintf(cmd, sizeof(cmd), "'%s' decode %s -j 2 -o /dev/null "
		 "2>/dev/null", cli(), args);
	two = time_cmd(cmd);
	/* The in-process decode: OpenCSD runs isolated by default
	 * (docs/decode.md, "Isolated decoders"). */
	snprintf(cmd, sizeof(cmd), "'%s' decode %s -j 1 --no-isolate -o /dev/null "
		 "2>/dev/null", cli(), args);
	struct timing one_in = time_cmd(cmd);
	snprintf(cmd, sizeof(cmd),
		 "trc_pkt_lister -ss_dir '%s' -decode -logfilename /dev/null "
		 ">/dev/null 2>&1", ss);
	full = time_cmd(cmd);
	printf("raw ETE stream (ete_mem x%d, %.2f MB), median of %d "
	       "(fastest-slowest):\n", repeats, mb, RUNS);
	if (one.median < 0 || two.median < 0 || full.median < 0 ||
	    one_in.median < 0) {
		printf("  failed (hwtrace %s, trc_pkt_lister %s)\n",
		       one.median < 0 || two.median < 0 ? "failed" : "ok",
		       full.median < 0 ? "failed" : "ok");
		return -1;
	}
	print_row("hwtrace decode --raw -j 1", one, mb);
	print_row("hwtrace decode --raw -j 2", two, mb);
	print_row("hwtrace decode --raw -j 1 --no-isolate", one_in, mb);
	print_row("trc_pkt_lister -decode", full, mb);
	printf("  ratio -j 2/-j 1 speed: %.2f\n", one.median / two.median);
	printf("  ratio isolated/in-process -j 1 time: %.2f\n",
	       one.median / one_in.median);
	printf("  ratio command -j 1/trc_pkt_lister -decode speed: %.2f\n",
	       full.median / one.median);
	return 0;
}

/* Writes @tmp/perf.data (the simpleperf ETMv4 capture with its buffer
 * @copies times, @bytes of trace in all; its path in @big) and @tmp/symfs
 * (where its binary is found; its path in @symfs). */
static int make_etm_capture(const char *tmp, int copies, char big[600],
			    char symfs[600], uint64_t *bytes)
{
	char p[900], from[600];
	snprintf(symfs, 600, "%s/symfs", tmp);
	make_dirs(symfs);
	snprintf(p, sizeof(p), "%s/data/local/tmp/etm_test_loop", symfs);
	snprintf(from, sizeof(from), "%s/perf-data/simpleperf-etm/etm_test_loop",
		 testdata());
	if (symlink(from, p) != 0)
		return -1;
	snprintf(big, 600, "%s/perf.data", tmp);
	snprintf(from, sizeof(from), "%s/perf-data/simpleperf-etm/perf_etm.data",
		 testdata());
	if (write_big_capture(from, big, copies, bytes) != 0) {
		fprintf(stderr, "writing %s: %s\n", big, hwt_errmsg());
		return -1;
	}
	return 0;
}

/* The --write form: the inputs only, in @dir, for timing command lines
 * (bench/bench_capture_rate.sh): perf.data and symfs/ as above, and
 * ete_mem/ with ete.args, the `hwtrace decode` arguments of its raw
 * stream. */
static int write_inputs(const char *dir, int copies, int ete_repeats)
{
	char big[600], symfs[600], ss[600], p[900], args[4096];
	uint64_t bytes = 0;
	if (make_etm_capture(dir, copies, big, symfs, &bytes) != 0 ||
	    make_raw_ete(dir, ete_repeats, ss, sizeof(ss), p, sizeof(p), args,
			 sizeof(args)) != 0)
		return 1;
	snprintf(p, sizeof(p), "%s/ete.args", dir);
	FILE *f = fopen(p, "w");
	if (!f || fprintf(f, "%s\n", args) < 0 || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s\n", p);
		return 1;
	}
	printf("%s: %" PRIu64 " bytes of trace; %s\n", big, bytes, p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--write"))
		return write_inputs(argv[2], argc > 3 ? atoi(argv[3]) : 4096,
				    argc > 4 ? atoi(argv[4]) : 2048);
	int repeats = argc > 1 ? atoi(argv[1]) : 256;
	int copies = argc > 2 ? atoi(argv[2]) : 4096;
	int ete_repeats = argc > 3 ? atoi(argv[3]) : 2048;
	char tmp[] = "/tmp/hwt-bench-cs-XXXXXX";
	char ss[600], p[900], cmd[2048], symfs[600], big[600];
	static const char *const files[] = {
		"snapshot.ini", "trace.ini", "cpu_0.ini", "cpu_1.ini",
		"device_2.ini", "device_3.ini", "kernel_dump.bin",
	};
	int status = 0;

	if (!mkdtemp(tmp))
		return 1;
	snprintf(ss, sizeof(ss), "%s/Snowball", tmp);
	mkdir(ss, 0700);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char from[600];
		snprintf(from, sizeof(from), "%s/opencsd/Snowball/%s",
			 testdata(), files[i]);
		snprintf(p, sizeof(p), "%s/%s", ss, files[i]);
		if (copy_file(from, p, 1) != 0) {
			fprintf(stderr, "cannot copy %s\n", from);
			return 1;
		}
	}
	char from[600];
	snprintf(from, sizeof(from), "%s/opencsd/Snowball/cstrace.bin",
		 testdata());
	snprintf(p, sizeof(p), "%s/cstrace.bin", ss);
	if (copy_file(from, p, repeats) != 0)
		return 1;
	struct stat st;
	stat(p, &st);
	double mb = st.st_size / 1e6;

	uint64_t elems = 0;
	struct timing lib = time_decode(hwt_decode_snapshot_dir, ss, NULL, &elems);
	snprintf(cmd, sizeof(cmd), "'%s' decode --snapshot '%s' -o /dev/null "
		 "2>/dev/null", cli(), ss);
	struct timing ours = time_cmd(cmd);
	snprintf(cmd, sizeof(cmd),
		 "trc_pkt_lister -ss_dir '%s' -decode_only -logfilename /dev/null "
		 ">/dev/null 2>&1", ss);
	struct timing only = time_cmd(cmd);
	snprintf(cmd, sizeof(cmd),
		 "trc_pkt_lister -ss_dir '%s' -decode -logfilename /dev/null "
		 ">/dev/null 2>&1", ss);
	struct timing full = time_cmd(cmd);
	printf("snapshot (Snowball PTM x%d, %.2f MB, %" PRIu64 " elements), "
	       "median of %d (fastest-slowest):\n", repeats, mb, elems, RUNS);
	if (lib.median < 0 || ours.median < 0 || only.median < 0 ||
	    full.median < 0) {
		printf("  failed (hwtrace %s, trc_pkt_lister %s)\n",
		       ours.median < 0 || lib.median < 0 ? "failed" : "ok",
		       only.median < 0 || full.median < 0 ? "failed" : "ok");
		status = 1;
	} else {
		print_row("hwtrace decode (command)", ours, mb);
		print_row("hwtrace library, no output", lib, mb);
		print_row("trc_pkt_lister -decode_only", only, mb);
		print_row("trc_pkt_lister -decode", full, mb);
		printf("  ratio command/trc_pkt_lister -decode_only speed: %.2f\n",
		       only.median / ours.median);
		printf("  ratio command/trc_pkt_lister -decode speed: %.2f\n",
		       full.median / ours.median);
	}

	uint64_t bytes = 0;
	if (make_etm_capture(tmp, copies, big, symfs, &bytes) != 0)
		return 1;
	mb = bytes / 1e6;
	lib = time_decode(hwt_decode_file, big, symfs, &elems);
	snprintf(cmd, sizeof(cmd), "'%s' decode '%s' --symfs '%s' -o /dev/null "
		 "2>/dev/null", cli(), big, symfs);
	ours = time_cmd(cmd);
	snprintf(cmd, sizeof(cmd), "'%s' decode '%s' --symfs '%s' --no-isolate "
		 "-o /dev/null 2>/dev/null", cli(), big, symfs);
	struct timing ours_in = time_cmd(cmd);
	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' --itrace=b -F flags,ip,addr --symfs '%s' "
		 ">/dev/null 2>&1", big, symfs);
	struct timing peer = time_cmd(cmd);
	printf("perf.data (simpleperf ETMv4 buffer x%d, %.2f MB of trace, %"
	       PRIu64 " elements), median of %d (fastest-slowest):\n", copies,
	       mb, elems, RUNS);
	if (lib.median < 0 || ours.median < 0 || ours_in.median < 0 ||
	    peer.median < 0) {
		printf("  failed (hwtrace %s, perf script %s)\n",
		       ours.median < 0 || lib.median < 0 || ours_in.median < 0
			       ? "failed" : "ok",
		       peer.median < 0 ? "failed" : "ok");
		status = 1;
	} else {
		print_row("hwtrace decode (command)", ours, mb);
		print_row("hwtrace library, no output", lib, mb);
		print_row("hwtrace decode --no-isolate", ours_in, mb);
		print_row("perf script --itrace=b", peer, mb);
		printf("  ratio command/perf script speed: %.2f\n",
		       peer.median / ours.median);
		printf("  ratio isolated/in-process command time: %.2f\n",
		       ours.median / ours_in.median);
	}
	if (bench_raw_ete(tmp, ete_repeats) != 0)
		status = 1;
	if (getenv("HWT_BENCH_KEEP")) { printf("kept %s\n", tmp); return status; }
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return status;
}
