/* The highest trace rate the capture path sustains without loss: the
 * kernel emulator produces at a set rate into AUX buffers of 128 KiB,
 * 4 MiB and 64 MiB, hwtrace's session reads them into a perf.data file on
 * tmpfs. Printed beside a plain memcpy of the same bytes measured in the
 * same run, as a ratio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/session.h"

#define PMU_TYPE 42
#define SRC_LEN (16u << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* sqrt(a * b) by Newton's method: no libm for one number. */
static double geo_mean(double a, double b)
{
	double x = a * b, r = (a + b) / 2;

	for (int i = 0; i < 60; i++)
		r = (r + x / r) / 2;
	return r;
}

struct wsink {
	struct hwt_pd_writer *w;
	uint8_t *bounce;
};

static int on_record(void *ctx, const struct perf_event_header *h)
{
	return hwt_pd_writer_record(((struct wsink *)ctx)->w, h);
}

static int on_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		  const void *d1, uint64_t l1, const void *d2)
{
	struct wsink *ws = ctx;

	if (!d2)
		return hwt_pd_writer_auxtrace(ws->w, hdr, d1);
	memcpy(ws->bounce, d1, l1);
	memcpy(ws->bounce + l1, d2, hdr->size - l1);
	return hwt_pd_writer_auxtrace(ws->w, hdr, ws->bounce);
}

/* One capture of @total bytes at @rate (0: unlimited). Returns the bytes
 * lost (dropped AUX bytes + lost records) or -1; *secs the duration. */
static long long run(const uint8_t *src, uint64_t total, uint64_t aux_size,
		     uint64_t rate, const char *path, double *secs)
{
	static const int cpu0[] = {0};
	struct hwt_emu_opts eo = {
		.size = sizeof(eo),
		.rate = rate,
		.burst = aux_size / 32 < 65536 ? aux_size / 32 : 65536,
	};
	struct hwt_session_opts so;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = NULL;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;
	struct wsink ws = {NULL, malloc(aux_size)};
	double t0;
	int ret;

	if (hwt_emu_new(&eo, &emu) || hwt_emu_add_pmu(emu, "intel_pt", PMU_TYPE) ||
	    hwt_emu_stream_aux(emu, 0, src, total < SRC_LEN ? total : SRC_LEN,
			       total < SRC_LEN ? 1 : total / SRC_LEN) ||
	    hwt_pd_writer_open(path, &ws.w))
		goto fail;
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.os = hwt_emu_os(emu);
	so.aux = true;
	so.aux_attr.type = PMU_TYPE;
	so.aux_attr.size = sizeof(so.aux_attr);
	so.aux_attr.aux_watermark = (uint32_t)(aux_size / 4);
	so.cpus = cpu0;
	so.ncpus = 1;
	so.pid = -1;
	so.data_pages = 64;
	so.aux_pages = (uint32_t)(aux_size / (uint64_t)sysconf(_SC_PAGESIZE));
	so.sink = (struct hwt_capture_sink){&ws, on_record, on_aux};
	if (hwt_session_new(&so, &s))
		goto fail;
	if (hwt_pd_writer_add_attr(ws.w, &so.aux_attr, NULL, 0, "intel_pt"))
		goto fail;
	t0 = now();
	if (hwt_session_open(s))
		goto fail;
	while ((ret = hwt_session_poll(s, 10, NULL, 0)) == 0)
		;
	if (ret < 0 || hwt_session_stop(s))
		goto fail;
	*secs = now() - t0;
	hwt_session_stats(s, 0, &cs);
	hwt_emu_stream_stats(emu, 0, &es);
	hwt_session_free(s);
	hwt_emu_free(emu);
	hwt_pd_writer_close(ws.w);
	unlink(path);
	free(ws.bounce);
	return (long long)(es.dropped + cs.lost_records);
fail:
	fprintf(stderr, "bench_emu_rate: %s\n", hwt_errmsg());
	hwt_session_free(s);
	hwt_emu_free(emu);
	if (ws.w)
		hwt_pd_writer_close(ws.w);
	unlink(path);
	free(ws.bounce);
	return -1;
}

int main(void)
{
	static const uint64_t sizes[] = {128u << 10, 4u << 20, 64u << 20};
	uint8_t *src = malloc(SRC_LEN), *dst = malloc(SRC_LEN);
	char path[64];
	const uint64_t total = 256u << 20;
	double t, memcpy_rate;

	if (!src || !dst)
		return 1;
	for (uint32_t i = 0; i < SRC_LEN; i++)
		src[i] = (uint8_t)(i * 131 + (i >> 9));
	snprintf(path, sizeof(path), "/dev/shm/hwt-bench-%d.data", (int)getpid());

	/* The peer: memcpy of the same 256 MiB, 16 MiB at a time. */
	memcpy(dst, src, SRC_LEN);
	t = now();
	for (uint64_t done = 0; done < total; done += SRC_LEN) {
		memcpy(dst, src, SRC_LEN);
		__asm__ __volatile__("" : : "r"(dst) : "memory");
	}
	memcpy_rate = (double)total / (now() - t);

	printf("%-10s %20s %14s %8s  %s\n", "AUX size", "loss-free rate",
	       "memcpy", "ratio", "unthrottled producer");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		double secs = 0, best = 0, lo = 1e6, hi = memcpy_rate * 2;
		long long lost = run(src, total, sizes[k], 0, path, &secs);
		double unlimited = (double)total / secs;

		if (lost < 0)
			return 1;
		if (lost == 0) {
			best = unlimited;
		} else {
			/* Bisect the rate, in log space, between 1 MB/s and
			 * twice memcpy; each try runs about a quarter second
			 * (at least four buffers' worth, in whole 1 MiB). */
			for (int it = 0; it < 12; it++) {
				double mid = geo_mean(lo, hi);
				uint64_t n = (uint64_t)(mid / 4);
				if (n < 4 * sizes[k])
					n = 4 * sizes[k];
				n = (n + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
				if (n > SRC_LEN)
					n = n / SRC_LEN * SRC_LEN;
				if (n > total)
					n = total;
				long long l = run(src, n, sizes[k], (uint64_t)mid, path,
						  &secs);
				if (l < 0)
					return 1;
				if (l == 0)
					lo = mid;
				else
					hi = mid;
			}
			best = lo;
		}
		printf("%-10s %15.0f MB/s %9.0f MB/s %8.4f  %s\n",
		       k == 0 ? "128 KiB" : k == 1 ? "4 MiB" : "64 MiB",
		       best / 1e6, memcpy_rate / 1e6, best / memcpy_rate,
		       lost == 0 ? "kept up" : "lost data (rate bisected)");
	}
	free(src);
	free(dst);
	return 0;
}
