/* A loaded capture, as the emulator keeps it. */
#ifndef HWT_CORE_EMU_REPLAY_H
#define HWT_CORE_EMU_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct emu_replay_data {
	struct perf_event_attr *attrs;
	uint64_t **ids;
	size_t *nids;
	char **names;
	size_t nattrs;
	size_t aux_index;
	int *cpus;
	int ncpus;
	void *info;
	uint64_t aux_bytes;
	void *time_conv;    /* the capture's TIME_CONV record, or NULL */
	void **bufs;        /* AUXTRACE payloads the streams borrow */
	size_t nbufs;
};

#endif
