/* Test helper: writes a perf.data holding one AUX event and an
 * AUXTRACE_INFO record, then reads `perf report -D` back, so tests can
 * check Linux perf decodes the metadata hwtrace writes. */
#ifndef HWT_TESTS_PERF_REPORT_H
#define HWT_TESTS_PERF_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define HWT_TEST_PERF "/usr/bin/perf"

/* Writes a perf.data with one event of PMU @pmu_type named @event and the
 * AUXTRACE_INFO of @auxtrace_type carrying @priv[0..n), then keeps perf
 * report -D's output, NUL-terminated, in @report (@size bytes). */
static inline int hwt_test_perf_report_info(const char *event,
					    uint32_t pmu_type,
					    uint64_t auxtrace_type,
					    const uint64_t *priv, int n,
					    char *report, size_t size)
{
	char dir[] = "/tmp/hwt-info-XXXXXX", path[64], cmd[256];
	struct perf_event_attr attr = {.size = sizeof(attr), .type = pmu_type,
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

	if (access(HWT_TEST_PERF, X_OK) != 0) {
		fprintf(stderr, "%s is missing: install Debian's linux-perf; this "
			"test checks perf reads what hwtrace writes\n",
			HWT_TEST_PERF);
		return -1;
	}
	if (n < 0 || (size_t)n > sizeof(rec) / 8 - 2) {
		fprintf(stderr, "%d private words do not fit the record\n", n);
		return -1;
	}
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	if (hwt_pd_writer_open(path, &w) < 0)
		return -1;
	hwt_pd_writer_add_attr(w, &attr, &id, 1, event);
	/* A build id, as real captures have: the writer's empty build id
	 * section trips UBSan (memcpy from NULL) in core/perfdata/perfdata_host.c. */
	hwt_pd_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, build_id, 20,
				   "/bin/ls");
	memset(rec, 0, sizeof(rec));
	rec[0] = HWT_PD_RECORD_AUXTRACE_INFO | (uint64_t)(16 + 8 * n) << 48;
	rec[1] = auxtrace_type;
	memcpy(&rec[2], priv, 8 * (size_t)n);
	if (hwt_pd_writer_record(w, rec) < 0 || hwt_pd_writer_close(w) < 0) {
		fprintf(stderr, "writing %s: %s\n", path, hwt_errmsg());
		return -1;
	}
	snprintf(cmd, sizeof(cmd), HWT_TEST_PERF " report -D -i %s 2>&1", path);
	p = popen(cmd, "r");
	if (p) {
		got = fread(report, 1, size - 1, p);
		pclose(p);
	}
	report[got] = '\0';
	unlink(path);
	rmdir(dir);
	return 0;
}

#endif
