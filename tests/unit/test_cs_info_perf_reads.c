/* Linux perf 6.1 reads the cs_etm AUXTRACE_INFO hwtrace writes: a
 * perf.data holding it, written with the perf.data writer, makes
 * `perf report -D` print the values it was built from. */
#include <stdlib.h>

#include "harness.h"
#include "perf_report.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "backends/arm-cs/cs_info.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/mixed"

static char report[1 << 16];

static void test_perf_prints_our_values(void)
{
	/* cycacc, timestamp, return stack, contextid2 and branch broadcast:
	 * ETMCR for the PTM, TRCCONFIGR 0x9898 for ETE and ETMv4. */
	struct perf_event_attr attr = {.type = 9, .config = 0x3000b100};
	int cpus[] = {0, 1, 2};
	uint64_t priv[64];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	int n;

	n = hwt_cs_info(os, NULL, &attr, cpus, 3, false, NULL, priv, 64);
	hwt_os_free(os);
	CHECK_INT(n, 31);
	if (n != 31)
		return;
	CHECK_INT(hwt_test_perf_report_info("cs_etm//u", 9, HWT_AUXTRACE_CS_ETM,
					    priv, n, report, sizeof(report)),
		  0);
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
