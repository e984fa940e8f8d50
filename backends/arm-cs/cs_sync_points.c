/* Sync points of a raw ETMv4/ETE stream where a decoder may start and give
 * what one running through gives (see cs_sync_points.h).
 *
 * A trace unit resynchronises its stream now and then (TRCSYNCPR) with
 * A-sync, Trace Info, perhaps Trace On and a Timestamp, then an Address
 * with Context packet. A decoder that starts at the A-sync learns from
 * these all a running decoder carries into the packets after them, when:
 *  - the unit does not trace speculatively (TRCIDR8.MAXSPEC 0, as on
 *    the Cortex-A cores): a running decoder would otherwise hold P0
 *    elements that packets after the cut commit or cancel, and OpenCSD
 *    does not take a later Trace Info's word that none are in flight;
 *    the Trace Info must say none are, too;
 *  - the return stack is off (cs_etm's default): a running decoder would
 *    otherwise hold the targets of calls made before the cut;
 *  - the Address with Context packet restates every field the unit
 *    traces (context ID, VMID), as the one after it may leave them out;
 *  - the Timestamp, when the unit traces time, is whole: later ones send
 *    only the bits that changed;
 *  - nothing else sits between them.
 * The stream is read with OpenCSD's own packet processor, so an A-sync is
 * taken only where a packet starts. ETE is read as ETMv4 (see
 * hwt_cs_ete_as_etmv4): after a packet that the ETMv4 processor cannot
 * read, nothing further in the stream is a sync point. */
#ifdef HWT_HAVE_OPENCSD
#include "backends/arm-cs/cs_sync_points.h"

#include "backends/arm-cs/cs_meta.h"
#include "backends/arm-cs/cs_tree_internal.h"
#include "hwtrace/error.h"

size_t cs_split_bytes = 16 * 1024;

struct scan {
	uint32_t configr;
	unsigned ts_bits; /* a whole time stamp's width (TRCIDR0.TSSIZE) */
	enum { SCAN_IDLE, SCAN_ASYNC, SCAN_SEQUENCE } state;
	bool unreadable; /* a packet the processor could not read */
	bool ts_seen;
	uint64_t async_at;
	/* hwt_cs_sync_points: */
	uint64_t *starts;
	size_t n, max;
	uint64_t step;    /* cuts are at least this far apart */
	uint64_t next_at; /* the next cut is at least here */
	/* hwt_cs_sync_end: */
	bool first_only, found;
	uint64_t end;
};

static const struct hwt_cs_source *v4_source(const struct hwt_cs_source *src,
					     struct hwt_cs_source *v4)
{
	return src->proto == HWT_CS_PROTO_ETE ? hwt_cs_ete_as_etmv4(src, v4)
					      : src;
}

bool hwt_cs_source_cuttable(const struct hwt_cs_source *src)
{
	struct hwt_cs_source v4;
	if (src->proto != HWT_CS_PROTO_ETMV4 && src->proto != HWT_CS_PROTO_ETE)
		return false;
	const struct hwt_cs_source *s = v4_source(src, &v4);
	return !(s->cfg.etmv4.reg_configr & (1u << HWT_CS_TRCCONFIGR_RETSTK)) &&
	       s->cfg.etmv4.reg_idr8 == 0;
}

static bool context_whole(const struct scan *s, const ocsd_etmv4_i_pkt *p)
{
	if ((s->configr & (1u << HWT_CS_TRCCONFIGR_CTXTID)) &&
	    !p->context.updated_c)
		return false;
	if ((s->configr & (1u << HWT_CS_TRCCONFIGR_VMID)) &&
	    !p->context.updated_v)
		return false;
	return true;
}

static void sync_point(struct scan *s, uint64_t at, uint64_t end)
{
	if (s->first_only) {
		if (at == 0 && !s->found) {
			s->found = true;
			s->end = end;
		}
		return;
	}
	if (at < s->next_at || s->n >= s->max)
		return;
	s->starts[s->n++] = at;
	s->next_at = at + s->step;
}

static ocsd_datapath_resp_t scan_packet(const void *ctx, ocsd_datapath_op_t op,
					ocsd_trc_index_t idx, const void *pkt)
{
	struct scan *s = (struct scan *)ctx;
	const ocsd_etmv4_i_pkt *p = pkt;

	if (op != OCSD_OP_DATA || !p || s->unreadable)
		return OCSD_RESP_CONT;
	bool ts_on = s->configr & (1u << HWT_CS_TRCCONFIGR_TS);
	switch (p->type) {
	case ETM4_PKT_I_ASYNC:
		s->state = SCAN_ASYNC;
		s->async_at = idx;
		s->ts_seen = false;
		break;
	case ETM4_PKT_I_TRACE_INFO:
		s->state = s->state == SCAN_ASYNC &&
					   (!p->pkt_valid.bits.spec_depth_valid ||
					    p->curr_spec_depth == 0)
				   ? SCAN_SEQUENCE
				   : SCAN_IDLE;
		break;
	case ETM4_PKT_I_TRACE_ON:
		if (s->state != SCAN_SEQUENCE)
			s->state = SCAN_IDLE;
		break;
	case ETM4_PKT_I_TIMESTAMP:
		if (s->state == SCAN_SEQUENCE && p->ts.bits_changed >= s->ts_bits)
			s->ts_seen = true;
		else
			s->state = SCAN_IDLE;
		break;
	case ETM4_PKT_I_ADDR_CTXT_L_32IS0:
	case ETM4_PKT_I_ADDR_CTXT_L_32IS1:
	case ETM4_PKT_I_ADDR_CTXT_L_64IS0:
	case ETM4_PKT_I_ADDR_CTXT_L_64IS1:
		if (s->state == SCAN_SEQUENCE && (s->ts_seen || !ts_on) &&
		    context_whole(s, p))
			sync_point(s, s->async_at, (uint64_t)idx + 1);
		s->state = SCAN_IDLE;
		break;
	case ETM4_PKT_I_BAD_SEQUENCE:
	case ETM4_PKT_I_BAD_TRACEMODE:
	case ETM4_PKT_I_RESERVED:
	case ETM4_PKT_I_RESERVED_CFG:
		s->unreadable = true;
		break;
	default:
		s->state = SCAN_IDLE;
		break;
	}
	return OCSD_RESP_CONT;
}

/* Runs @data through an ETMv4 packet processor into scan_packet. */
static int scan_stream(const struct hwt_cs_source *src, const uint8_t *data,
		       size_t size, struct scan *s)
{
	struct hwt_cs_source v4;
	const struct hwt_cs_source *use = v4_source(src, &v4);
	s->configr = use->cfg.etmv4.reg_configr;
	s->ts_bits = (use->cfg.etmv4.reg_idr0 >> 24 & 0x1f) == 0x8 ? 64 : 48;

	unsigned char csid = 0;
	bool ready = false;
	hwt_cs_api_lock();
	dcd_tree_handle_t dt = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	if (dt != C_API_INVALID_TREE_HANDLE)
		ready = ocsd_dt_create_decoder(dt, OCSD_BUILTIN_DCD_ETMV4I,
					       OCSD_CREATE_FLG_PACKET_PROC,
					       &use->cfg, &csid) == OCSD_OK &&
			ocsd_dt_attach_packet_callback(
				dt, csid, OCSD_C_API_CB_PKT_SINK,
				(void *)scan_packet, s) == OCSD_OK;
	hwt_cs_api_unlock();
	int err = ready ? 0
			: hwt_error(HWT_ERR_DECODE,
				    "OpenCSD could not read the packets of "
				    "trace ID 0x%x", src->trace_id);
	size_t done = 0;
	while (!err && done < size && !s->unreadable && !s->found) {
		uint32_t want = size - done > 0x40000000u ? 0x40000000u
							  : (uint32_t)(size - done);
		uint32_t n = 0;
		ocsd_datapath_resp_t resp = ocsd_dt_process_data(
			dt, OCSD_OP_DATA, (ocsd_trc_index_t)done, want,
			data + done, &n);
		if (OCSD_DATA_RESP_IS_FATAL(resp) || n == 0)
			s->unreadable = true; /* no further sync points */
		done += n;
	}
	hwt_cs_api_lock();
	if (dt != C_API_INVALID_TREE_HANDLE)
		ocsd_destroy_dcd_tree(dt);
	hwt_cs_api_unlock();
	return err;
}

int hwt_cs_sync_points(const struct hwt_cs_source *src, const uint8_t *data,
		       size_t size, uint64_t *starts, size_t max)
{
	struct scan s = {
		.starts = starts,
		.max = max,
		.n = 1,
		.step = cs_split_bytes ? cs_split_bytes : 1,
	};
	/* A chunk of more than @max such steps: longer segments, spread
	 * over all of it. */
	if (max > 1 && size / max >= s.step)
		s.step = size / max + 1;
	s.next_at = s.step;
	starts[0] = 0;
	if (!hwt_cs_source_cuttable(src) || size < s.next_at || max < 2)
		return 1;
	int err = scan_stream(src, data, size, &s);
	return err ? err : (int)s.n;
}

/* The sync sequence is a few dozen bytes; what follows is not read. */
#define SYNC_SEQUENCE_MAX 256

int hwt_cs_sync_end(const struct hwt_cs_source *src, const uint8_t *data,
		    size_t size, uint64_t *end)
{
	struct scan s = { .first_only = true };
	int err = scan_stream(src, data,
			      size < SYNC_SEQUENCE_MAX ? size : SYNC_SEQUENCE_MAX,
			      &s);
	if (err)
		return err;
	if (!s.found)
		return hwt_error(HWT_ERR_FORMAT,
				 "trace ID 0x%x: no sync sequence where the "
				 "stream was cut", src->trace_id);
	*end = s.end;
	return 0;
}
#endif
