/* The trace unit the emulator's CoreSight cut reads from a cs_etm
 * AUXTRACE_INFO (core/emulator/emu_cs_info.c), on simpleperf's capture:
 * every CPU's trace ID and TRCIDR2 sizes are what perf's dump of the
 * same file (the stored `perf report -D` output) prints for it; a unit
 * the cut cannot re-encode is refused with its reason; a block that
 * claims more words than there are is not read past. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "perfdata_walk.h"
#include "core/emulator/emu_cs.h"

#define DIR HWT_TESTDATA "/perf-data/simpleperf-etm"

static uint64_t priv[128];
static size_t words;

/* The words after the header of the capture's PERF_RECORD_AUXTRACE_INFO
 * (type 70). */
static int load_info(void)
{
	size_t rsize, avail;
	const uint8_t *r = pd_walk_find(DIR "/perf_etm.data", 70, &rsize,
					&avail);
	if (!r || rsize < 16)
		return -1;
	words = (rsize - 16u) / 8;
	if (words > 128)
		return -1;
	memcpy(priv, r + 16, words * 8);
	return 0;
}

/* perf's dump: each CPU's TRCTRACEIDR and TRCIDR2. */
static int perf_regs(unsigned long *traceid, unsigned long *idr2)
{
	FILE *f = fopen(DIR "/perf_etm.data.perf-report-D.txt", "r");
	char line[256];
	int cpu = -1, n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long v;
		if (sscanf(line, " CPU %lu", &v) == 1 && v < 8)
			cpu = (int)v;
		else if (cpu >= 0 && sscanf(line, " TRCTRACEIDR %lx", &v) == 1)
			traceid[cpu] = v, n++;
		else if (cpu >= 0 && sscanf(line, " TRCIDR2 %lx", &v) == 1)
			idr2[cpu] = v;
	}
	if (f)
		fclose(f);
	return n;
}

static void every_cpu_as_perf(void)
{
	unsigned long traceid[8] = {0}, idr2[8] = {0};
	CHECK_INT(perf_regs(traceid, idr2), 8);
	for (int cpu = 0; cpu < 8; cpu++) {
		uint8_t id = 0;
		struct hwt_etm_cfg cfg = {9, 9};
		const char *why = "unset";
		CHECK_INT(hwt_emu_cs_source(priv, words, cpu, &id, &cfg, &why), 0);
		CHECK_INT(id, traceid[cpu]);
		CHECK_INT(cfg.cid_bytes, (idr2[cpu] >> 5) & 0x1f);
		CHECK_INT(cfg.vmid_bytes, (idr2[cpu] >> 10) & 0x1f);
		CHECK(why == NULL);
	}
	/* CPU 7: trace ID 0x1e, 4-byte context IDs and VMIDs. */
	CHECK_INT(traceid[7], 0x1e);
	CHECK_INT(idr2[7], 0x20001088);
}

/* @word of CPU 7's block (header 3 words, blocks of 3 + 7) set to @v. */
static const char *refused(size_t word, uint64_t v, int cpu, size_t nwords)
{
	static uint64_t copy[128];
	memcpy(copy, priv, sizeof(copy));
	if (word != (size_t)-1)
		copy[word] = v;
	uint8_t id;
	struct hwt_etm_cfg cfg;
	const char *why = NULL;
	int r = hwt_emu_cs_source(copy, nwords, cpu, &id, &cfg, &why);
	return r == -EOPNOTSUPP ? why : "accepted";
}

#define CPU7 (3 + 7 * 10)

static void refusals(void)
{
	CHECK_STR(refused(CPU7 + 3, 0x40 | 0x10, 7, words),
		  "the trace has cycle counts, which the cut does not re-encode");
	CHECK_STR(refused(CPU7 + 3, 0x40 | 0x80, 7, words),
		  "the trace has VMIDs, which the cut does not re-encode");
	CHECK_STR(refused(CPU7 + 3, 0x40 | 0x100, 7, words),
		  "the trace has conditional instruction trace, which the cut "
		  "does not re-encode");
	CHECK_STR(refused(CPU7, 0x5050505050505050ull, 7, words),
		  "the CPU's trace unit is not an ETMv4");
	CHECK_STR(refused(0, 2, 7, words), "the AUXTRACE_INFO is not version 1");
	CHECK_STR(refused((size_t)-1, 0, 8, words),
		  "the AUXTRACE_INFO does not describe the CPU's trace unit");
	/* CPU 6's block claims all the words there are and more. */
	CHECK_STR(refused(3 + 6 * 10 + 2, 1000, 7, words),
		  "the AUXTRACE_INFO does not describe the CPU's trace unit");
	/* The info cut short before CPU 7's registers. */
	CHECK_STR(refused((size_t)-1, 0, 7, CPU7 + 5),
		  "the AUXTRACE_INFO does not describe the CPU's trace unit");
	/* The control: the same words unchanged are accepted. */
	CHECK_STR(refused(CPU7 + 3, 0x40, 7, words), "accepted");
}

int main(void)
{
	CHECK_INT(load_info(), 0);
	/* Version 1: a 3-word header and 8 blocks of 3 + 7 words. */
	CHECK_INT(words, 3 + 8 * 10);
	RUN(every_cpu_as_perf);
	RUN(refusals);
	return hwt_test_summary();
}
