/* OpenCSD decode tree: creating it, adding sources, feeding trace and
 * memory; the elements it makes are mapped in cs_elem_map.c. */
#ifdef HWT_HAVE_OPENCSD
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/arm-cs/cs_fault_scan.h"
#include "backends/arm-cs/cs_tree_internal.h"
#include "hwtrace/error.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()
#else
#define LSAN_OFF() ((void)0)
#define LSAN_ON() ((void)0)
#endif

/* OpenCSD 1.3.3's C API keeps its trees and their callback objects in
 * global tables without a lock, and its decoder registry is built on
 * first use: threads decoding at once set trees up and tear them down
 * one at a time. Feeding a tree touches only the tree. */
static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;

void hwt_cs_api_lock(void)
{
	pthread_mutex_lock(&api_lock);
}

void hwt_cs_api_unlock(void)
{
	pthread_mutex_unlock(&api_lock);
}

static uint32_t mem_read(const void *ctx, ocsd_vaddr_t addr,
			 ocsd_mem_space_acc_t space, uint8_t trc_id,
			 uint32_t req, uint8_t *buf)
{
	struct hwt_cs_tree *t = (struct hwt_cs_tree *)ctx;
	struct cs_chan *ch = &t->chan[trc_id & (CS_NCHAN - 1)];
	int32_t pid = ch->tid >= 0 ? ch->tid : t->def_tid;
	int n = hwt_image_read_at(t->image, pid, addr, t->code_time, buf, req);

	/* CONTEXTIDR holds the thread ID, the image is keyed by process:
	 * for a thread other than the main one, any process's code at the
	 * address is the best guess left. */
	if (n == 0 && pid != HWT_PID_ANY)
		n = hwt_image_read_at(t->image, HWT_PID_ANY, addr, t->code_time,
				      buf, req);
	/* The first code read after a trace_on is where tracing resumed;
	 * another channel's held elements came before this read. */
	if (t->holder && t->holder != ch &&
	    hwt_cs_release_held(t, t->holder, false, 0))
		return 0;
	if (ch->nheld && hwt_cs_release_held(t, ch, true, addr))
		return 0;
	if (n == HWT_ERR_NOENT) {
		struct hwt_image_section *s =
			hwt_image_find_at(t->image, pid, addr, t->code_time);
		if (!s)
			s = hwt_image_find_at(t->image, HWT_PID_ANY, addr,
					      t->code_time);
		if (s && hwt_image_section_first_report(s)) {
			if (s->missing_detail)
				snprintf(t->detail, sizeof(t->detail), "%s",
					 s->missing_detail);
			else
				snprintf(t->detail, sizeof(t->detail),
					 "%s: file not found (use --symfs, "
					 "--buildid-dir or --map)", s->path);
			hwt_cs_emit_gap(t, ch, t->chunk_offset, HWT_GAP_NO_IMAGE,
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

int hwt_cs_list_line(struct hwt_cs_tree *t, enum hwt_packet_rec_type type,
		     uint64_t offset, const char *kind,
		     const struct hwt_packet_field *fields, size_t nfields,
		     const char *line)
{
	int err = hwt_packet_emit(t->packets, "cs_etm", type, true, offset, kind,
				  fields, nfields, line);
	if (err < 0)
		t->sink_err = err;
	return err < 0 ? err : 0;
}

/* OpenCSD's packet string starts with the packet's name ("I_ASYNC : ..",
 * "ATOM : .."): its first word is the record's kind. */
static void packet_kind(const char *str, char *kind, size_t size)
{
	size_t n = strcspn(str, " :;\t");
	if (n >= size)
		n = size - 1;
	memcpy(kind, str, n);
	kind[n] = 0;
}

static ocsd_datapath_resp_t pkt_in(const void *ctx, ocsd_datapath_op_t op,
				   ocsd_trc_index_t idx, const void *pkt)
{
	const struct cs_pkt_ctx *pc = ctx;
	char buf[512], line[560];

	if (op != OCSD_OP_DATA || !pkt || pc->t->sink_err)
		return OCSD_RESP_CONT;
	if (pc->t->fault) {
		hwt_cs_fault_check(pc->t->fault, pc->proto, pkt,
				   hwt_cs_stream_offset(pc->t, idx));
		return OCSD_RESP_CONT;
	}
	if (ocsd_pkt_str(pc->proto, pkt, buf, sizeof(buf)) != OCSD_OK)
		snprintf(buf, sizeof(buf), "(unprintable packet)");
	uint64_t offset = hwt_cs_stream_offset(pc->t, idx);
	snprintf(line, sizeof(line), "%" PRIu64 "\tID:%02x\t%s", offset, pc->id,
		 buf);
	char kind[48];
	/* The trace ID first, then what the protocol's packet holds. */
	struct hwt_packet_field fields[4] = {{"id", pc->id}};
	packet_kind(buf, kind, sizeof(kind));
	size_t n = 1 + hwt_cs_packet_fields(pc->proto, pkt, fields + 1, 3);
	int err = hwt_cs_list_line(pc->t, HWT_PACKET_REC_PACKET, offset, kind,
				   fields, n, line);
	return err < 0 ? OCSD_RESP_FATAL_SYS_ERR : OCSD_RESP_CONT;
}

int hwt_cs_tree_new(uint32_t frame_flags, struct hwt_image *image,
		    const struct hwt_elem_sink *sink,
		    const struct hwt_packet_sink *packets,
		    struct hwt_cs_tree **out)
{
	struct hwt_cs_tree *t = calloc(1, sizeof(*t));
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	bool formatted = frame_flags != 0;
	t->formatted = formatted;
	t->image = image;
	t->code_time = HWT_TIME_UNKNOWN;
	t->sink = sink;
	t->packets = packets;
	t->def_cpu = -1;
	t->def_tid = -1;
	t->emit_until = UINT64_MAX;
	for (int i = 0; i < CS_NCHAN; i++) {
		t->chan[i].cpu = -1;
		t->chan[i].tid = -1;
	}
	hwt_cs_api_lock();
	/* OpenCSD logs a decoder's errors into one object for the whole
	 * process, a C++ string assigned on each: decoders on two threads
	 * failing at once would corrupt the heap. Logging is turned off
	 * (hwt_cs_emit_decode_error says what failed without it). */
	static bool errlog_off;
	if (!errlog_off) {
		ocsd_def_errlog_init(OCSD_ERR_SEV_NONE, 0);
		errlog_off = true;
	}
	t->dt = ocsd_create_dcd_tree(formatted ? OCSD_TRC_SRC_FRAME_FORMATTED
					       : OCSD_TRC_SRC_SINGLE,
				     frame_flags);
	if (t->dt != C_API_INVALID_TREE_HANDLE && !packets && image)
		ocsd_dt_add_callback_trcid_mem_acc(t->dt, 0, ~0ull,
						   OCSD_MEM_SPACE_ANY, mem_read,
						   t);
	hwt_cs_api_unlock();
	if (t->dt == C_API_INVALID_TREE_HANDLE) {
		free(t);
		return hwt_error(HWT_ERR_DECODE,
				 "OpenCSD could not create a decode tree");
	}
	*out = t;
	return 0;
}

void hwt_cs_tree_free(struct hwt_cs_tree *t)
{
	if (!t)
		return;
	hwt_cs_api_lock();
	ocsd_destroy_dcd_tree(t->dt);
	hwt_cs_api_unlock();
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

const struct hwt_cs_source *hwt_cs_ete_as_etmv4(const struct hwt_cs_source *s,
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
	bool split_only = t->packets || t->fault;
	int flags = split_only ? OCSD_CREATE_FLG_PACKET_PROC
			       : OCSD_CREATE_FLG_FULL_DECODER;
	struct hwt_cs_source v4;
	const struct hwt_cs_source *use = src;
	if (split_only && src->proto == HWT_CS_PROTO_ETE)
		use = hwt_cs_ete_as_etmv4(src, &v4);
	hwt_cs_api_lock();
	ocsd_err_t oerr = ocsd_dt_create_decoder(t->dt, proto_name(use->proto),
						 flags, &use->cfg, &csid);
	hwt_cs_api_unlock();
	if (oerr != OCSD_OK) {
		char msg[128];
		ocsd_err_str(oerr, msg, sizeof(msg));
		return hwt_error(HWT_ERR_CONFIG,
				 "OpenCSD rejected the %s decoder for trace "
				 "ID 0x%x (CPU %d): %s", proto_name(src->proto),
				 id, src->cpu, msg);
	}
	if (split_only) {
		struct cs_pkt_ctx *pc = calloc(1, sizeof(*pc));
		if (!pc)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		pc->t = t;
		pc->proto = proto_ocsd(use->proto);
		pc->id = id;
		hwt_cs_api_lock();
		oerr = ocsd_dt_attach_packet_callback(t->dt, csid,
						      OCSD_C_API_CB_PKT_SINK,
						      (void *)pkt_in, pc);
		hwt_cs_api_unlock();
		if (oerr != OCSD_OK) {
			free(pc);
			return hwt_error(HWT_ERR_NOSUP,
					 "OpenCSD cannot list %s packets "
					 "(trace ID 0x%x)",
					 proto_name(src->proto), id);
		}
		/* The channel owns it (hwt_cs_tree_free) only once attached:
		 * a failed attach freed it above. */
		ch->pkt = pc;
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

void hwt_cs_tree_scan_faults(struct hwt_cs_tree *t, struct hwt_cs_fault *fault)
{
	t->fault = fault;
}

/* The tree hands its element output only to decoders that exist when it
 * is set, so it is set once, before the first data. OpenCSD 1.3.3's C API
 * never frees the small callback object this allocates (one per tree);
 * the leak checker is told to ignore it. */
static void set_output(struct hwt_cs_tree *t)
{
	if (t->out_set || t->packets || t->fault)
		return;
	hwt_cs_api_lock();
	LSAN_OFF();
	ocsd_dt_set_gen_elem_outfn(t->dt, hwt_cs_elem_in, t);
	LSAN_ON();
	hwt_cs_api_unlock();
	t->out_set = true;
}

void hwt_cs_tree_set_time(struct hwt_cs_tree *t, uint64_t time)
{
	t->code_time = time;
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
		int err = hwt_cs_emit_decode_error(t, resp, offset + done);
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
		int err = hwt_cs_emit_decode_error(t, resp, t->chunk_offset);
		if (err)
			return err;
	}
	for (int i = 0; i < CS_NCHAN; i++) {
		int err = hwt_cs_drop_pending(t, &t->chan[i]);
		if (err)
			return err;
	}
	return 0;
}

void hwt_cs_tree_set_window(struct hwt_cs_tree *t, uint64_t from,
			    uint64_t until)
{
	t->emit_from = from;
	t->emit_until = until;
	t->window_passed = false;
}

bool hwt_cs_tree_window_passed(const struct hwt_cs_tree *t)
{
	return t->window_passed;
}

void hwt_cs_tree_counts(const struct hwt_cs_tree *t,
			struct hwt_cs_counts *counts)
{
	*counts = t->counts;
}
#endif
