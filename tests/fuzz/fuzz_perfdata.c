/* libFuzzer target for the perf.data reader: the header, attributes,
 * features, every record, the feature decoders (the branch counters'
 * groups among them) and the AUXTRACE queues. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hwtrace/brcntr.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "fuzz_read_records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void features(struct hwt_pd_reader *r)
{
	static const enum hwt_pd_feature strings[] = {
		HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE, HWT_PD_FEAT_VERSION,
		HWT_PD_FEAT_ARCH, HWT_PD_FEAT_CPUDESC, HWT_PD_FEAT_CPUID,
	};
	struct hwt_pd_build_id b;
	uint32_t avail, online;
	char buf[512];

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		hwt_pd_reader_feature_string(r, strings[i], buf, sizeof(buf));
	hwt_pd_reader_cmdline(r, buf, sizeof(buf));
	hwt_pd_reader_nr_cpus(r, &avail, &online);
	for (size_t i = 0; i < 4096 && hwt_pd_reader_build_id(r, i, &b) > 0; i++)
		(void)strlen(b.filename);
}

/* Each event's branch counters group (GROUP_DESC, CPU_PMU_CAPS): what
 * is found stays within the file's events and a word's 64 bits. */
static void counter_groups(struct hwt_pd_reader *r)
{
	unsigned width, nr;
	if (hwt_brcntr_caps(r, &width, &nr) == 0 && (width < 1 || width > 64))
		abort();
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		struct hwt_brcntr_group g;
		if (hwt_brcntr_group_of(r, i, &g) < 0)
			continue;
		if (g.nr > HWT_BRCNTR_MAX_EVENTS || g.nr * g.width > 64 ||
		    g.leader > i || i - g.leader >= g.nmembers ||
		    g.leader + g.nmembers > hwt_pd_reader_nr_attrs(r))
			abort();
		for (unsigned k = 0; k < g.nr; k++)
			if (g.events[k] < g.leader ||
			    g.events[k] >= g.leader + g.nmembers)
				abort();
		uint64_t counts[HWT_BRCNTR_MAX_EVENTS];
		if (hwt_brcntr_count(~0ull, g.width, g.nr, counts) != g.nr)
			abort();
	}
}

static void queues(struct hwt_pd_reader *r)
{
	struct hwt_pd_aux_queues *q = NULL;
	uint8_t *buf;

	hwt_pd_aux_queues_build(r, &q);
	if (!q)
		return;
	for (size_t i = 0; i < hwt_pd_aux_queues_count(q); i++) {
		const struct hwt_pd_aux_queue *qu = hwt_pd_aux_queues_get(q, i);

		for (size_t j = 0; j < qu->nbuffers; j++) {
			/* The queues check the sizes against the file. */
			buf = malloc(qu->buffers[j].aux.size + 1);
			if (buf)
				hwt_pd_aux_buffer_read(r, &qu->buffers[j], buf);
			free(buf);
		}
	}
	hwt_pd_aux_queues_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwt_pd_reader *r = NULL;
	char path[64];
	int fd;

	/* The reader opens paths: give it the input as an in-memory file. */
	fd = memfd_create("perfdata", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (hwt_pd_reader_open(path, &r) == 0) {
		features(r);
		for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++)
			hwt_pd_reader_attr_by_id(r, hwt_pd_reader_attr(r, i)->nids ?
						 hwt_pd_reader_attr(r, i)->ids[0] : 0);
		counter_groups(r);
		fuzz_read_records(r);
		if (!hwt_pd_reader_is_pipe(r))
			queues(r);
		hwt_pd_reader_free(r);
	}
	close(fd);
	return 0;
}
