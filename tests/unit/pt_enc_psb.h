/* Test helper: libipt's encoder, one packet at a time, and a PSB+ as a
 * real trace unit writes one. */
#ifndef HWT_TESTS_UNIT_PT_ENC_PSB_H
#define HWT_TESTS_UNIT_PT_ENC_PSB_H

#include <stdint.h>
#include <string.h>

#include <intel-pt.h>

/* Encodes @p and clears it for the next packet; nonzero on failure. */
static inline int pt_enc_put(struct pt_encoder *e, struct pt_packet *p)
{
	int n = pt_enc_next(e, p);
	memset(p, 0, sizeof(*p));
	return n < 0;
}

/* PSB, TSC @tsc, MODE.Exec 64-bit, FUP @ip when tracing is on (@ip
 * non-zero), PSBEND; nonzero on failure. */
static inline int pt_enc_psb_plus(struct pt_encoder *e, uint64_t tsc,
				  uint64_t ip)
{
	struct pt_packet p;
	int err = 0;
	memset(&p, 0, sizeof(p));
	p.type = ppt_psb;
	err |= pt_enc_put(e, &p);
	p.type = ppt_tsc;
	p.payload.tsc.tsc = tsc;
	err |= pt_enc_put(e, &p);
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	err |= pt_enc_put(e, &p);
	if (ip) {
		p.type = ppt_fup;
		p.payload.ip.ipc = pt_ipc_sext_48;
		p.payload.ip.ip = ip;
		err |= pt_enc_put(e, &p);
	}
	p.type = ppt_psbend;
	err |= pt_enc_put(e, &p);
	return err;
}

/* TIP, TIP.PGE, TIP.PGD or FUP to @ip (0: IP suppressed). */
static inline int pt_enc_ip(struct pt_encoder *e, enum pt_packet_type type,
			    uint64_t ip)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = type;
	p.payload.ip.ipc = ip ? pt_ipc_sext_48 : pt_ipc_suppressed;
	p.payload.ip.ip = ip;
	return pt_enc_put(e, &p);
}

#endif
