/* The decode tree's state, shared by cs_decode_tree.c (the OpenCSD tree
 * and its input) and cs_elem_map.c (its output, as hwtrace elements). */
#ifndef HWT_CS_TREE_INTERNAL_H
#define HWT_CS_TREE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backends/arm-cs/cs_decode_tree.h"
#include "backends/arm-cs/cs_meta.h"

#define CS_NCHAN 128

struct cs_pkt_ctx;

/* Per trace ID: its context, and the taken branch whose target is not yet
 * known (OpenCSD reports a range ending in a taken branch before the range
 * it branched to). */
struct cs_chan {
	bool used;
	struct cs_pkt_ctx *pkt; /* --packets printing context */
	enum hwt_cs_proto proto;
	int32_t cpu, tid;
	/* The kernel runs at EL2 and the unit traces CONTEXTIDR_EL2 in the
	 * VMID field (TRCCONFIGR.VMID and VMIDOPT): the thread ID is there. */
	bool tid_from_vmid;
	bool el_valid, vmid_valid, have_time;
	uint32_t el, vmid;
	uint64_t time;
	bool pending;
	uint64_t p_from, p_offset;
	enum hwt_branch_kind p_kind;
	uint32_t p_exc;
	bool p_has_exc;
	/* A trace_on waits for the address tracing resumed at (the next
	 * range or unreadable address), with the context and timestamp
	 * elements that came after it, so that it carries `at` and the
	 * order stays as OpenCSD gave it. held[0] is the trace_on. */
	struct hwt_elem held[8];
	int nheld;
};

struct hwt_cs_tree {
	dcd_tree_handle_t dt;
	bool formatted;
	struct hwt_image *image;
	uint64_t code_time; /* perf time to read the image at */
	const struct hwt_elem_sink *sink;
	const struct hwt_packet_sink *packets; /* --packets listing */
	/* Non-NULL: the tree only splits packets, to look for those that
	 * trip a known OpenCSD fault (cs_fault_scan.c). */
	struct hwt_cs_fault *fault;
	int nsources;
	bool out_set;
	int sink_err;
	int32_t def_cpu, def_tid;
	/* The channel holding a trace_on, if any: one at a time, so that
	 * the element order across channels stays OpenCSD's. */
	struct cs_chan *holder;
	/* OpenCSD's index is 32-bit: map it back to 64-bit stream offsets. */
	uint32_t index;
	uint32_t chunk_index;
	uint64_t chunk_offset;
	struct hwt_cs_counts counts;
	/* Only elements at stream offsets in [emit_from, emit_until) go to
	 * the sink, up to the first one past it (a segment of a cut stream:
	 * see hwt_cs_tree_set_window). */
	uint64_t emit_from, emit_until;
	bool window_passed;
	char detail[192];
	struct cs_chan chan[CS_NCHAN];
};

/* One line of a --packets listing to t->packets, as a record of @type
 * at stream @offset with @nfields @fields; a sink error is kept in
 * t->sink_err. */
int hwt_cs_list_line(struct hwt_cs_tree *t, enum hwt_packet_rec_type type,
		     uint64_t offset, const char *kind,
		     const struct hwt_packet_field *fields, size_t nfields,
		     const char *line);
/* The typed fields of OpenCSD packet @pkt of @proto into @f (room for
 * @max, at least 3); how many (cs_packet_fields.c). */
size_t hwt_cs_packet_fields(ocsd_trace_protocol_t proto, const void *pkt,
			    struct hwt_packet_field *f, size_t max);

static inline uint64_t hwt_cs_stream_offset(const struct hwt_cs_tree *t,
					    ocsd_trc_index_t idx)
{
	int32_t delta = (int32_t)((uint32_t)idx - t->chunk_index);
	return t->chunk_offset + (uint64_t)(int64_t)delta;
}

/* The tree's generic element callback: maps @g into elements for the
 * sink; a sink error stops the decode (OCSD_RESP_FATAL_SYS_ERR). */
ocsd_datapath_resp_t hwt_cs_elem_in(const void *ctx, ocsd_trc_index_t idx,
				    uint8_t chan_id,
				    const ocsd_generic_trace_elem *g);
/* Emits a gap on @ch's context at @offset; @detail is borrowed. */
int hwt_cs_emit_gap(struct hwt_cs_tree *t, struct cs_chan *ch,
		    uint64_t offset, enum hwt_gap_reason reason,
		    const char *detail);
/* Emits OpenCSD's last error (or @resp) as an error element. */
int hwt_cs_emit_decode_error(struct hwt_cs_tree *t, ocsd_datapath_resp_t resp,
			     uint64_t offset);
/* Emits @ch's held trace_on (with @at when @have_at) and the elements
 * held behind it. */
int hwt_cs_release_held(struct hwt_cs_tree *t, struct cs_chan *ch,
			bool have_at, uint64_t at);

/* Emits @ch's pending taken branch with an unknown target, if any. */
int hwt_cs_drop_pending(struct hwt_cs_tree *t, struct cs_chan *ch);

/* Held around every OpenCSD call that sets up or tears down a tree
 * (see cs_decode_tree.c). */
void hwt_cs_api_lock(void);
void hwt_cs_api_unlock(void);

/* @s (ETE) as an ETMv4 source with the same registers: OpenCSD 1.3.3's C
 * API attaches packet sinks to ETMv4 packet processors only, and ETE
 * packets are ETMv4 packets plus a few (those read as reserved headers).
 * Returns @v4, filled in. */
const struct hwt_cs_source *hwt_cs_ete_as_etmv4(const struct hwt_cs_source *s,
						struct hwt_cs_source *v4);

#endif
