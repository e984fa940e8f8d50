/* A loaded capture, as the emulator keeps it. */
#ifndef HWT_CORE_EMU_REPLAY_H
#define HWT_CORE_EMU_REPLAY_H

#include <limits.h>
#include <stdbool.h>
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
	/* While loading: the AUXTRACE buffers (payloads in bufs) and the
	 * PERF_RECORD_AUX of each stream. */
	struct emu_replay_buf *abufs;
	size_t nabufs;
	struct emu_replay_aux *auxs;
	size_t nauxs;
	bool *structured;   /* per cpus[i]: replayed record by record */
};

struct emu_replay_buf {
	int cpu;
	uint64_t offset, size;
	const uint8_t *data;
};

struct emu_replay_aux {
	int cpu;            /* the stream's, or INT_MIN when unknown */
	uint64_t offset, size, flags;
	uint64_t time;      /* its sample time, 0 when it has none */
};

#endif
