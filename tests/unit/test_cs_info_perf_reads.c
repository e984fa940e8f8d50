/* Linux perf 6.1 reads the cs_etm AUXTRACE_INFO hwtrace writes: a
 * perf.data holding it, written with the perf.data writer, makes
 * `perf report -D` print the values it was built from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "backends/arm-cs/cs_info.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/mixed"
#define PERF "/usr/bin/perf"

static char report[1 << 16];

/* Writes a perf.data with one intel_pt event and the AUXTRACE_INFO of
 * @priv, then keeps perf report -D's output in report[]. */
static int perf_dump(const uint64_t *priv, int n)
{
	char dir[] = "/tmp/hwt-cs-info-XXXXXX", path[64], cmd[256];
	struct perf_event_attr attr = {.size = sizeof(attr), .type = 9,
				       .sample_type = PERF_SAMPLE_IDENTIFIER |
						      PERF_SAMPLE_TID |
						      PERF_SAMPLE_TIME |
						      PERF_SAMPLE_CPU,
				       .sample_id_all = 1};
	static const uint8_t build_id[20] = {0x12, 0x34};
	uint64_t id = 1, rec[80];
	struct hwt_pd_writer *w;
	size_t got = 0;
	FILE *p;

	if (access(PERF, X_OK) != 0) {
		fprintf(stderr, "%s is missing: install Debian's linux-perf; this "
			"test checks perf reads what hwtrace writes\n", PERF);
		return -1;
	}
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	if (hwt_pd_writer_open(path, &w) < 0)
		return -1;
	hwt_pd_writer_add_attr(w, &attr, &id, 1, "cs_etm//u");
	/* A build id, as real captures have: the writer's empty build id
	 * section trips UBSan (memcpy from NULL) in core/perfdata_host.c. */
	hwt_pd_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, build_id, 20,
				   "/bin/ls");
	memset(rec, 0, sizeof(rec));
	rec[0] = HWT_PD_RECORD_AUXTRACE_INFO | (uint64_t)(16 + 8 * n) << 48;
	rec[1] = HWT_AUXTRACE_CS_ETM;
	memcpy(&rec[2], priv, 8 * (size_t)n);
	if (hwt_pd_writer_record(w, rec) < 0 || hwt_pd_writer_close(w) < 0) {
		fprintf(stderr, "writing %s: %s\n", path, hwt_errmsg());
		return -1;
	}
	snprintf(cmd, sizeof(cmd), PERF " report -D -i %s 2>&1", path);
	p = popen(cmd, "r");
	if (p) {
		got = fread(report, 1, sizeof(report) - 1, p);
		pclose(p);
	}
	report[got] = '\0';
	unlink(path);
	rmdir(dir);
	return 0;
}

static void test_perf_prints_our_values(void)
{
	/* cycacc, timestamp, return stack, contextid2 and branch broadcast:
	 * ETMCR for the PTM, TRCCONFIGR 0x9898 for ETE and ETMv4. */
	struct perf_event_attr attr = {.type = 9, .config = 0x3000b100};
	int cpus[] = {0, 1, 2};
	uint64_t priv[64];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	int n;

	n = hwt_cs_info(os, NULL, &attr, cpus, 3, false, priv, 64);
	hwt_os_free(os);
	CHECK_INT(n, 31);
	if (n != 31)
		return;
	CHECK_INT(perf_dump(priv, n), 0);
	/* perf's cs_etm__print_auxtrace_info: the header, then each block
	 * by its magic number. */
	CHECK_CONTAINS(report, "PERF_RECORD_AUXTRACE_INFO type: 3");
	CHECK_CONTAINS(report, "\tHeader version\t\t       1\n");
	CHECK_CONTAINS(report, "\tPMU type/num cpus\t       900000003\n");
	CHECK_CONTAINS(report, "\tSnapshot\t\t       0\n");
	/* ETE on CPU 0. */
	CHECK_CONTAINS(report,
		       "\tMagic number\t\t       5050505050505050\n"
		       "\tCPU\t\t\t       0\n"
		       "\tNR_TRC_PARAMS\t\t       8\n"
		       "\tTRCCONFIGR\t\t       9898\n"
		       "\tTRCTRACEIDR\t\t       10\n"
		       "\tTRCIDR0\t\t\t       2801cea1\n"
		       "\tTRCIDR1\t\t\t       4100fff0\n"
		       "\tTRCIDR2\t\t\t       d0001088\n"
		       "\tTRCIDR8\t\t\t       0\n"
		       "\tTRCAUTHSTATUS\t\t       cc\n"
		       "\tTRCDEVARCH                     47705a13\n");
	/* PTM on CPU 1. */
	CHECK_CONTAINS(report,
		       "\tMagic number\t\t       3030303030303030\n"
		       "\tCPU\t\t\t       1\n"
		       "\tNR_TRC_PARAMS\t\t       4\n"
		       "\tETMCR\t\t\t       3000b100\n"
		       "\tETMTRACEIDR\t\t       12\n"
		       "\tETMCCER\t\t\t       34c01ac2\n"
		       "\tETMIDR\t\t\t       411cf312\n");
	/* ETMv4 on CPU 2. */
	CHECK_CONTAINS(report,
		       "\tMagic number\t\t       4040404040404040\n"
		       "\tCPU\t\t\t       2\n"
		       "\tNR_TRC_PARAMS\t\t       7\n"
		       "\tTRCCONFIGR\t\t       9898\n"
		       "\tTRCTRACEIDR\t\t       14\n"
		       "\tTRCIDR0\t\t\t       28000ea1\n"
		       "\tTRCIDR1\t\t\t       4100f422\n"
		       "\tTRCIDR2\t\t\t       20001088\n"
		       "\tTRCIDR8\t\t\t       0\n"
		       "\tTRCAUTHSTATUS\t\t       8c\n");
	if (getenv("HWT_SHOW") || hwt_test_failures)
		fprintf(stderr, "perf report -D said:\n%.6000s\n", report);
}

int main(void)
{
	RUN(test_perf_prints_our_values);
	return hwt_test_summary();
}
