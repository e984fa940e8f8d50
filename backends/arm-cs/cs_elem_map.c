/* OpenCSD's generic trace elements -> hwtrace elements: ranges become
 * ranges and branches (a taken branch waits for the next range to learn
 * its target), plus exceptions, gaps, errors and context. */
#ifdef HWT_HAVE_OPENCSD
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backends/arm-cs/cs_tree_internal.h"
#include "hwtrace/error.h"

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

static void elem_init(const struct hwt_cs_tree *t, const struct cs_chan *ch,
		      struct hwt_elem *e, enum hwt_elem_type type,
		      uint64_t offset)
{
	hwt_elem_clear(e, type);
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
	if (e->trace_offset < t->emit_from)
		return 0;
	if (t->window_passed || e->trace_offset >= t->emit_until) {
		t->window_passed = true;
		return 0;
	}
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
		if (t->packets && e->type == HWT_ELEM_ERROR) {
			char line[600];
			snprintf(line, sizeof(line), "%" PRIu64 "\terror: %s",
				 e->trace_offset, e->u.error.message);
			return hwt_cs_list_line(t, HWT_PACKET_REC_NOTE,
						e->trace_offset, "error", NULL,
						0, line);
		}
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

/* Emits the held trace_on, with @at when the trace said where tracing
 * resumed, and the elements held after it. */
int hwt_cs_release_held(struct hwt_cs_tree *t, struct cs_chan *ch,
			bool have_at, uint64_t at)
{
	int n = ch->nheld, err = 0;

	ch->nheld = 0;
	if (t->holder == ch)
		t->holder = NULL;
	if (n && have_at) {
		ch->held[0].u.trace.at = at;
		ch->held[0].fields |= HWT_FIELD_AT;
	}
	for (int i = 0; i < n && !err; i++)
		err = emit(t, &ch->held[i]);
	return err;
}

/* Emits @e, or holds it behind a held trace_on (see struct cs_chan). */
static int hold_or_emit(struct hwt_cs_tree *t, struct cs_chan *ch,
			const struct hwt_elem *e)
{
	if (!ch->nheld && e->type != HWT_ELEM_TRACE_ON)
		return emit(t, e);
	t->holder = ch;
	if (ch->nheld == (int)(sizeof(ch->held) / sizeof(ch->held[0]))) {
		int err = hwt_cs_release_held(t, ch, false, 0);
		return err ? err : emit(t, e);
	}
	ch->held[ch->nheld++] = *e;
	return 0;
}

/* The trace breaks off (trace off, lost sync, end of buffer) after a taken
 * branch or exception whose target it never reached: reported with target
 * 0, as perf reports a branch into the end of trace ("tr end"). A held
 * trace_on goes out without an address. */
int hwt_cs_drop_pending(struct hwt_cs_tree *t, struct cs_chan *ch)
{
	int err = hwt_cs_release_held(t, ch, false, 0);

	return err ? err : resolve_pending(t, ch, 0);
}

int hwt_cs_emit_gap(struct hwt_cs_tree *t, struct cs_chan *ch,
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
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_OVERFLOW,
				       "trace unit overflow");
	case UNSYNC_BAD_PACKET:
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_DECODE_ERROR,
				       "bad packet: waiting for the next sync point");
	case UNSYNC_DISCARD:
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_DECODE_ERROR,
				       "speculative trace discarded");
	case UNSYNC_RESET_DECODER:
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_NO_SYNC, "decoder reset");
	case UNSYNC_EOT:
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_NO_SYNC, "end of trace");
	default:
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_NO_SYNC,
				       "waiting for a sync point");
	}
}

static int map_elem(struct hwt_cs_tree *t, struct cs_chan *ch, uint64_t off,
		    const ocsd_generic_trace_elem *g)
{
	struct hwt_elem e;
	int err;

	/* Another channel's held elements go first, as they came. */
	if (t->holder && t->holder != ch &&
	    (err = hwt_cs_release_held(t, t->holder, false, 0)))
		return err;
	/* A held trace_on learns its address from the first range or
	 * unreadable address; anything else but context and time sends it
	 * out without one. */
	if (ch->nheld && g->elem_type != OCSD_GEN_TRC_ELEM_PE_CONTEXT &&
	    g->elem_type != OCSD_GEN_TRC_ELEM_TIMESTAMP) {
		bool addr = g->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE ||
			    g->elem_type == OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH ||
			    g->elem_type == OCSD_GEN_TRC_ELEM_ADDR_NACC;
		if ((err = hwt_cs_release_held(t, ch, addr, g->st_addr)))
			return err;
	}
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
			err = hwt_cs_drop_pending(t, ch);
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
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_NO_IMAGE, t->detail);
	case OCSD_GEN_TRC_ELEM_ADDR_UNKNOWN:
		err = hwt_cs_drop_pending(t, ch);
		if (err)
			return err;
		return hwt_cs_emit_gap(t, ch, off, HWT_GAP_DECODE_ERROR,
				       "address unknown until the next address packet");
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		err = hwt_cs_drop_pending(t, ch);
		if (err)
			return err;
		return map_no_sync(t, ch, off, g->unsync_eot_info);
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		err = hwt_cs_drop_pending(t, ch);
		if (err)
			return err;
		if (g->trace_on_reason == TRACE_ON_OVERFLOW) {
			err = hwt_cs_emit_gap(t, ch, off, HWT_GAP_OVERFLOW,
					      "trace unit overflow");
			if (err)
				return err;
		}
		elem_init(t, ch, &e, HWT_ELEM_TRACE_ON, off);
		return hold_or_emit(t, ch, &e);
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		return hwt_cs_drop_pending(t, ch);
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
		return hold_or_emit(t, ch, &e);
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		ch->time = g->timestamp;
		ch->have_time = true;
		elem_init(t, ch, &e, HWT_ELEM_TIMESTAMP, off);
		return hold_or_emit(t, ch, &e);
	default:
		/* Cycle counts, events, sync markers, transactional memory
		 * and software trace carry no control flow. */
		return 0;
	}
}

ocsd_datapath_resp_t hwt_cs_elem_in(const void *ctx, ocsd_trc_index_t idx,
				    uint8_t chan_id,
				    const ocsd_generic_trace_elem *g)
{
	struct hwt_cs_tree *t = (struct hwt_cs_tree *)ctx;
	struct cs_chan *ch = &t->chan[chan_id & (CS_NCHAN - 1)];
	if (map_elem(t, ch, hwt_cs_stream_offset(t, idx), g))
		return OCSD_RESP_FATAL_SYS_ERR;
	return OCSD_RESP_CONT;
}

static const char *response_text(ocsd_datapath_resp_t resp)
{
	switch (resp) {
	case OCSD_RESP_FATAL_NOT_INIT:
		return "a component is not initialised";
	case OCSD_RESP_FATAL_INVALID_OP:
		return "invalid data path operation";
	case OCSD_RESP_FATAL_INVALID_PARAM:
		return "invalid parameter";
	case OCSD_RESP_FATAL_INVALID_DATA:
		return "invalid trace data";
	case OCSD_RESP_FATAL_SYS_ERR:
		return "internal error";
	default:
		return "unexpected response";
	}
}

/* OpenCSD's own error text is not read: its error logger is one for the
 * process, and decoders on several threads would write it at once (see
 * hwt_cs_tree_new), so it is off. The error goes on the tree's one
 * source's channel, or on none when the tree has several. */
int hwt_cs_emit_decode_error(struct hwt_cs_tree *t, ocsd_datapath_resp_t resp,
			     uint64_t offset)
{
	char text[128];
	snprintf(text, sizeof(text), "OpenCSD failed: %s (response %d)",
		 response_text(resp), (int)resp);
	struct cs_chan none = {.cpu = -1, .tid = -1}, *ch = &none;
	for (int i = 0; t->nsources == 1 && i < CS_NCHAN; i++)
		if (t->chan[i].used)
			ch = &t->chan[i];
	struct hwt_elem e;
	elem_init(t, ch, &e, HWT_ELEM_ERROR, offset);
	e.u.error.message = text;
	return emit(t, &e);
}
#endif
