/* Sync points of a raw ETMv4/ETE stream where a decoder may start and give
 * what one running through gives (see cs_sync_points.h).
 *
 * A trace unit resynchronises its stream now and then (TRCSYNCPR) with
 * A-sync, Trace Info, perhaps Trace On and a Timestamp, then an Address
 * with Context packet. A decoder that starts at the A-sync learns from
 * these all that one running from the chunk's start carries into the
 * packets after them, when:
 *  - the unit has no return stack (TRCCONFIGR.RS) and does not trace
 *    speculatively (TRCIDR8.MAXSPEC 0, as on the Cortex-A cores), so
 *    OpenCSD commits every P0 element at once; the stream has had no
 *    commit, cancel, mispredict or discard packet (nor an ETE PE reset or
 *    source address), no exception waits for its address, and no ETE
 *    transaction is open;
 *  - the Trace Info says what the running decoder holds: OpenCSD keeps
 *    the first one after it synchronises, so every Trace Info of the
 *    chunk so far must say the same (and no speculation);
 *  - the Address with Context restates the context ID and VMID if any
 *    packet before carried one, and neither it nor a context packet
 *    before the sync point is confirmed changes the context held before
 *    the A-sync (a running decoder shows a change as a context element
 *    before it resolves the target of a taken branch from before the
 *    A-sync, which the chunk before the cut then never sees); and, if
 *    the stream has had a time stamp,
 *    a Timestamp before it carries at least as many bits as they used
 *    (later ones send only the bits that changed);
 *  - an overflow before has been followed by a Trace On (OpenCSD marks
 *    the next one as the end of the overflow);
 *  - nothing else sits between these packets;
 *  - the three-entry address history a running decoder holds is not
 *    read before it is refreshed: no Exact Match Address packet comes
 *    before two more addresses after the sync sequence's;
 *  - an atom follows, before any packet that stops the scan: until an
 *    atom commits what the sequence said, a running decoder still shows
 *    the context from before it (in an error's element, say).
 * The stream is read with OpenCSD's own packet processor, so an A-sync is
 * taken only where a packet starts. ETE is read as ETMv4 (see
 * hwt_cs_ete_as_etmv4): after a packet that the ETMv4 processor cannot
 * read, nothing further in the stream is a sync point. */
#ifdef HWT_HAVE_OPENCSD
#include "backends/arm-cs/cs_sync_points.h"

#include "backends/arm-cs/cs_meta.h"
#include "backends/arm-cs/cs_tree_internal.h"
#include "hwtrace/error.h"

/* ETE packet type 0x09 is ETE_PKT_I_COMMIT_WIN_MV in OpenCSD 1.3 (bookworm)
 * and ETE_PKT_I_ITE, an instrumentation packet, in 1.5 (trixie): named by
 * its value so that both build. Neither moves the address or context
 * state a sync point carries. */
#define CS_ETE_PKT_0X09 ((ocsd_etmv4_i_pkt_type)0x09)

size_t cs_split_bytes = 16 * 1024;

/* The entries of the address history (ETMv4): the sync sequence's
 * address and two more refresh it. */
#define ADDR_HISTORY 3

struct scan {
	/* What a decoder running from the chunk's start carries. */
	bool stopped;        /* no sync point from here on */
	bool cid_seen, vmid_seen;
	bool ts_any;         /* a time stamp, even of 0 */
	unsigned ts_width;   /* bits the time stamps so far have used */
	bool tinfo_set;
	ocsd_etmv4_i_pkt tinfo; /* the chunk's first Trace Info */
	bool except_pending; /* an exception waits for its address */
	bool overflow_pending;
	bool in_transaction; /* ETE: a transaction started, not ended */
	bool ctx_seen;       /* a packet has set the context */
	/* The sync sequence being read. */
	enum { SCAN_IDLE, SCAN_ASYNC, SCAN_SEQUENCE } state;
	uint64_t async_at;
	bool ctx_before_set;
	etmv4_context_t ctx_before; /* the context held at its A-sync */
	bool ts_in_sequence;
	unsigned ts_sequence_bits; /* bits its Timestamp sent */
	/* A sync sequence read whole, waiting for the address history. */
	bool pending;
	uint64_t pending_at;
	unsigned pushes;
	bool atom_seen;
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

static unsigned bit_width(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

static bool same_trace_info(const ocsd_etmv4_i_pkt *a,
			    const ocsd_etmv4_i_pkt *b)
{
	return a->trace_info.val == b->trace_info.val &&
	       a->cc_threshold == b->cc_threshold && a->p0_key == b->p0_key;
}

static void sync_point(struct scan *s, uint64_t at)
{
	if (at < s->next_at || s->n >= s->max)
		return;
	s->starts[s->n++] = at;
	s->next_at = at + s->step;
}

/* Whether context packet @p leaves the context held at the A-sync as it
 * was (OpenCSD keeps the current context in every packet). */
static bool same_context(const struct scan *s, const ocsd_etmv4_i_pkt *p)
{
	const etmv4_context_t *a = &s->ctx_before, *b = &p->context;
	return !s->ctx_before_set ||
	       (a->EL == b->EL && a->SF == b->SF && a->NS == b->NS &&
		a->NSE == b->NSE && a->ctxtID == b->ctxtID &&
		a->VMID == b->VMID);
}

/* The sync sequence's Address with Context packet @p: whether a decoder
 * starting at the A-sync now knows what a running one knows. */
static bool sequence_whole(const struct scan *s, const ocsd_etmv4_i_pkt *p)
{
	return s->state == SCAN_SEQUENCE && !s->except_pending &&
	       !s->overflow_pending && !s->in_transaction &&
	       (!s->ts_any ||
		(s->ts_in_sequence && s->ts_sequence_bits >= s->ts_width)) &&
	       (!s->cid_seen || p->context.updated_c) &&
	       (!s->vmid_seen || p->context.updated_v) && same_context(s, p);
}

/* A sync sequence read whole, its Address with Context ending at @end:
 * hwt_cs_sync_end's answer, or a sync point once confirm() says so. */
static void sequence_read(struct scan *s, uint64_t end)
{
	if (s->first_only) {
		if (s->async_at == 0 && !s->found) {
			s->found = true;
			s->end = end;
		}
		return;
	}
	s->pending = true;
	s->pending_at = s->async_at;
	s->pushes = 0;
	s->atom_seen = false;
}

static bool is_context_address(ocsd_etmv4_i_pkt_type t)
{
	return t == ETM4_PKT_I_ADDR_CTXT_L_32IS0 ||
	       t == ETM4_PKT_I_ADDR_CTXT_L_32IS1 ||
	       t == ETM4_PKT_I_ADDR_CTXT_L_64IS0 ||
	       t == ETM4_PKT_I_ADDR_CTXT_L_64IS1;
}

static bool sets_context(ocsd_etmv4_i_pkt_type t)
{
	return t == ETM4_PKT_I_CTXT || is_context_address(t);
}

/* An address packet that enters the address history (not a match). */
static bool is_address(ocsd_etmv4_i_pkt_type t)
{
	return is_context_address(t) || t == ETM4_PKT_I_ADDR_L_32IS0 ||
	       t == ETM4_PKT_I_ADDR_L_32IS1 || t == ETM4_PKT_I_ADDR_L_64IS0 ||
	       t == ETM4_PKT_I_ADDR_L_64IS1 || t == ETM4_PKT_I_ADDR_S_IS0 ||
	       t == ETM4_PKT_I_ADDR_S_IS1;
}

static bool is_atom(ocsd_etmv4_i_pkt_type t)
{
	return t == ETM4_PKT_I_ATOM_F1 || t == ETM4_PKT_I_ATOM_F2 ||
	       t == ETM4_PKT_I_ATOM_F3 || t == ETM4_PKT_I_ATOM_F4 ||
	       t == ETM4_PKT_I_ATOM_F5 || t == ETM4_PKT_I_ATOM_F6;
}

/* After a sync sequence read whole: it is a sync point once an atom has
 * committed what the sequence said (until then a running decoder still
 * shows the context before it, in an error say) and the address history
 * holds nothing from before it. */
static void confirm(struct scan *s, const ocsd_etmv4_i_pkt *p)
{
	if (p->type == ETM4_PKT_I_ADDR_MATCH && s->pushes < ADDR_HISTORY - 1) {
		s->pending = false; /* may name an entry from before */
		return;
	}
	if (sets_context(p->type) && !same_context(s, p)) {
		s->pending = false;
		return;
	}
	s->atom_seen |= is_atom(p->type);
	if (is_address(p->type))
		s->pushes++;
	if (s->atom_seen && s->pushes >= ADDR_HISTORY - 1) {
		s->pending = false;
		sync_point(s, s->pending_at);
	}
}

/* The state a running decoder carries, after the sync sequence is read. */
static void carry(struct scan *s, const ocsd_etmv4_i_pkt *p)
{
	if (sets_context(p->type)) {
		s->ctx_seen = true;
		s->cid_seen |= p->context.updated_c;
		s->vmid_seen |= p->context.updated_v;
	}
	if (is_address(p->type) || p->type == ETM4_PKT_I_ADDR_MATCH) {
		s->except_pending = false;
		return;
	}
	switch (p->type) {
	case ETM4_PKT_I_TRACE_INFO:
		if (!s->tinfo_set) {
			s->tinfo = *p;
			s->tinfo_set = true;
		} else if (!same_trace_info(&s->tinfo, p)) {
			s->stopped = true;
		}
		return;
	case ETM4_PKT_I_TIMESTAMP: {
		unsigned w = bit_width(p->ts.timestamp);
		if (w > s->ts_width)
			s->ts_width = w;
		s->ts_any = true;
		return;
	}
	case ETE_PKT_I_TRANS_ST:
		s->in_transaction = true;
		return;
	case ETE_PKT_I_TRANS_COMMIT:
	case ETE_PKT_I_TRANS_FAIL:
		s->in_transaction = false;
		return;
	case ETM4_PKT_I_EXCEPT:
		s->except_pending = true;
		return;
	case ETM4_PKT_I_OVERFLOW:
		s->overflow_pending = true;
		return;
	case ETM4_PKT_I_TRACE_ON:
		s->overflow_pending = false;
		return;
	case ETM4_PKT_I_COMMIT:
	case ETM4_PKT_I_CANCEL_F1:
	case ETM4_PKT_I_CANCEL_F1_MISPRED:
	case ETM4_PKT_I_CANCEL_F2:
	case ETM4_PKT_I_CANCEL_F3:
	case ETM4_PKT_I_MISPREDICT:
	case ETM4_PKT_I_DISCARD:
	case ETE_PKT_I_PE_RESET:
	case CS_ETE_PKT_0X09:
	case ETE_PKT_I_SRC_ADDR_MATCH:
	case ETE_PKT_I_SRC_ADDR_S_IS0:
	case ETE_PKT_I_SRC_ADDR_S_IS1:
	case ETE_PKT_I_SRC_ADDR_L_32IS0:
	case ETE_PKT_I_SRC_ADDR_L_32IS1:
	case ETE_PKT_I_SRC_ADDR_L_64IS0:
	case ETE_PKT_I_SRC_ADDR_L_64IS1:
	case ETM4_PKT_I_BAD_SEQUENCE:
	case ETM4_PKT_I_BAD_TRACEMODE:
	case ETM4_PKT_I_RESERVED:
	case ETM4_PKT_I_RESERVED_CFG:
		s->stopped = true;
		return;
	default:
		return;
	}
}

/* Reads the sync sequence: A-sync, Trace Info, [Trace On], [Timestamp],
 * Address with Context. */
static void sequence(struct scan *s, ocsd_trc_index_t idx,
		     const ocsd_etmv4_i_pkt *p)
{
	switch (p->type) {
	case ETM4_PKT_I_ASYNC:
		s->state = SCAN_ASYNC;
		s->async_at = idx;
		s->ctx_before_set = s->ctx_seen;
		s->ctx_before = p->context;
		s->ts_in_sequence = false;
		return;
	case ETM4_PKT_I_TRACE_INFO:
		s->state = s->state == SCAN_ASYNC &&
					   (!p->pkt_valid.bits.spec_depth_valid ||
					    p->curr_spec_depth == 0) &&
					   (!s->tinfo_set ||
					    same_trace_info(&s->tinfo, p))
				   ? SCAN_SEQUENCE
				   : SCAN_IDLE;
		return;
	case ETM4_PKT_I_TRACE_ON:
		if (s->state != SCAN_SEQUENCE)
			s->state = SCAN_IDLE;
		return;
	case ETM4_PKT_I_TIMESTAMP:
		if (s->state == SCAN_SEQUENCE && !s->ts_in_sequence) {
			s->ts_in_sequence = true;
			s->ts_sequence_bits = p->ts.bits_changed;
		} else {
			s->state = SCAN_IDLE;
		}
		return;
	default:
		if (is_context_address(p->type) && sequence_whole(s, p))
			sequence_read(s, (uint64_t)idx + 1);
		s->state = SCAN_IDLE;
		return;
	}
}

static ocsd_datapath_resp_t scan_packet(const void *ctx, ocsd_datapath_op_t op,
					ocsd_trc_index_t idx, const void *pkt)
{
	struct scan *s = (struct scan *)ctx;
	const ocsd_etmv4_i_pkt *p = pkt;

	if (op != OCSD_OP_DATA || !p || s->stopped)
		return OCSD_RESP_CONT;
	if (s->pending)
		confirm(s, p);
	if (p->type == ETM4_PKT_I_ASYNC)
		s->pending = false; /* a sync sequence too close to another */
	/* The Trace On and Timestamp of a sync sequence count before it is
	 * judged (an overflow's Trace On); the rest after. */
	if (p->type == ETM4_PKT_I_TRACE_ON)
		carry(s, p);
	sequence(s, idx, p);
	if (p->type != ETM4_PKT_I_TRACE_ON)
		carry(s, p);
	return OCSD_RESP_CONT;
}

/* Runs @data through an ETMv4 packet processor into scan_packet. */
static int scan_stream(const struct hwt_cs_source *src, const uint8_t *data,
		       size_t size, struct scan *s)
{
	struct hwt_cs_source v4;
	const struct hwt_cs_source *use = v4_source(src, &v4);

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
	/* hwt_cs_sync_end wants a few dozen bytes (an A-sync may be long):
	 * it reads in small blocks and stops at its answer. */
	size_t block = s->first_only ? 256 : 0x40000000u;
	while (!err && done < size && !s->stopped && !s->found) {
		uint32_t want = (uint32_t)(size - done > block ? block
							       : size - done);
		uint32_t n = 0;
		ocsd_datapath_resp_t resp = ocsd_dt_process_data(
			dt, OCSD_OP_DATA, (ocsd_trc_index_t)done, want,
			data + done, &n);
		if (OCSD_DATA_RESP_IS_FATAL(resp) || n == 0)
			s->stopped = true; /* no further sync points */
		done += n;
	}
	/* The stream ended before the history was refreshed, and nothing
	 * read it. */
	if (s->pending && !s->stopped && s->atom_seen)
		sync_point(s, s->pending_at);
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

int hwt_cs_sync_end(const struct hwt_cs_source *src, const uint8_t *data,
		    size_t size, uint64_t *end)
{
	struct scan s = { .first_only = true };
	int err = scan_stream(src, data, size, &s);
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
