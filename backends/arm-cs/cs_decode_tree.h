/* One OpenCSD decode tree and the mapping of its generic elements to the
 * hwtrace element stream. Shared by perf captures (cs_decoder.c) and OpenCSD
 * snapshot directories (cs_snapshot_*.c). Only built with OpenCSD. */
#ifndef HWT_CS_DECODE_TREE_H
#define HWT_CS_DECODE_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "backends/arm-cs/cs_source.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"
#include "hwtrace/listing.h"

struct hwt_cs_tree;

/* Creates a decode tree: @frame_flags are OpenCSD's deformatter flags
 * (OCSD_DFRMTR_*) for CoreSight-formatted frames (ETR/ETF sinks, several
 * trace IDs), or 0 for one raw stream (TRBE, snapshot source_data).
 * @image (may be NULL) and @sink are borrowed. With @packets non-NULL the
 * tree only splits packets and lists them there as records. Errors: HWT_ERR_NOMEM,
 * HWT_ERR_DECODE. */
int hwt_cs_tree_new(uint32_t frame_flags, struct hwt_image *image,
		    const struct hwt_elem_sink *sink,
		    const struct hwt_packet_sink *packets,
		    struct hwt_cs_tree **out);
void hwt_cs_tree_free(struct hwt_cs_tree *tree);

/* Makes a tree created without @packets and @image only split packets,
 * noting in @fault (borrowed) the first that trips a known OpenCSD fault
 * (cs_fault_scan.h). Before the first source is added. */
struct hwt_cs_fault;
void hwt_cs_tree_scan_faults(struct hwt_cs_tree *tree,
			     struct hwt_cs_fault *fault);

/* Adds a decoder for @src (copied). Errors: HWT_ERR_CONFIG (OpenCSD
 * rejected the configuration), HWT_ERR_BUSY (trace ID already taken). */
int hwt_cs_tree_add_source(struct hwt_cs_tree *tree,
			   const struct hwt_cs_source *src);

/* The number of decoders added. */
int hwt_cs_tree_sources(const struct hwt_cs_tree *tree);

/* Context used until the trace itself says otherwise: the CPU and thread of
 * the buffer being fed (perf's AUXTRACE cpu/tid), -1 when unknown. */
void hwt_cs_tree_set_default_ctx(struct hwt_cs_tree *tree, int32_t cpu,
				 int32_t tid);

/* Decodes @size bytes; @offset is their position in the stream, used for
 * elements' trace_offset. Follows OpenCSD's WAIT/flush protocol. Decoder
 * failures become error elements and decoding resumes; the return is 0 or
 * the sink's error. */
/* The perf time the code fed from now on ran at, for reading the image
 * (HWT_TIME_UNKNOWN: the latest mapping). CoreSight timestamps are the
 * trace's own clock, not perf time: the AUX record's time is used. */
void hwt_cs_tree_set_time(struct hwt_cs_tree *tree, uint64_t time);

int hwt_cs_tree_feed(struct hwt_cs_tree *tree, const uint8_t *data,
		     size_t size, uint64_t offset);

/* End of trace: flushes OpenCSD and emits branches still held back. */
int hwt_cs_tree_eot(struct hwt_cs_tree *tree);

/* A segment of a stream cut at sync points (cs_sync_points.h): only
 * elements from stream offsets [@from, @until) go to the sink, and none
 * after the first from @until on. (0, UINT64_MAX): all of them. */
void hwt_cs_tree_set_window(struct hwt_cs_tree *tree, uint64_t from,
			    uint64_t until);

/* Whether an element from past the window's end has been decoded: what
 * the tree decodes from now on is not its segment's. */
bool hwt_cs_tree_window_passed(const struct hwt_cs_tree *tree);

/* Element counters, for statistics and tests. */
struct hwt_cs_counts {
	uint64_t ranges, insns, branches, gaps, errors;
};
void hwt_cs_tree_counts(const struct hwt_cs_tree *tree,
			struct hwt_cs_counts *counts);

#endif
