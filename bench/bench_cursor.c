/* The cursor's own cost: every element of a capture pulled with
 * hwt_cursor_next_batch into a buffer of records (as the Python
 * package's element_batches does), and with hwt_cursor_next one at a
 * time, against the same decode pushed into a counting sink on the
 * calling thread (hwt_decode_file, what `hwtrace decode` runs before it
 * formats anything). What the cursor adds is its handoff between the
 * decode's thread and the reader's and its conversion to records.
 *
 * Each variant runs RUNS times, alternated, in stream order and in time
 * order (the merge in front of the cursor, as `hwtrace decode` orders
 * elements); CPU seconds are the process's (both threads), the median
 * and spread (max - min) printed with the load average, as other work on
 * the machine slows every run. The counts and a checksum of every
 * element's type, CPU, from, to and count must agree across variants, or
 * the bench says so and fails.
 *
 * Usage: bench_cursor FILE [RUNS [BATCH]]   (FILE: a perf.data, e.g.
 *        from bench_pt_decode --write DIR; RUNS default 5; BATCH, the
 *        records of a call, default 65536: 7 MiB, more than the caches,
 *        so their writes cost what the caller's NumPy arrays cost) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwtrace/capture.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"

/* Records a hwt_cursor_next_batch call fills (the Python package's
 * element_batches default); a third argument changes it. */
static size_t batch = 65536;
#define MAX_RUNS 51

struct tally {
	uint64_t n, sum;
};

static void add(struct tally *t, uint32_t type, int32_t cpu, uint64_t from,
		uint64_t to, uint64_t count)
{
	t->n++;
	t->sum = t->sum * 31 + type + (uint64_t)(uint32_t)cpu + from * 3 +
		 to * 5 + count * 7;
}

/* The fields the tally reads, from an element the way a record has them. */
static void add_elem(struct tally *t, const struct hwt_elem *e)
{
	struct hwt_elem_record r;
	hwt_elem_record_from_elem(&r, e);
	add(t, r.type, r.cpu, r.from, r.to, r.count);
}

static int count_emit(void *arg, const struct hwt_elem *e)
{
	add_elem(arg, e);
	return 0;
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

enum variant { PUSH, BATCHES, ONE_BY_ONE, NVARIANTS };
static const char *const names[NVARIANTS] = {
	"hwt_decode_file into a counting sink",
	"hwt_cursor_next_batch, BATCH a call",
	"hwt_cursor_next, one a call",
};

static const char *path;
static struct hwt_capture *cap;
static struct hwt_elem_record *buf;

static void expect_streams(void *arg, const struct hwt_decode_progress *p)
{
	if (!p->done)
		hwt_merge_expect_streams(arg, p->streams);
}

static int run_push(bool by_time, struct tally *t)
{
	struct hwt_decode_opts d = {.size = sizeof(d), .jobs = 1};
	struct hwt_elem_sink sink = {count_emit, t};
	if (!by_time)
		return hwt_decode_file(path, &d, &sink);
	/* The merge by time on this thread, as a time-ordered cursor runs
	 * it on its own. */
	struct hwt_merge *merge;
	int err = hwt_merge_new(&sink, &merge);
	if (err < 0)
		return err;
	struct hwt_elem_sink into = hwt_merge_sink(merge);
	d.progress = expect_streams;
	d.progress_arg = merge;
	err = hwt_decode_file(path, &d, &into);
	int ferr = hwt_merge_finish(merge);
	hwt_merge_free(merge);
	return err < 0 ? err : ferr;
}

static int run_cursor(enum variant v, bool by_time, struct tally *t)
{
	struct hwt_cursor_opts o = {.size = sizeof(o), .jobs = 1,
				    .order = by_time ? HWT_CURSOR_ORDER_TIME :
						       HWT_CURSOR_ORDER_STREAM};
	struct hwt_cursor *cur;
	int err = hwt_cursor_new(cap, &o, &cur);
	if (err < 0)
		return err;
	int64_t got;
	if (v == BATCHES) {
		while ((got = hwt_cursor_next_batch(cur, buf, batch)) > 0)
			for (int64_t i = 0; i < got; i++)
				add(t, buf[i].type, buf[i].cpu, buf[i].from,
				    buf[i].to, buf[i].count);
	} else {
		struct hwt_elem e;
		while ((got = hwt_cursor_next(cur, &e)) > 0)
			add_elem(t, &e);
	}
	hwt_cursor_free(cur);
	return got < 0 ? (int)got : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs every variant @runs times, alternated; false when one failed or
 * the variants disagree. */
static bool one_order(bool by_time, int runs)
{
	double cpu[NVARIANTS][MAX_RUNS], wall[NVARIANTS][MAX_RUNS];
	struct tally first[NVARIANTS];
	for (int r = 0; r < runs; r++) {
		for (int v = 0; v < NVARIANTS; v++) {
			struct tally t = {0, 0};
			double w0 = wall_now(), c0 = cpu_now();
			int err = v == PUSH ? run_push(by_time, &t) :
					      run_cursor((enum variant)v, by_time, &t);
			cpu[v][r] = cpu_now() - c0;
			wall[v][r] = wall_now() - w0;
			if (err < 0) {
				fprintf(stderr, "bench_cursor: %s: %s\n", path,
					hwt_errmsg());
				return false;
			}
			if (!r)
				first[v] = t;
			if (t.n != first[0].n || t.sum != first[0].sum) {
				fprintf(stderr, "bench_cursor: %s: %s gave %" PRIu64
					" elements (checksum %016" PRIx64 "), the push "
					"decode %" PRIu64 " (%016" PRIx64 ")\n",
					path, names[v], t.n, t.sum, first[0].n,
					first[0].sum);
				return false;
			}
		}
	}
	printf("%s order, %" PRIu64 " elements, %d runs each, median (spread):\n",
	       by_time ? "time" : "stream", first[0].n, runs);
	double base = 0;
	for (int v = 0; v < NVARIANTS; v++) {
		double lo = cpu[v][0], hi = cpu[v][0];
		for (int r = 1; r < runs; r++) {
			lo = cpu[v][r] < lo ? cpu[v][r] : lo;
			hi = cpu[v][r] > hi ? cpu[v][r] : hi;
		}
		double c = median(cpu[v], runs), w = median(wall[v], runs);
		if (v == PUSH)
			base = c;
		printf("  %-40s CPU %.3f s (%.3f)  wall %.3f s  %.1f M elements/CPU s"
		       "  %.2fx the push decode\n", names[v], c, hi - lo, w,
		       first[0].n / c / 1e6, base > 0 ? c / base : 0);
	}
	return true;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench_cursor FILE [RUNS [BATCH]]\n");
		return 2;
	}
	path = argv[1];
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "bench_cursor: RUNS %s: give 1 to %d\n", argv[2],
			MAX_RUNS);
		return 2;
	}
	if (argc > 3 && (batch = strtoul(argv[3], NULL, 10)) < 1) {
		fprintf(stderr, "bench_cursor: BATCH %s: give a count of records, "
			"1 or more\n", argv[3]);
		return 2;
	}
	if (hwt_capture_open(path, NULL, &cap) < 0) {
		fprintf(stderr, "bench_cursor: %s\n", hwt_errmsg());
		return 1;
	}
	buf = malloc(batch * sizeof(*buf));
	if (!buf) {
		fprintf(stderr, "bench_cursor: out of memory\n");
		return 1;
	}
	double load[3] = {0, 0, 0};
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
			load[0] = -1;
		fclose(f);
	}
	printf("%s, batches of %zu, load average %.2f\n", path, batch, load[0]);
	bool ok = one_order(false, runs) && one_order(true, runs);
	free(buf);
	hwt_capture_free(cap);
	return ok ? 0 : 1;
}
