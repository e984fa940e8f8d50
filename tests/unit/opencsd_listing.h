/* Test helper: reads an OpenCSD trc_pkt_lister listing (a .ppl.xz of the
 * library's expected output), so tests can compare decoded ranges with
 * what the reference decoder printed, and describes the trace unit of
 * OpenCSD's ete_mem snapshot. */
#ifndef HWT_TESTS_OPENCSD_LISTING_H
#define HWT_TESTS_OPENCSD_LISTING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* INSTR_RANGE lines of the listing's last run, and their instructions. */
static inline long listing_ranges(const char *ppl_xz, unsigned long *insns)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "xz -dc '%s'", ppl_xz);
	FILE *p = popen(cmd, "r");
	char line[1024];
	long n = 0;
	*insns = 0;
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "** Library Version")) {
			n = 0;
			*insns = 0;
		}
		const char *r = strstr(line, "OCSD_GEN_TRC_ELEM_INSTR_RANGE(");
		if (r && strncmp(line, "Idx:", 4) == 0) {
			n++;
			*insns += strtoul(strstr(r, "num_i(") + 6, NULL, 10);
		}
	}
	return pclose(p) == 0 ? n : -1;
}

/* The registers of ETE_0_s1.ini's trace unit, in the order of perf's ETE
 * AUXTRACE_INFO words after HWT_CS_ETE_NR_PARAMS. */
#define OCSD_ETE_0_S1_REGS                                                 \
	0x1,        /* TRCCONFIGR */                                       \
	0x2,        /* TRCTRACEIDR */                                      \
	0x2801cea1, /* TRCIDR0 */                                          \
	0x4100fff0, /* TRCIDR1 */                                          \
	0xd0001088, /* TRCIDR2 */                                          \
	0x0,        /* TRCIDR8 */                                          \
	0xcc,       /* TRCAUTHSTATUS */                                    \
	0x47705a13  /* TRCDEVARCH */

#endif
