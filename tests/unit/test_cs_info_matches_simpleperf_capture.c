/* cs_etm's AUXTRACE_INFO priv words equal, word for word, the header and
 * the eight ETMv4 blocks of a real capture (simpleperf's perf_etm.data,
 * which perf 6.1 reads: perf report -D prints them), when built from a
 * sysfs fixture holding that board's trcidr/mgmt register files. ETE and
 * ETMv3/PTM blocks are checked against perf's layout with register values
 * from OpenCSD's snapshots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_bytes.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/arm-cs/cs_info.h"
#include "backends/arm-cs/cs_meta.h"

#define CAPTURE HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"
#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/meta/"

/* perf report -D: AUXTRACE_INFO at file offset 0x408, 0x2a8 bytes, i.e.
 * 83 priv words: a 3-word header and 8 blocks of 10. */
#define INFO_OFF 0x408
#define INFO_SIZE 0x2a8
#define INFO_WORDS ((INFO_SIZE - 16) / 8)

static uint8_t file_bytes[INFO_OFF + INFO_SIZE];
static int have_file;

static void load_capture(void)
{
	have_file = hwt_test_read_head(CAPTURE, file_bytes, sizeof(file_bytes));
}

static void check_equals_capture(const uint64_t *priv, int n)
{
	const uint8_t *rec = file_bytes + INFO_OFF;
	int diffs = 0;

	CHECK_INT(n, INFO_WORDS);
	if (n != INFO_WORDS)
		return;
	for (int i = 0; i < INFO_WORDS; i++) {
		uint64_t want = hwt_test_le64(rec + 16 + 8 * i);

		if (priv[i] != want && diffs++ < 5)
			fprintf(stderr, "priv[%d] = 0x%llx, capture 0x%llx\n", i,
				(unsigned long long)priv[i], (unsigned long long)want);
		CHECK_U64(priv[i], want);
	}
}

static void test_words_equal_capture(void)
{
	const uint8_t *rec = file_bytes + INFO_OFF;
	/* simpleperf traced with contextid (config bit 14); perf recorded
	 * TRCCONFIGR 0x40 from it. */
	struct perf_event_attr attr = {.type = 8, .config = 1ull << 14};
	int cpus[] = {7, 0, 1, 2, 3, 4, 5, 6, 3};
	uint64_t priv[128];
	struct hwt_os *os;
	int n;

	CHECK(have_file);
	if (!have_file)
		return;
	CHECK_INT(rec[0] | rec[1] << 8, 70);
	CHECK_INT(rec[6] | rec[7] << 8, INFO_SIZE);
	CHECK_U64(hwt_test_le64(rec + 8) & 0xffffffff, HWT_AUXTRACE_CS_ETM);

	os = hwt_os_linux_new(FIXTURES "simpleperf-etm");
	CHECK(os != NULL);
	/* CPUs out of order and twice: perf walks them in CPU order. */
	n = hwt_cs_info(os, NULL, &attr, cpus, 9, false, NULL, priv, 128);
	if (n < 0)
		fprintf(stderr, "error: %s\n", hwt_errmsg());
	check_equals_capture(priv, n);
	/* What perf report -D printed, spelled out. */
	CHECK_U64(priv[HWT_CS_HDR_VERSION], 1);
	CHECK_U64(priv[HWT_CS_HDR_PMU_TYPE_CPUS], 0x800000008ull);
	CHECK_U64(priv[3 + 10 * 7 + HWT_CS_BLK_MAGIC], 0x4040404040404040ull);
	CHECK_U64(priv[3 + 10 * 7 + HWT_CS_BLK_CPU], 7);
	CHECK_U64(priv[3 + 10 * 7 + HWT_CS_BLK_NR_PARAMS], 7);
	CHECK_U64(priv[3 + 10 * 7 + HWT_CS_ETMV4_TRCTRACEIDR], 0x1e);
	CHECK_U64(priv[3 + 10 * 7 + HWT_CS_ETMV4_TRCIDR1], 0x4100f423);

	/* A per-thread session describes every online CPU: the same words. */
	memset(priv, 0, sizeof(priv));
	n = hwt_cs_info(os, NULL, &attr, NULL, 0, false, NULL, priv, 128);
	check_equals_capture(priv, n);
	hwt_os_free(os);
}

/* The same from the trace units a PMU scan builds. */
static void test_words_from_pmu_struct(void)
{
	static const char *names[] = {"trcidr0", "trcidr1", "trcidr2",
				      "trcidr8", "trcauthstatus"};
	struct hwt_trace_reg regs[8][5];
	struct hwt_trace_unit units[8];
	struct hwt_pmu pmu = {.name = "cs_etm", .type = 8, .nunits = 8,
			      .units = units};
	struct perf_event_attr attr = {.type = 8, .config = 1ull << 14};
	uint64_t priv[128];
	int n;

	if (!have_file) {
		CHECK(have_file);
		return;
	}
	for (int c = 0; c < 8; c++) {
		uint64_t vals[] = {0x28000ea1, c >= 6 ? 0x4100f423 : 0x4100f422,
				   0x20001088, 0, 0x8c};

		for (int r = 0; r < 5; r++) {
			snprintf(regs[c][r].name, sizeof(regs[c][r].name), "%s",
				 names[r]);
			regs[c][r].value = vals[r];
		}
		units[c] = (struct hwt_trace_unit){.cpu = c, .kind = HWT_TU_ETMV4,
						   .nregs = 5, .regs = regs[c]};
	}
	n = hwt_cs_info(NULL, &pmu, &attr, NULL, 0, false, NULL, priv, 128);
	check_equals_capture(priv, n);
}

/* ETE (TRCDEVARCH ARCHVER 5, ARCHPART 0xa13), PTM and ETMv4 (ARCHVER 4)
 * blocks, in perf's layout: 11, 7 and 10 words. */
static void test_ete_ptm_etmv4_blocks(void)
{
	uint64_t config = (1ull << HWT_CS_OPT_CYCACC) | (1ull << HWT_CS_OPT_TS) |
			  (1ull << HWT_CS_OPT_RETSTK) |
			  (1ull << HWT_CS_OPT_CTXTID2) |
			  (1ull << HWT_CS_OPT_BRANCH_BROADCAST);
	struct perf_event_attr attr = {.type = 9, .config = config};
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "mixed");
	int cpus[] = {0, 1, 2};
	uint64_t priv[64];
	const uint64_t *b;
	int n;

	n = hwt_cs_info(os, NULL, &attr, cpus, 3, true, NULL, priv, 64);
	CHECK_INT(n, 3 + 11 + 7 + 10);
	if (n != 31) {
		fprintf(stderr, "error: %s\n", hwt_errmsg());
		hwt_os_free(os);
		return;
	}
	CHECK_U64(priv[0], 1);
	CHECK_U64(priv[1], (9ull << 32) | 3);
	CHECK_U64(priv[2], 1);

	/* ETE, registers of OpenCSD's ete_mem snapshot. TRCCONFIGR: CYCACC
	 * bit 4, TS 11, RETSTK 12, VMID 7 + VMIDOPT 15, BB 3. */
	b = &priv[3];
	CHECK_U64(b[0], 0x5050505050505050ull);
	CHECK_U64(b[1], 0);
	CHECK_U64(b[2], 8);
	CHECK_U64(b[3], 0x9898);
	CHECK_U64(b[4], 0x10);
	CHECK_U64(b[5], 0x2801cea1);
	CHECK_U64(b[6], 0x4100fff0);
	CHECK_U64(b[7], 0xd0001088);
	CHECK_U64(b[8], 0);
	CHECK_U64(b[9], 0xcc);
	CHECK_U64(b[10], 0x47705a13);

	/* PTM, registers of trace_cov_a15's PTM_0_2: ETMCR is attr.config
	 * itself. */
	b = &priv[14];
	CHECK_U64(b[0], 0x3030303030303030ull);
	CHECK_U64(b[1], 1);
	CHECK_U64(b[2], 4);
	CHECK_U64(b[3], config);
	CHECK_U64(b[4], 0x12);
	CHECK_U64(b[5], 0x34c01ac2);
	CHECK_U64(b[6], 0x411cf312);

	/* TRCDEVARCH with ARCHVER 4: an ETMv4, its TRCDEVARCH not recorded. */
	b = &priv[21];
	CHECK_U64(b[0], 0x4040404040404040ull);
	CHECK_U64(b[1], 2);
	CHECK_U64(b[2], 7);
	CHECK_U64(b[3], 0x9898);
	CHECK_U64(b[4], 0x14);
	CHECK_U64(b[5], 0x28000ea1);
	CHECK_U64(b[9], 0x8c);
	hwt_os_free(os);
}

static void test_trcconfigr_mapping(void)
{
	/* perf's cs_etmv4_get_config: only these options reach TRCCONFIGR. */
	CHECK_U64(hwt_cs_trcconfigr_from_config(0), 0);
	CHECK_U64(hwt_cs_trcconfigr_from_config(1ull << 14), 0x40);
	CHECK_U64(hwt_cs_trcconfigr_from_config(1ull << 28), 0x800);
	CHECK_U64(hwt_cs_trcconfigr_from_config(1ull << 12), 0x10);
	CHECK_U64(hwt_cs_trcconfigr_from_config(1ull << 15), 0x8080);
	CHECK_U64(hwt_cs_trcconfigr_from_config(1ull << 8), 0x8);
	CHECK_U64(hwt_cs_trcconfigr_from_config(1ull << 29), 0x1000);
	CHECK_U64(hwt_cs_trcconfigr_from_config(0xffffffffull << 32), 0);
}

static void test_errors_name_the_problem(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "mixed");
	struct perf_event_attr attr = {.type = 9};
	struct perf_event_attr other = {.type = 6};
	int offline[] = {3}, no_unit[] = {4}, two[] = {0, 1};
	uint64_t priv[64];

	CHECK_INT(hwt_cs_info(os, NULL, &attr, offline, 1, false, NULL, priv, 64),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "CPU 3 is not online");
	CHECK_INT(hwt_cs_info(os, NULL, &attr, no_unit, 1, false, NULL, priv, 64),
		  HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "CPU 4 has no trace unit");
	/* Per-thread: every online CPU, and CPU 4 has none. */
	CHECK_INT(hwt_cs_info(os, NULL, &attr, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_NOENT);
	CHECK_INT(hwt_cs_info(os, NULL, &other, two, 2, false, NULL, priv, 64),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "type 6");
	CHECK_INT(hwt_cs_info(os, NULL, &attr, two, 2, false, NULL, priv, 20),
		  HWT_ERR_NOSPC);
	CHECK_CONTAINS(hwt_errmsg(), "needs 21 words");
	hwt_os_free(os);
}

int main(void)
{
	load_capture();
	RUN(test_words_equal_capture);
	RUN(test_words_from_pmu_struct);
	RUN(test_ete_ptm_etmv4_blocks);
	RUN(test_trcconfigr_mapping);
	RUN(test_errors_name_the_problem);
	return hwt_test_summary();
}
