/* OpenCSD trace snapshot directories: snapshot.ini names the devices (one
 * .ini each: a core with its memory dumps, or a trace source with its
 * registers) and trace.ini, which names the trace buffers and says which
 * source feeds which buffer and which core each source traces. */
#ifndef HWT_CS_SNAPSHOT_H
#define HWT_CS_SNAPSHOT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "backends/arm-cs/cs_decode_tree.h"
#include "hwtrace/image.h"

/* A trace buffer and the sources that can be decoded from it. */
struct hwt_cs_ss_buffer {
	char *name;
	char *path;           /* the trace file, directory prefixed */
	uint32_t frame_flags; /* OCSD_DFRMTR_*, 0 for source_data */
	struct hwt_cs_source *sources;
	size_t nsources;
};

/* A memory dump of a core. */
struct hwt_cs_ss_dump {
	char *path;
	uint64_t address;
	uint64_t offset;
	uint64_t length; /* 0: to the end of the file */
};

struct hwt_cs_snapshot {
	char *dir;
	struct hwt_cs_ss_buffer *buffers; /* decodable buffers, in trace.ini order */
	size_t nbuffers;
	struct hwt_cs_ss_dump *dumps;
	size_t ndumps;
};

/* Reads the snapshot in @dir. Buffers without a decodable source are left
 * out; when none is left the snapshot is refused. Errors (naming the INI
 * file and key): HWT_ERR_NOENT, HWT_ERR_FORMAT (also for an unknown core
 * or trace source type, and a file that is a FIFO or a directory),
 * HWT_ERR_NOMEM. */
int hwt_cs_snapshot_load(const char *dir, struct hwt_cs_snapshot **out);
void hwt_cs_snapshot_free(struct hwt_cs_snapshot *ss);

/* Adds every core's memory dumps to @image (for any process).
 * Errors: HWT_ERR_NOENT naming the missing dump file, HWT_ERR_NOMEM. */
int hwt_cs_snapshot_add_dumps(const struct hwt_cs_snapshot *ss,
			      struct hwt_image *image);

/* The decoder's snapshot_dir op (struct hwt_decoder_ops). */
struct hwt_decode_params;
int hwt_cs_decode_snapshot_dir(const char *dir,
			       const struct hwt_decode_params *params,
			       const struct hwt_packet_sink *packets);

#endif
