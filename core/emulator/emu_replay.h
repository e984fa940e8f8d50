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
	/* The capture's build_id feature, for finding a probe's binary
	 * among its mappings (emu_probe_binary.c). */
	struct emu_replay_build_id *build_ids;
	size_t nbuild_ids;
};

struct emu_replay_build_id {
	char *filename;
	uint8_t id[20];
	uint8_t size;
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

struct hwt_pd_reader;
struct hwt_emu;
/* Keeps @rd's build ids in @r (0 or HWT_ERR_NOMEM; a malformed table is
 * left out). */
int hwt_emu_replay_keep_build_ids(struct emu_replay_data *r,
				  const struct hwt_pd_reader *rd);
/* The name the replayed capture's mappings give the file at @path by its
 * build id, or NULL when it names none with that id. */
const char *hwt_emu_capture_name_of(const struct hwt_emu *emu,
				    const char *path);

#endif
