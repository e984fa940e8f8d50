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

/* One pass of the loop `400000 inc rax; 400003 jne 400000` taken on
 * every TNT bit: 47 passes in one TNT. A pass for pt_enc_passes. */
static inline int pt_enc_loop_taken(struct pt_encoder *e, void *arg)
{
	struct pt_packet p;
	(void)arg;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_64;
	p.payload.tnt.bit_size = 47;
	p.payload.tnt.payload = (1ull << 47) - 1;
	return pt_enc_put(e, &p);
}

/* Fills up to @size bytes of @buf with what @pass writes, again and
 * again, and a PSB+ every 4 KiB, as a real trace unit writes one (its
 * TSC counting up by 100 from @tsc, its FUP @org); the first PSB+
 * enables tracing at @org. Returns the bytes written, 0 on failure. */
static inline size_t pt_enc_passes(uint8_t *buf, size_t size, uint64_t tsc,
				   uint64_t org,
				   int (*pass)(struct pt_encoder *, void *),
				   void *arg)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + size;
	struct pt_encoder *e = pt_alloc_encoder(&c);
	if (!e)
		return 0;
	uint64_t off = 0, next_psb = 0;
	int err = 0;
	while (!err && off + 64 < size) {
		if (off >= next_psb) {
			err = pt_enc_psb_plus(e, tsc += 100, off ? org : 0);
			if (!off)
				err |= pt_enc_ip(e, ppt_tip_pge, org);
			next_psb = off + 4096;
		} else {
			err = pass(e, arg);
		}
		pt_enc_get_offset(e, &off);
	}
	pt_free_encoder(e);
	return err ? 0 : (size_t)off;
}

#endif
