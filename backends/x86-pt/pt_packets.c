/* The packet layer of a PT buffer, one packet a line in ptdump's columns:
 * offset, packet name, payload, and for pip/vmcs the tracked value. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/listing.h"

#ifdef HWT_HAVE_LIBIPT
#include "backends/x86-pt/pt_decode.h"

/* A packet's typed fields (listing.h): at most four. */
struct pkt_fields {
	struct hwt_packet_field v[4];
	size_t n;
};

static void field(struct pkt_fields *f, const char *name, uint64_t value)
{
	if (f->n < 4)
		f->v[f->n++] = (struct hwt_packet_field){name, value};
}

static uint64_t sign_extend48(uint64_t v)
{
	return v & (1ull << 47) ? v | ~((1ull << 48) - 1) : v & ((1ull << 48) - 1);
}

/* The IP bits the packet holds ("ip", sign-extended for sext-48) and its
 * compression ("ipc"), as ptdump shows them. */
static void ip_payload(char *buf, size_t n, const struct pt_packet_ip *ip,
		       struct pkt_fields *f)
{
	field(f, "ipc", ip->ipc);
	field(f, "ip", ip->ipc == pt_ipc_sext_48 ? sign_extend48(ip->ip) : ip->ip);
	switch (ip->ipc) {
	case pt_ipc_suppressed:
		snprintf(buf, n, "%x: ????????????????", ip->ipc);
		break;
	case pt_ipc_update_16:
		snprintf(buf, n, "%x: ????????????%04" PRIx64, ip->ipc, ip->ip);
		break;
	case pt_ipc_update_32:
		snprintf(buf, n, "%x: ????????%08" PRIx64, ip->ipc, ip->ip);
		break;
	case pt_ipc_update_48:
		snprintf(buf, n, "%x: ????%012" PRIx64, ip->ipc, ip->ip);
		break;
	case pt_ipc_sext_48:
		snprintf(buf, n, "%x: %016" PRIx64, ip->ipc, sign_extend48(ip->ip));
		break;
	default:
		snprintf(buf, n, "%x: %016" PRIx64, ip->ipc, ip->ip);
		break;
	}
}

static void tnt_payload(char *buf, size_t n, const struct pt_packet_tnt *tnt,
			struct pkt_fields *f)
{
	/* "bits" taken/not-taken bits, the oldest the highest of "payload". */
	field(f, "bits", tnt->bit_size);
	field(f, "payload", tnt->payload);
	size_t bits = tnt->bit_size < n - 1 ? tnt->bit_size : n - 1;
	for (size_t i = 0; i < bits; i++)
		buf[i] = tnt->payload & (1ull << (tnt->bit_size - 1 - i)) ? '!' : '.';
	buf[bits] = 0;
}

static const char *pwrx_reason(const struct pt_packet_pwrx *p)
{
	int n = p->interrupt + p->store + p->autonomous;
	if (n != 1)
		return "bad";
	return p->interrupt ? "int" : p->store ? "st" : "hw";
}

/* Formats @p; returns its name. @track gets the tracked column, if any,
 * @f the packet's values. */
static const char *format_packet(const struct pt_packet *p, char *pay, size_t n,
				 char *track, size_t tn, struct pkt_fields *f)
{
	pay[0] = 0;
	track[0] = 0;
	switch (p->type) {
	case ppt_psb:
		return "psb";
	case ppt_psbend:
		return "psbend";
	case ppt_pad:
		return "pad";
	case ppt_ovf:
		return "ovf";
	case ppt_stop:
		return "stop";
	case ppt_fup:
		ip_payload(pay, n, &p->payload.ip, f);
		return "fup";
	case ppt_tip:
		ip_payload(pay, n, &p->payload.ip, f);
		return "tip";
	case ppt_tip_pge:
		ip_payload(pay, n, &p->payload.ip, f);
		return "tip.pge";
	case ppt_tip_pgd:
		ip_payload(pay, n, &p->payload.ip, f);
		return "tip.pgd";
	case ppt_pip:
		snprintf(pay, n, "%" PRIx64 "%s", p->payload.pip.cr3,
			 p->payload.pip.nr ? ", nr" : "");
		snprintf(track, tn, "cr3  %016" PRIx64, p->payload.pip.cr3);
		field(f, "cr3", p->payload.pip.cr3);
		field(f, "nr", p->payload.pip.nr);
		return "pip";
	case ppt_vmcs:
		snprintf(pay, n, "%" PRIx64, p->payload.vmcs.base);
		snprintf(track, tn, "vmcs %016" PRIx64, p->payload.vmcs.base);
		field(f, "base", p->payload.vmcs.base);
		return "vmcs";
	case ppt_tnt_8:
		tnt_payload(pay, n, &p->payload.tnt, f);
		return "tnt.8";
	case ppt_tnt_64:
		tnt_payload(pay, n, &p->payload.tnt, f);
		return "tnt.64";
	case ppt_mode:
		if (p->payload.mode.leaf == pt_mol_exec) {
			const struct pt_packet_mode_exec *x = &p->payload.mode.bits.exec;
			snprintf(pay, n, "%s%s%s", x->csd ? "cs.d" : "",
				 x->csd && x->csl ? ", " : "", x->csl ? "cs.l" : "");
			field(f, "csd", x->csd);
			field(f, "csl", x->csl);
			return "mode.exec";
		}
		if (p->payload.mode.leaf == pt_mol_tsx) {
			const struct pt_packet_mode_tsx *x = &p->payload.mode.bits.tsx;
			snprintf(pay, n, "%s%s%s", x->intx ? "intx" : "",
				 x->intx && x->abrt ? ", " : "", x->abrt ? "abrt" : "");
			field(f, "intx", x->intx);
			field(f, "abrt", x->abrt);
			return "mode.tsx";
		}
		snprintf(pay, n, "leaf: %x", p->payload.mode.leaf);
		return "mode";
	case ppt_tsc:
		snprintf(pay, n, "%" PRIx64, p->payload.tsc.tsc);
		field(f, "tsc", p->payload.tsc.tsc);
		return "tsc";
	case ppt_cbr:
		snprintf(pay, n, "%x", p->payload.cbr.ratio);
		field(f, "ratio", p->payload.cbr.ratio);
		return "cbr";
	case ppt_tma:
		snprintf(pay, n, "%x, %x", p->payload.tma.ctc, p->payload.tma.fc);
		field(f, "ctc", p->payload.tma.ctc);
		field(f, "fc", p->payload.tma.fc);
		return "tma";
	case ppt_mtc:
		snprintf(pay, n, "%x", p->payload.mtc.ctc);
		field(f, "ctc", p->payload.mtc.ctc);
		return "mtc";
	case ppt_cyc:
		snprintf(pay, n, "%" PRIx64, p->payload.cyc.value);
		field(f, "cycles", p->payload.cyc.value);
		return "cyc";
	case ppt_mnt:
		snprintf(pay, n, "%" PRIx64, p->payload.mnt.payload);
		field(f, "payload", p->payload.mnt.payload);
		return "mnt";
	case ppt_exstop:
		snprintf(pay, n, "%s", p->payload.exstop.ip ? "ip" : "");
		field(f, "ip", p->payload.exstop.ip);
		return "exstop";
	case ppt_mwait:
		snprintf(pay, n, "%08x, %08x", p->payload.mwait.hints,
			 p->payload.mwait.ext);
		field(f, "hints", p->payload.mwait.hints);
		field(f, "ext", p->payload.mwait.ext);
		return "mwait";
	case ppt_pwre:
		snprintf(pay, n, "c%u.%u%s", (p->payload.pwre.state + 1) & 0xf,
			 (p->payload.pwre.sub_state + 1) & 0xf,
			 p->payload.pwre.hw ? ", hw" : "");
		return "pwre";
	case ppt_pwrx:
		snprintf(pay, n, "%s: c%u, c%u", pwrx_reason(&p->payload.pwrx),
			 (p->payload.pwrx.last + 1) & 0xf,
			 (p->payload.pwrx.deepest + 1) & 0xf);
		return "pwrx";
	case ppt_ptw:
		snprintf(pay, n, "%x: %" PRIx64 "%s", p->payload.ptw.plc,
			 p->payload.ptw.payload, p->payload.ptw.ip ? ", ip" : "");
		field(f, "plc", p->payload.ptw.plc);
		field(f, "payload", p->payload.ptw.payload);
		field(f, "ip", p->payload.ptw.ip);
		return "ptw";
	case ppt_invalid:
		return "<invalid>";
	case ppt_unknown:
		if (p->payload.unknown.packet)
			return pt_ext_packet_format(p->payload.unknown.packet, pay,
						    n, track, tn);
		return "<unknown>";
	default:
		return "<unknown>";
	}
}

/* A line of the listing to @sink: a packet, or with @kind "error" the
 * note of a packet that did not decode. */
static int put_line(const struct hwt_packet_sink *sink, uint64_t offset,
		    const char *kind, const struct pkt_fields *f,
		    const char *line)
{
	bool error = !strcmp(kind, "error");
	return hwt_packet_emit(sink, "intel_pt",
			       error ? HWT_PACKET_REC_NOTE : HWT_PACKET_REC_PACKET,
			       true, offset, kind, f ? f->v : NULL, f ? f->n : 0,
			       line);
}

int pt_packets_dump(const struct hwt_decode_params *params,
		    const struct hwt_aux_chunk *chunk,
		    const struct hwt_packet_sink *sink)
{
	struct pt_config config;
	struct pt_time_conv tc;
	struct hwt_decode_params p = {0};

	memcpy(&p, params, params->size < sizeof(p) ? params->size : sizeof(p));
	int err = pt_config_setup(&config, &tc, &p);
	if (err < 0)
		return err;
	if (!chunk->size)
		return 0;
	config.begin = (uint8_t *)chunk->data;
	config.end = config.begin + chunk->size;

	struct pt_packet_decoder *dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a PT packet decoder");

	char pay[96], track[64], line[256];
	/* Like ptdump: start at the first byte, after an error skip to the
	 * next one. */
	int status = pt_pkt_sync_set(dec, 0);
	err = 0;
	while (status >= 0 && err >= 0) {
		while (err >= 0) {
			uint64_t off = 0;
			struct pt_packet pkt;
			pt_pkt_get_offset(dec, &off);
			status = pt_pkt_next(dec, &pkt, sizeof(pkt));
			if (status < 0) {
				if (status != -pte_eos) {
					snprintf(line, sizeof(line), "[%" PRIx64
						 ": error decoding packet: %s]",
						 chunk->offset + off,
						 pt_errstr(pt_errcode(status)));
					err = put_line(sink, chunk->offset + off,
						       "error", NULL, line);
				}
				break;
			}
			struct pkt_fields f = {.n = 0};
			const char *name = format_packet(&pkt, pay, sizeof(pay),
							 track, sizeof(track), &f);
			/* libipt 2.0 does not decode mode.exec's IF bit (bit 2 of
			 * the payload byte); the raw byte has it. */
			if (pkt.type == ppt_mode && pkt.payload.mode.leaf == pt_mol_exec &&
			    off + 1 < chunk->size && (chunk->data[off + 1] & 0x04)) {
				snprintf(pay + strlen(pay), sizeof(pay) - strlen(pay),
					 "%sif", pay[0] ? ", " : "");
				field(&f, "if", 1);
			}
			if (track[0])
				snprintf(line, sizeof(line), "%016" PRIx64
					 "  %-11s%-21s%s", chunk->offset + off,
					 name, pay, track);
			else if (pay[0])
				snprintf(line, sizeof(line), "%016" PRIx64
					 "  %-11s%s", chunk->offset + off, name,
					 pay);
			else
				snprintf(line, sizeof(line), "%016" PRIx64 "  %s",
					 chunk->offset + off, name);
			err = put_line(sink, chunk->offset + off, name, &f, line);
		}
		if (status == -pte_eos)
			break;
		status = pt_pkt_sync_forward(dec);
	}
	pt_pkt_free_decoder(dec);
	return err < 0 ? err : 0;
}
#endif
