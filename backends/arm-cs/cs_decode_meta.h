/* The decoder's view of perf's cs_etm AUXTRACE_INFO (layout in cs_meta.h):
 * one OpenCSD configuration per traced CPU. Built with or without OpenCSD,
 * so the recorder's tests can read back what it writes. */
#ifndef HWT_CS_DECODE_META_H
#define HWT_CS_DECODE_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/arm-cs/cs_source.h"

struct hwt_cs_meta {
	uint64_t version;
	bool snapshot;
	size_t ncpus;
	struct hwt_cs_source *cpus; /* in file order */
	/* Per entry of cpus: whether its trace ID is known (version 2 files
	 * leave it to PERF_RECORD_AUX_OUTPUT_HW_ID). */
	bool *id_known;
};

/* Parses @words words of AUXTRACE_INFO priv[] (header version 0, 1 or 2).
 * Errors: HWT_ERR_FORMAT naming the word index, HWT_ERR_NOMEM. */
int hwt_cs_meta_parse(const uint64_t *info, size_t words,
		      struct hwt_cs_meta *meta);
void hwt_cs_meta_release(struct hwt_cs_meta *meta);

/* Applies an AUX_OUTPUT_HW_ID value for @cpu. Returns 1 when a trace ID
 * changed, 0 when nothing changed, HWT_ERR_FORMAT for an unknown record
 * version, HWT_ERR_NOENT for a CPU the metadata does not describe. */
int hwt_cs_meta_set_hw_id(struct hwt_cs_meta *meta, int32_t cpu,
			  uint64_t hw_id);

/* A single source from `--raw cs_etm,OPTIONS` text (proto name, traceid=,
 * register=value...). Errors: HWT_ERR_CONFIG naming the option. */
int hwt_cs_meta_from_options(const char *options, struct hwt_cs_meta *meta,
			     bool *formatted);

#endif
