/* Test helper: runs OpenCSD's trc_pkt_lister (HWT_TRC_PKT_LISTER, else
 * trc_pkt_lister) on one formatted buffer of ETMv4 trace from trace ID
 * 0x1e, with the trace unit registers of simpleperf's ETM capture (CPU 7:
 * TRCCONFIGR 0x40, context ID tracing), and reads back the packets it
 * lists: each one's byte index and first byte. Also reads that capture's
 * AUXTRACE buffer straight from the perf.data file. */
#ifndef HWT_TESTS_ETM_LISTER_H
#define HWT_TESTS_ETM_LISTER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata_walk.h"

#define ETM_CAPTURE HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"

struct lister_pkt {
	unsigned long idx;
	unsigned int id, first;
	char name[32];
};

/* The payload of the capture's only PERF_RECORD_AUXTRACE (type 71),
 * malloc'ed; by the perf.data header's data section. */
static inline uint8_t *etm_capture_aux(size_t *len)
{
	size_t rsize, avail;
	const uint8_t *r = pd_walk_find(ETM_CAPTURE, 71, &rsize, &avail);
	if (!r || rsize < 16)
		return NULL;
	uint64_t psize;
	memcpy(&psize, r + 8, 8);
	if (psize > avail - rsize)
		return NULL;
	uint8_t *p = malloc(psize);
	if (!p)
		return NULL;
	memcpy(p, r + rsize, psize);
	*len = psize;
	return p;
}

static inline int write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(data, 1, n, f) == n;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Lists the snapshot directory @dir with trc_pkt_lister (its log goes
 * to a temporary folder) into @out, at most @cap packets; how many, -1
 * on failure. */
static inline long etm_lister_dir(const char *dir, struct lister_pkt *out,
				  size_t cap)
{
	char cwd[] = "/tmp/hwt-etm-lister-log-XXXXXX", cmd[1024];
	if (!mkdtemp(cwd))
		return -1;
	const char *lister = getenv("HWT_TRC_PKT_LISTER");
	/* It writes its log in the working directory: ours. */
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s -ss_dir '%s' -pkt_mon 2>/dev/null",
		 cwd, lister && *lister ? lister : "trc_pkt_lister", dir);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	char line[1024];
	long n = 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long idx;
		unsigned int id, first;
		char name[32];
		if (sscanf(line, "Idx:%lu; ID:%x; [0x%x %*[^]]];\t%31s", &idx, &id,
			   &first, name) != 4 &&
		    sscanf(line, "Idx:%lu; ID:%x; [0x%x ];\t%31s", &idx, &id,
			   &first, name) != 4)
			continue;
		if ((size_t)n < cap) {
			out[n].idx = idx;
			out[n].id = id;
			out[n].first = first;
			snprintf(out[n].name, sizeof(out[n].name), "%s", name);
		}
		n++;
	}
	int rc = pclose(p);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cwd);
	if (system(cmd) != 0)
		return -1;
	return rc == 0 ? n : -1;
}

/* Lists @buf (@len bytes of frames) with trc_pkt_lister into @out (at
 * most @cap packets); returns how many, -1 on failure. */
static inline long etm_lister(const uint8_t *buf, size_t len,
			      struct lister_pkt *out, size_t cap)
{
	char dir[] = "/tmp/hwt-etm-lister-XXXXXX", path[256], cmd[1024];
	if (!mkdtemp(dir))
		return -1;
	static const char snapshot[] =
		"[snapshot]\nversion=1.0\n\n[device_list]\ndevice1=cpu.ini\n"
		"device2=etm.ini\n\n[trace]\nmetadata=trace.ini\n";
	static const char trace[] =
		"[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETR\n"
		"file=aux.bin\nformat=coresight\n\n[core_trace_sources]\n"
		"cpu_7=ETM_7\n\n[source_buffers]\nETM_7=ETR\n";
	static const char cpu[] =
		"[device]\nname=cpu_7\nclass=core\ntype=ARMv8-A\n";
	static const char etm[] =
		"[device]\nname=ETM_7\nclass=trace_source\ntype=ETM4\n\n[regs]\n"
		"TRCCONFIGR(id:0x4)=0x00000040\nTRCTRACEIDR(id:0x10)=0x0000001e\n"
		"TRCIDR0(id:0x78)=0x28000ea1\nTRCIDR1(id:0x79)=0x4100f422\n"
		"TRCIDR2(id:0x7A)=0x20001088\nTRCIDR8(id:0x60)=0x00000000\n"
		"TRCAUTHSTATUS(id:0x3EE)=0x000000cc\n";
	const struct { const char *name; const void *d; size_t n; } files[] = {
		{ "snapshot.ini", snapshot, sizeof(snapshot) - 1 },
		{ "trace.ini", trace, sizeof(trace) - 1 },
		{ "cpu.ini", cpu, sizeof(cpu) - 1 },
		{ "etm.ini", etm, sizeof(etm) - 1 },
		{ "aux.bin", buf, len },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		if (write_file(path, files[i].d, files[i].n))
			return -1;
	}
	long n = etm_lister_dir(dir, out, cap);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return -1;
	return n;
}
#endif
