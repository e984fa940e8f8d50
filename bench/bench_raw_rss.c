/* Peak memory of `hwtrace decode --raw` as the raw trace grows.
 *
 * An untimed Intel PT stream (no TSC, MTC or CYC packet, as qemu writes
 * it) is made here: a PSB+ every 4 KiB restating the IP, then short TNT
 * packets (six taken bits each) between PAD bytes, over a loop of three
 * instructions (nop; nop; jne back). The 8x trace is the 1x one (2 MiB)
 * eight times. Each is decoded RUNS times with -j 1 and -j 2, text to
 * /dev/null, the sizes in turns; each decoding process's peak RSS is the
 * kernel's (wait4's ru_maxrss; this small process starts it, so nothing
 * of a big parent is counted). Printed: median and spread of each, the
 * ratio of the 8x median to the 1x median (the goal: at most 1.1, memory
 * flat in trace size) and the load average.
 *
 * Usage: bench_raw_rss HWTRACE [RUNS]   (HWTRACE: the CLI, build/tools/hwtrace) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/peak_rss.h"

#define ORG "0x400000"
#define MAX_RUNS 15

static char dir[] = "/tmp/bench-raw-rss-XXXXXX";
static char code[64], trace[2][64];

static int write_stream(const char *path, int times)
{
	static const unsigned char psbplus[] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, /* PSB */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x99, 0x01,                                     /* MODE.Exec 64 */
		0x7d, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00,       /* FUP ORG */
		0x02, 0x23,                                     /* PSBEND */
	};
	unsigned char page[4096] = {0};
	memcpy(page, psbplus, sizeof(psbplus));
	for (size_t i = sizeof(psbplus); i + 64 <= sizeof(page); i += 64)
		page[i] = 0xfe; /* TNT: six taken; the rest PAD */
	FILE *f = fopen(path, "wb");
	int ok = f != NULL;
	for (int i = 0; ok && i < times * 512; i++)
		ok = fwrite(page, sizeof(page), 1, f) == 1;
	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* The peak RSS (KiB) of one decode, or -1. */
static long peak_kib(const char *hwtrace, const char *pt, const char *jobs)
{
	char raw[160], map[160];
	snprintf(raw, sizeof(raw), "intel_pt:%s", pt);
	snprintf(map, sizeof(map), "%s@" ORG, code);
	const char *argv[] = {hwtrace, "decode", "--raw", raw, "--map", map,
			      "-j", jobs, "-o", "/dev/null", NULL};
	return peak_rss_kib(argv);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_raw_rss HWTRACE [RUNS]\n");
		return 2;
	}
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	if (runs < 1 || runs > MAX_RUNS)
		runs = 3;
	if (!mkdtemp(dir))
		return perror("mkdtemp"), 1;
	snprintf(code, sizeof(code), "%s/loop.bin", dir);
	snprintf(trace[0], sizeof(trace[0]), "%s/untimed-1x.pt", dir);
	snprintf(trace[1], sizeof(trace[1]), "%s/untimed-8x.pt", dir);
	static const unsigned char loop[] = {0x90, 0x90, 0x75, 0xfc};
	FILE *f = fopen(code, "wb");
	int err = !f || fwrite(loop, sizeof(loop), 1, f) != 1;
	if (f && fclose(f))
		err = 1;
	err = err || write_stream(trace[0], 1) || write_stream(trace[1], 8);
	long got[2][2][MAX_RUNS];
	double load[3];
	if (!err && getloadavg(load, 3) == 3)
		printf("load average before: %.2f %.2f %.2f\n", load[0], load[1],
		       load[2]);
	for (int r = 0; r < runs && !err; r++)
		for (int j = 0; j < 2 && !err; j++)
			for (int x = 0; x < 2 && !err; x++)
				err = (got[j][x][r] = peak_kib(argv[1], trace[x],
							       j ? "2" : "1")) < 0;
	if (!err && getloadavg(load, 3) == 3)
		printf("load average after: %.2f %.2f %.2f\n", load[0], load[1],
		       load[2]);
	for (int j = 0; j < 2 && !err; j++) {
		double med[2];
		for (int x = 0; x < 2; x++) {
			long *v = got[j][x];
			qsort(v, (size_t)runs, sizeof(*v), cmp_long);
			med[x] = runs % 2 ? v[runs / 2]
					  : (v[runs / 2 - 1] + v[runs / 2]) / 2.0;
			printf("-j %d %dx (%2d MiB of trace): peak RSS %.1f MiB "
			       "(%.1f..%.1f, %d runs)\n", j + 1, x ? 8 : 1,
			       x ? 16 : 2, med[x] / 1024, v[0] / 1024.0,
			       v[runs - 1] / 1024.0, runs);
		}
		printf("-j %d 8x / 1x: %.3f (goal <= 1.1)\n", j + 1,
		       med[1] / med[0]);
	}
	if (err)
		fprintf(stderr, "bench_raw_rss: a file or a decode failed\n");
	unlink(code);
	unlink(trace[0]);
	unlink(trace[1]);
	rmdir(dir);
	return err ? 1 : 0;
}
