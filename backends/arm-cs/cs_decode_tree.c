/* OpenCSD decode tree -> hwtrace elements. */
#ifdef HWT_HAVE_OPENCSD
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "backends/arm-cs/cs_decode_tree.h"
#include "backends/arm-cs/cs_meta.h"
#include "hwtrace/error.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()
#else
#define LSAN_OFF() ((void)0)
#define LSAN_ON() ((void)0)
#endif

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
};

struct hwt_cs_tree {
	dcd_tree_handle_t dt;
	bool formatted;
	struct hwt_image *image;
	const struct hwt_elem_sink *sink;
	FILE *packets;
	int nsources;
	bool out_set;
	int sink_err;
	int32_t def_cpu, def_tid;
	/* OpenCSD's index is 32-bit: map it back to 64-bit stream offsets. */
	uint32_t index;
	uint32_t chunk_index;
	uint64_t chunk_offset;
	struct hwt_cs_counts counts;
	char detail[192];
	struct cs_chan chan[CS_NCHAN];
};

static enum hwt_isa map_isa(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_arm:
		return HWT_ISA_A32;
	case ocsd_isa_thumb2:
		return HWT_ISA_T32;
	case ocsd_isa_aarch64:
		return HWT_ISA_A64;
	default:
		return HWT_ISA_UNKNOWN;
	}
}

static enum hwt_branch_kind range_branch_kind(const ocsd_generic_trace_elem *e)
{
	if (e->last_i_subtype == OCSD_S_INSTR_BR_LINK)
		return HWT_BRANCH_CALL;
	if (e->last_i_type == OCSD_INSTR_BR)
		return e->last_instr_cond ? HWT_BRANCH_COND : HWT_BRANCH_JUMP;
	switch (e->last_i_subtype) {
	case OCSD_S_INSTR_V8_RET:
	case OCSD_S_INSTR_V7_IMPLIED_RET:
		return HWT_BRANCH_RETURN;
	case OCSD_S_INSTR_V8_ERET:
		return HWT_BRANCH_ERET;
	default:
		return HWT_BRANCH_INDIRECT;
	}
}

/* Exception numbers differ per protocol: ETMv4/ETE call SVC/HVC/SMC
 * "Call" (2); ETMv3/PTM number SVC 10. IRQ 14 and FIQ 15 in both. */
static enum hwt_branch_kind exception_kind(enum hwt_cs_proto proto, uint32_t n)
{
	if (n == 14 || n == 15)
		return HWT_BRANCH_INTERRUPT;
	if (proto == HWT_CS_PROTO_ETMV4 || proto == HWT_CS_PROTO_ETE)
		return n == 2 ? HWT_BRANCH_SYSCALL : HWT_BRANCH_EXCEPTION;
	return n == 10 ? HWT_BRANCH_SYSCALL : HWT_BRANCH_EXCEPTION;
}

static uint64_t stream_offset(const struct hwt_cs_tree *t, ocsd_trc_index_t idx)
{
	int32_t delta = (int32_t)((uint32_t)idx - t->chunk_index);
	return t->chunk_offset + (uint64_t)(int64_t)delta;
}

static void elem_init(const struct hwt_cs_tree *t, const struct cs_chan *ch,
		      struct hwt_elem *e, enum hwt_elem_type type,
		      uint64_t offset)
{
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->fields = HWT_FIELD_OFFSET;
	e->trace_offset = offset;
	e->cpu = ch->cpu >= 0 ? ch->cpu : t->def_cpu;
	if (e->cpu >= 0)
		e->fields |= HWT_FIELD_CPU;
	e->tid = ch->tid >= 0 ? ch->tid : t->def_tid;
	if (e->tid >= 0)
		e->fields |= HWT_FIELD_TID;
	e->pid = -1;
	if (ch->have_time) {
		e->time = ch->time;
		e->fields |= HWT_FIELD_TIME;
	}
}

static int emit(struct hwt_cs_tree *t, const struct hwt_elem *e)
{
	if (t->sink_err)
		return t->sink_err;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		t->counts.ranges++;
		t->counts.insns += e->u.range.insns;
		break;
	case HWT_ELEM_BRANCH:
		t->counts.branches++;
		break;
	case HWT_ELEM_GAP:
		t->counts.gaps++;
		break;
	case HWT_ELEM_ERROR:
		t->counts.errors++;
		break;
	default:
		break;
	}
	if (!t->sink) {
		/* Packet listing: only failures are worth a line. */
		if (t->packets && e->type == HWT_ELEM_ERROR)
			fprintf(t->packets, "%" PRIu64 "\terror: %s\n",
				e->trace_offset, e->u.error.message);
		return 0;
	}
	int err = t->sink->emit(t->sink->arg, e);
	if (err < 0)
		t->sink_err = err;
	return err < 0 ? err : 0;
}

static int resolve_pending(struct hwt_cs_tree *t, struct cs_chan *ch,
			   uint64_t to)
{
	if (!ch->pending)
		return 0;
	ch->pending = false;
	struct hwt_elem e;
	elem_init(t, ch, &e, HWT_ELEM_BRANCH, ch->p_offset);
	e.u.branch.from = ch->p_from;
	e.u.branch.to = to;
	e.u.branch.kind = ch->p_kind;
	if (ch->p_has_exc) {
		e.u.branch.exception = ch->p_exc;
		e.fields |= HWT_FIELD_EXC_NUM;
	}
	return emit(t, &e);
}

/* The trace breaks off (trace off, lost sync, end of buffer) after a taken
 * branch or exception whose target it never reached: reported with target
 * 0, as perf reports a branch into the end of trace ("tr end"). */
static int drop_pending(struct hwt_cs_tree *t, struct cs_chan *ch)
{
	return resolve_pending(t, ch, 0);
}

static int emit_gap(struct hwt_cs_tree *t, struct cs_chan *ch,
		    uint64_t offset, enum hwt_gap_reason reason,
		    const char *detail)
{
	struct hwt_elem e;
	elem_init(t, ch, &e, HWT_ELEM_GAP, offset);
	e.u.gap.reason = reason;
	e.u.gap.detail = detail;
	return emit(t, &e);
}

static int map_no_sync(struct hwt_cs_tree *t, struct cs_chan *ch,
		       uint64_t off, unsync_info_t why)
{
	switch (why) {
	case UNSYNC_OVERFLOW:
		return emit_gap(t, ch, off, HWT_GAP_OVERFLOW,
				"trace unit overflow");
	case UNSYNC_BAD_PACKET:
		return emit_gap(t, ch, off, HWT_GAP_DECODE_ERROR,
				"bad packet: waiting for the next sync point");
	case UNSYNC_DISCARD:
		return emit_gap(t, ch, off, HWT_GAP_DECODE_ERROR,
				"speculative trace discarded");
	case UNSYNC_RESET_DECODER:
		return emit_gap(t, ch, off, HWT_GAP_NO_SYNC, "decoder reset");
	case UNSYNC_EOT:
		return emit_gap(t, ch, off, HWT_GAP_NO_SYNC, "end of trace");
	default:
		return emit_gap(t, ch, off, HWT_GAP_NO_SYNC,
				"waiting for a sync point");
	}
}

static int map_elem(struct hwt_cs_tree *t, struct cs_chan *ch, uint64_t off,
		    const ocsd_generic_trace_elem *g)
{
	struct hwt_elem e;
	int err;

	switch (g->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		err = resolve_pending(t, ch, g->st_addr);
		if (err)
			return err;
		elem_init(t, ch, &e, HWT_ELEM_RANGE, off);
		e.u.range.start = g->st_addr;
		e.u.range.end = g->en_addr;
		e.u.range.insns = g->num_instr_range;
		e.u.range.isa = map_isa(g->isa);
		err = emit(t, &e);
		if (err)
			return err;
		if (g->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE &&
		    g->last_instr_exec &&
		    (g->last_i_type == OCSD_INSTR_BR ||
		     g->last_i_type == OCSD_INSTR_BR_INDIRECT)) {
			ch->pending = true;
			ch->p_from = g->en_addr - g->last_instr_sz;
			ch->p_offset = off;
			ch->p_kind = range_branch_kind(g);
			ch->p_has_exc = false;
		}
		return 0;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		/* A taken branch just before an exception went to the
		 * preferred return address. */
		if (ch->pending && g->excep_ret_addr)
			err = resolve_pending(t, ch, g->en_addr);
		else
			err = drop_pending(t, ch);
		if (err)
			return err;
		ch->pending = true;
		ch->p_from = g->excep_ret_addr ? g->en_addr : 0;
		ch->p_offset = off;
		ch->p_kind = exception_kind(ch->proto, g->exception_number);
		ch->p_exc = g->exception_number;
		ch->p_has_exc = true;
		return 0;
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		if (ch->pending && !ch->p_has_exc)
			ch->p_kind = HWT_BRANCH_ERET;
		return 0;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		err = resolve_pending(t, ch, g->st_addr);
		if (err)
			return err;
		snprintf(t->detail, sizeof(t->detail),
			 "0x%" PRIx64 ": no code in the memory image",
			 (uint64_t)g->st_addr);
		return emit_gap(t, ch, off, HWT_GAP_NO_IMAGE, t->detail);
	case OCSD_GEN_TRC_ELEM_ADDR_UNKNOWN:
		err = drop_pending(t, ch);
		if (err)
			return err;
		return emit_gap(t, ch, off, HWT_GAP_DECODE_ERROR,
				"address unknown until the next address packet");
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		err = drop_pending(t, ch);
		if (err)
			return err;
		return map_no_sync(t, ch, off, g->unsync_eot_info);
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		err = drop_pending(t, ch);
		if (err)
			return err;
		if (g->trace_on_reason == TRACE_ON_OVERFLOW) {
			err = emit_gap(t, ch, off, HWT_GAP_OVERFLOW,
				       "trace unit overflow");
			if (err)
				return err;
		}
		elem_init(t, ch, &e, HWT_ELEM_TRACE_ON, off);
		return emit(t, &e);
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		return drop_pending(t, ch);
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
		if (ch->tid_from_vmid) {
			if (g->context.vmid_valid)
				ch->tid = (int32_t)g->context.vmid;
		} else if (g->context.ctxt_id_valid) {
			ch->tid = (int32_t)g->context.context_id;
		}
		ch->el_valid = g->context.el_valid &&
			       g->context.exception_level >= ocsd_EL0;
		ch->el = ch->el_valid ? (uint32_t)g->context.exception_level : 0;
		ch->vmid_valid = g->context.vmid_valid;
		ch->vmid = g->context.vmid;
		elem_init(t, ch, &e, HWT_ELEM_CONTEXT, off);
		if (ch->el_valid) {
			e.u.context.el = ch->el;
			e.fields |= HWT_FIELD_EL;
		}
		if (ch->vmid_valid) {
			e.u.context.vmid = ch->vmid;
			e.fields |= HWT_FIELD_VMID;
		}
		return emit(t, &e);
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		ch->time = g->timestamp;
		ch->have_time = true;
		elem_init(t, ch, &e, HWT_ELEM_TIMESTAMP, off);
		return emit(t, &e);
	default:
		/* Cycle counts, events, sync markers, transactional memory
		 * and software trace carry no control flow. */
		return 0;
	}
}

static ocsd_datapath_resp_t elem_in(const void *ctx, ocsd_trc_index_t idx,
				    uint8_t chan_id,
				    const ocsd_generic_trace_elem *g)
{
	struct hwt_cs_tree *t = (struct hwt_cs_tree *)ctx;
	struct cs_chan *ch = &t->chan[chan_id & (CS_NCHAN - 1)];
	if (map_elem(t, ch, stream_offset(t, idx), g))
		return OCSD_RESP_FATAL_SYS_ERR;
	return OCSD_RESP_CONT;
}

static uint32_t mem_read(const void *ctx, ocsd_vaddr_t addr,
			 ocsd_mem_space_acc_t space, uint8_t trc_id,
			 uint32_t req, uint8_t *buf)
{
	struct hwt_cs_tree *t = (struct hwt_cs_tree *)ctx;
	struct cs_chan *ch = &t->chan[trc_id & (CS_NCHAN - 1)];
	int32_t pid = ch->tid >= 0 ? ch->tid : t->def_tid;
	int n = hwt_image_read(t->image, pid, addr, buf, req);

	/* CONTEXTIDR holds the thread ID, the image is keyed by process:
	 * for a thread other than the main one, any process's code at the
	 * address is the best guess left. */
	if (n == 0 && pid != HWT_PID_ANY)
		n = hwt_image_read(t->image, HWT_PID_ANY, addr, buf, req);
	if (n == HWT_ERR_NOENT) {
		struct hwt_image_section *s =
			hwt_image_find(t->image, pid, addr);
		if (!s)
			s = hwt_image_find(t->image, HWT_PID_ANY, addr);
		if (s && !s->missing_reported) {
			s->missing_reported = 1;
			snprintf(t->detail, sizeof(t->detail),
				 "%s: file not found (use --symfs, "
				 "--buildid-dir or --map)", s->path);
			emit_gap(t, ch, t->chunk_offset, HWT_GAP_NO_IMAGE,
				 t->detail);
		}
		return 0;
	}
	return n > 0 ? (uint32_t)n : 0;
}

struct cs_pkt_ctx {
	struct hwt_cs_tree *t;
	ocsd_trace_protocol_t proto;
	uint8_t id;
};

static ocsd_datapath_resp_t pkt_in(const void *ctx, ocsd_datapath_op_t op,
				   ocsd_trc_index_t idx, const void *pkt)
{
	const struct cs_pkt_ctx *pc = ctx;
	char buf[512];

	if (op != OCSD_OP_DATA || !pkt)
		return OCSD_RESP_CONT;
	if (ocsd_pkt_str(pc->proto, pkt, buf, sizeof(buf)) != OCSD_OK)
		snprintf(buf, sizeof(buf), "(unprintable packet)");
	fprintf(pc->t->packets, "%" PRIu64 "\tID:%02x\t%s\n",
		stream_offset(pc->t, idx), pc->id, buf);
	return OCSD_RESP_CONT;
}

int hwt_cs_tree_new(uint32_t frame_flags, struct hwt_image *image,
		    const struct hwt_elem_sink *sink, FILE *packets,
		    struct hwt_cs_tree **out)
{
	struct hwt_cs_tree *t = calloc(1, sizeof(*t));
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	bool formatted = frame_flags != 0;
	t->formatted = formatted;
	t->image = image;
	t->sink = sink;
	t->packets = packets;
	t->def_cpu = -1;
	t->def_tid = -1;
	for (int i = 0; i < CS_NCHAN; i++) {
		t->chan[i].cpu = -1;
		t->chan[i].tid = -1;
	}
	t->dt = ocsd_create_dcd_tree(formatted ? OCSD_TRC_SRC_FRAME_FORMATTED
					       : OCSD_TRC_SRC_SINGLE,
				     frame_flags);
	if (t->dt == C_API_INVALID_TREE_HANDLE) {
		free(t);
		return hwt_error(HWT_ERR_DECODE,
				 "OpenCSD could not create a decode tree");
	}
	if (!packets) {
		if (image)
			ocsd_dt_add_callback_trcid_mem_acc(t->dt, 0, ~0ull,
							   OCSD_MEM_SPACE_ANY,
							   mem_read, t);
	}
	*out = t;
	return 0;
}

void hwt_cs_tree_free(struct hwt_cs_tree *t)
{
	if (!t)
		return;
	ocsd_destroy_dcd_tree(t->dt);
	for (int i = 0; i < CS_NCHAN; i++)
		free(t->chan[i].pkt);
	free(t);
}

static const char *proto_name(enum hwt_cs_proto p)
{
	switch (p) {
	case HWT_CS_PROTO_ETMV3:
		return OCSD_BUILTIN_DCD_ETMV3;
	case HWT_CS_PROTO_PTM:
		return OCSD_BUILTIN_DCD_PTM;
	case HWT_CS_PROTO_ETMV4:
		return OCSD_BUILTIN_DCD_ETMV4I;
	case HWT_CS_PROTO_ETE:
		return OCSD_BUILTIN_DCD_ETE;
	}
	return "?";
}

static ocsd_trace_protocol_t proto_ocsd(enum hwt_cs_proto p)
{
	switch (p) {
	case HWT_CS_PROTO_ETMV3:
		return OCSD_PROTOCOL_ETMV3;
	case HWT_CS_PROTO_PTM:
		return OCSD_PROTOCOL_PTM;
	case HWT_CS_PROTO_ETMV4:
		return OCSD_PROTOCOL_ETMV4I;
	case HWT_CS_PROTO_ETE:
		return OCSD_PROTOCOL_ETE;
	}
	return OCSD_PROTOCOL_UNKNOWN;
}

/* OpenCSD 1.3.3's C API cannot attach a packet sink to an ETE packet
 * processor; ETE packets are ETMv4 packets plus a few, so the ETMv4
 * processor lists them (the few as reserved headers). */
static const struct hwt_cs_source *ete_as_etmv4(const struct hwt_cs_source *s,
						struct hwt_cs_source *v4)
{
	memset(v4, 0, sizeof(*v4));
	v4->proto = HWT_CS_PROTO_ETMV4;
	v4->cpu = s->cpu;
	v4->trace_id = s->trace_id;
	v4->cfg.etmv4.reg_idr0 = s->cfg.ete.reg_idr0;
	v4->cfg.etmv4.reg_idr1 = s->cfg.ete.reg_idr1;
	v4->cfg.etmv4.reg_idr2 = s->cfg.ete.reg_idr2;
	v4->cfg.etmv4.reg_idr8 = s->cfg.ete.reg_idr8;
	v4->cfg.etmv4.reg_configr = s->cfg.ete.reg_configr;
	v4->cfg.etmv4.reg_traceidr = s->cfg.ete.reg_traceidr;
	v4->cfg.etmv4.arch_ver = s->cfg.ete.arch_ver;
	v4->cfg.etmv4.core_prof = s->cfg.ete.core_prof;
	return v4;
}

int hwt_cs_tree_add_source(struct hwt_cs_tree *t,
			   const struct hwt_cs_source *src)
{
	uint8_t id = src->trace_id & 0x7f;
	struct cs_chan *ch = &t->chan[id];
	if (ch->used)
		return hwt_error(HWT_ERR_BUSY,
				 "trace ID 0x%x is used by two trace sources "
				 "(CPU %d and CPU %d)", id, ch->cpu, src->cpu);
	unsigned char csid = 0;
	int flags = t->packets ? OCSD_CREATE_FLG_PACKET_PROC
			       : OCSD_CREATE_FLG_FULL_DECODER;
	struct hwt_cs_source v4;
	const struct hwt_cs_source *use = src;
	if (t->packets && src->proto == HWT_CS_PROTO_ETE)
		use = ete_as_etmv4(src, &v4);
	ocsd_err_t oerr = ocsd_dt_create_decoder(t->dt, proto_name(use->proto),
						 flags, &use->cfg, &csid);
	if (oerr != OCSD_OK) {
		char msg[128];
		ocsd_err_str(oerr, msg, sizeof(msg));
		return hwt_error(HWT_ERR_CONFIG,
				 "OpenCSD rejected the %s decoder for trace "
				 "ID 0x%x (CPU %d): %s", proto_name(src->proto),
				 id, src->cpu, msg);
	}
	if (t->packets) {
		struct cs_pkt_ctx *pc = calloc(1, sizeof(*pc));
		if (!pc)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		pc->t = t;
		pc->proto = proto_ocsd(use->proto);
		pc->id = id;
		ch->pkt = pc;
		oerr = ocsd_dt_attach_packet_callback(t->dt, csid,
						      OCSD_C_API_CB_PKT_SINK,
						      (void *)pkt_in, pc);
		if (oerr != OCSD_OK) {
			free(pc);
			return hwt_error(HWT_ERR_NOSUP,
					 "OpenCSD cannot list %s packets "
					 "(trace ID 0x%x)",
					 proto_name(src->proto), id);
		}
	}
	ch->used = true;
	ch->proto = src->proto;
	ch->cpu = src->cpu;
	uint32_t configr = src->proto == HWT_CS_PROTO_ETMV4 ? src->cfg.etmv4.reg_configr
			 : src->proto == HWT_CS_PROTO_ETE ? src->cfg.ete.reg_configr
							  : 0;
	uint32_t vmid2 = (1u << HWT_CS_TRCCONFIGR_VMID) |
			 (1u << HWT_CS_TRCCONFIGR_VMID_OPT);
	ch->tid_from_vmid = (configr & vmid2) == vmid2;
	t->nsources++;
	return 0;
}

int hwt_cs_tree_sources(const struct hwt_cs_tree *t)
{
	return t->nsources;
}

void hwt_cs_tree_set_default_ctx(struct hwt_cs_tree *t, int32_t cpu,
				 int32_t tid)
{
	t->def_cpu = cpu;
	t->def_tid = tid;
}

static int emit_decode_error(struct hwt_cs_tree *t, ocsd_datapath_resp_t resp,
			     uint64_t offset)
{
	char msg[256], text[320];
	ocsd_trc_index_t idx = 0;
	uint8_t chan = 0;
	ocsd_err_t oerr = ocsd_get_last_err(&idx, &chan, msg, sizeof(msg));
	if (oerr == OCSD_OK || !msg[0])
		snprintf(msg, sizeof(msg), "response %d", (int)resp);
	snprintf(text, sizeof(text), "OpenCSD failed: %s", msg);
	struct hwt_elem e;
	elem_init(t, &t->chan[chan & (CS_NCHAN - 1)], &e, HWT_ELEM_ERROR,
		  offset);
	e.u.error.message = text;
	return emit(t, &e);
}

/* OpenCSD asks the client to WAIT when an output stage is busy: flush
 * until it continues, then resume sending data. */
static ocsd_datapath_resp_t drain_wait(struct hwt_cs_tree *t,
				       ocsd_datapath_resp_t resp)
{
	uint32_t n;
	for (int guard = 0; OCSD_DATA_RESP_IS_WAIT(resp) && guard < 1000000;
	     guard++)
		resp = ocsd_dt_process_data(t->dt, OCSD_OP_FLUSH, 0, 0, NULL,
					    &n);
	return resp;
}

/* The tree hands its element output only to decoders that exist when it
 * is set, so it is set once, before the first data. OpenCSD 1.3.3's C API
 * never frees the small callback object this allocates (one per tree);
 * the leak checker is told to ignore it. */
static void set_output(struct hwt_cs_tree *t)
{
	if (t->out_set || t->packets)
		return;
	LSAN_OFF();
	ocsd_dt_set_gen_elem_outfn(t->dt, elem_in, t);
	LSAN_ON();
	t->out_set = true;
}

int hwt_cs_tree_feed(struct hwt_cs_tree *t, const uint8_t *data, size_t size,
		     uint64_t offset)
{
	size_t done = 0;

	set_output(t);
	t->chunk_index = t->index;
	t->chunk_offset = offset;
	while (done < size && !t->sink_err) {
		uint32_t want = size - done > 0x40000000u ? 0x40000000u
							  : (uint32_t)(size - done);
		uint32_t n = 0;
		ocsd_datapath_resp_t resp = ocsd_dt_process_data(
			t->dt, OCSD_OP_DATA, t->index, want, data + done, &n);
		if (n > want)
			n = want;
		done += n;
		t->index += n;
		bool waited = OCSD_DATA_RESP_IS_WAIT(resp);
		if (waited)
			resp = drain_wait(t, resp);
		if (t->sink_err)
			break;
		/* A decoder that neither fails nor moves on would loop here
		 * forever: treat it as a failure. */
		if (!OCSD_DATA_RESP_IS_FATAL(resp) && !OCSD_DATA_RESP_IS_WAIT(resp) &&
		    (n > 0 || waited))
			continue;
		int err = emit_decode_error(t, resp, offset + done);
		if (err)
			return err;
		ocsd_dt_process_data(t->dt, OCSD_OP_RESET, t->index, 0, NULL,
				     &n);
		/* Resume at the next frame (formatted) or byte (raw). */
		size_t skip = 1;
		if (t->formatted)
			skip = OCSD_DFRMTR_FRAME_SIZE -
			       (t->index - t->chunk_index) % OCSD_DFRMTR_FRAME_SIZE;
		if (skip > size - done)
			skip = size - done;
		done += skip;
		t->index += (uint32_t)skip;
	}
	return t->sink_err;
}

int hwt_cs_tree_eot(struct hwt_cs_tree *t)
{
	uint32_t n;
	set_output(t);
	ocsd_datapath_resp_t resp =
		ocsd_dt_process_data(t->dt, OCSD_OP_EOT, t->index, 0, NULL, &n);
	if (OCSD_DATA_RESP_IS_WAIT(resp))
		resp = drain_wait(t, resp);
	if (t->sink_err)
		return t->sink_err;
	if (OCSD_DATA_RESP_IS_FATAL(resp)) {
		int err = emit_decode_error(t, resp, t->chunk_offset);
		if (err)
			return err;
	}
	for (int i = 0; i < CS_NCHAN; i++) {
		int err = drop_pending(t, &t->chan[i]);
		if (err)
			return err;
	}
	return 0;
}

void hwt_cs_tree_reset(struct hwt_cs_tree *t)
{
	uint32_t n;
	ocsd_dt_process_data(t->dt, OCSD_OP_RESET, t->index, 0, NULL, &n);
	for (int i = 0; i < CS_NCHAN; i++)
		t->chan[i].pending = false;
}

void hwt_cs_tree_counts(const struct hwt_cs_tree *t,
			struct hwt_cs_counts *counts)
{
	*counts = t->counts;
}

#endif
