/* An Intel PT trace with every kind of taken branch, made with libipt's
 * packet encoder for the edges benchmark (bench_pt_edges) and its test
 * (tests/unit/test_pt_edges_match_decode.c). Header only.
 *
 * The code, at PT_EDGES_ORG, 64-bit:
 *   400000: 48 ff c0        inc rax
 *   400003: a8 01           test al, 1
 *   400005: 74 05           jz 40000c            TNT
 *   400007: e8 14 00 00 00  call 400020          (direct)
 *   40000c: ff e3           jmp rbx              TIP 400010
 *   40000e: 90 90           nop; nop
 *   400010: 48 39 d8        cmp rax, rbx
 *   400013: 75 eb           jne 400000           TNT
 *   400015: c3              ret
 *   400020: 48 83 c1 01     add rcx, 1
 *   400024: a8 02           test al, 2
 *   400026: 74 01           jz 400029            TNT
 *   400028: c3              ret                  TNT (compressed) or TIP
 *   400029: c3              ret                  TNT (compressed) or TIP
 *   400030: 48 cf           iretq                TIP (interrupt handler)
 *   400032: 0f 22 d8        mov cr3, rax         (PT_EDGES_PIP's other
 *   400035: 48 cf           iretq                TIP  interrupt handler)
 * With PT_EDGES_DIRECT, the jmp rbx is a direct jmp 400010 (eb 02) and
 * every return is compressed: a trace of TNT packets, as most code makes.
 * Each iteration's branches follow a pseudo-random sequence; with
 * PT_EDGES_INTERRUPTS, one iteration in 64 is interrupted at 400003 (FUP,
 * TIP to the handler, whose iretq returns there). A PSB+ every 4 KiB, at
 * 400000, or with PT_EDGES_DIRECT also at 400010 (past the direct jmp). */
#ifndef HWT_BENCH_PT_EDGES_TRACE_H
#define HWT_BENCH_PT_EDGES_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <intel-pt.h>

#define PT_EDGES_ORG 0x400000ull

static const uint8_t pt_edges_code[0x37] = {
	0x48, 0xff, 0xc0, 0xa8, 0x01, 0x74, 0x05, 0xe8, 0x14, 0x00, 0x00, 0x00,
	0xff, 0xe3, 0x90, 0x90, 0x48, 0x39, 0xd8, 0x75, 0xeb, 0xc3,
	[0x20] = 0x48, 0x83, 0xc1, 0x01, 0xa8, 0x02, 0x74, 0x01, 0xc3, 0xc3,
	[0x30] = 0x48, 0xcf, 0x0f, 0x22, 0xd8, 0x48, 0xcf,
};

/* What to put in the trace besides the loop. */
enum {
	PT_EDGES_INTERRUPTS = 1, /* FUP+TIP interrupts and iretq TIPs */
	PT_EDGES_OVERFLOW = 2,   /* one OVF (and FUP) in the middle */
	PT_EDGES_ERROR = 4,      /* one TNT where the jmp rbx needs a TIP */
	PT_EDGES_DIRECT = 8,     /* no indirect jump, compressed returns */
	/* Time: a TSC, TMA and CBR in each PSB+, and MTC, CYC, TSC and CBR
	 * packets between TNT packets; decode with PT_EDGES_TIMING_OPTS. */
	PT_EDGES_TIMING = 16,
	/* A PIP (the CR3, as when the kernel is traced) in each PSB+; with
	 * PT_EDGES_INTERRUPTS, one with each interrupt's TIP and one before
	 * its iretq's, where the handler (every other one at 400032) moves
	 * to CR3. */
	PT_EDGES_PIP = 32,
};

/* The raw decoder options a PT_EDGES_TIMING trace is decoded with. */
#define PT_EDGES_TIMING_OPTS \
	"mtc_freq=3,nom_freq=24,cpuid_0x15_eax=2,cpuid_0x15_ebx=200"

/* The code for a trace made with @what, in @code. */
static void pt_edges_code_for(int what, uint8_t code[sizeof(pt_edges_code)])
{
	memcpy(code, pt_edges_code, sizeof(pt_edges_code));
	if (what & PT_EDGES_DIRECT) {
		code[0xc] = 0xeb;
		code[0xd] = 0x02;
	}
}

struct pt_edges_gen {
	struct pt_encoder *enc;
	uint64_t bits;
	uint8_t nbits;
	int err;
	bool timing, pip;
	uint64_t tsc;
	uint8_t ctc;
	unsigned int psbs;
};


static void pt_edges_put(struct pt_edges_gen *g, struct pt_packet *p)
{
	if (pt_enc_next(g->enc, p) < 0)
		g->err = 1;
}
/* A PIP packet: the address space changes (or is restated) to @cr3. */
static void pt_edges_pip(struct pt_edges_gen *g, uint64_t cr3)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_pip;
	p.payload.pip.cr3 = cr3;
	pt_edges_put(g, &p);
}

static void pt_edges_flush(struct pt_edges_gen *g)
{
	if (!g->nbits)
		return;
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = g->nbits;
	p.payload.tnt.payload = g->bits;
	g->bits = 0;
	g->nbits = 0;
	pt_edges_put(g, &p);
}

static void pt_edges_tnt(struct pt_edges_gen *g, int taken)
{
	g->bits = g->bits << 1 | (taken ? 1u : 0u);
	if (++g->nbits == 6)
		pt_edges_flush(g);
}

/* A packet with an IP (TIP, FUP), after the bits before it. */
static void pt_edges_ip(struct pt_edges_gen *g, enum pt_packet_type type,
			uint64_t ip)
{
	pt_edges_flush(g);
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = type;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = ip;
	pt_edges_put(g, &p);
}

/* A timing packet of @type after the bits before it (PT_EDGES_TIMING). */
static void pt_edges_time(struct pt_edges_gen *g, enum pt_packet_type type,
			  uint32_t value)
{
	struct pt_packet p;
	pt_edges_flush(g);
	memset(&p, 0, sizeof(p));
	p.type = type;
	switch (type) {
	case ppt_tsc:
		g->tsc += 4000 + value;
		p.payload.tsc.tsc = g->tsc;
		break;
	case ppt_tma:
		p.payload.tma.ctc = (uint16_t)(g->ctc << 3);
		p.payload.tma.fc = (uint16_t)(value & 0x1ff);
		break;
	case ppt_mtc:
		p.payload.mtc.ctc = ++g->ctc;
		break;
	case ppt_cyc:
		p.payload.cyc.value = value + 1;
		break;
	default: /* ppt_cbr */
		p.payload.cbr.ratio = (uint8_t)(0x18 + (value & 7));
		break;
	}
	pt_edges_put(g, &p);
}

static void pt_edges_psb(struct pt_edges_gen *g, uint64_t ip)
{
	struct pt_packet p;
	pt_edges_flush(g);
	memset(&p, 0, sizeof(p));
	p.type = ppt_psb;
	pt_edges_put(g, &p);
	if (g->timing) {
		pt_edges_time(g, ppt_tsc, 0);
		pt_edges_time(g, ppt_tma, (uint32_t)g->tsc);
		pt_edges_time(g, ppt_cbr, 0);
	}
	/* The PIP before the FUP in one PSB+, after the MODE in the next
	 * (a processor may order a PSB+'s packets either way). */
	bool pip_late = g->psbs++ & 1;
	if (g->pip && !pip_late)
		pt_edges_pip(g, 0x1234000);
	pt_edges_ip(g, ppt_fup, ip);
	memset(&p, 0, sizeof(p));
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	pt_edges_put(g, &p);
	if (g->pip && pip_late)
		pt_edges_pip(g, 0x1234000);
	memset(&p, 0, sizeof(p));
	p.type = ppt_psbend;
	pt_edges_put(g, &p);
}

/* Fills @buf (@cap bytes, of which about @size are used) with a trace;
 * returns its length, or 0 when the encoder failed. */
static size_t pt_edges_make(uint8_t *buf, size_t cap, size_t size, int what)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + cap;
	struct pt_edges_gen g = {.enc = pt_alloc_encoder(&c),
				 .timing = (what & PT_EDGES_TIMING) != 0,
				 .pip = (what & PT_EDGES_PIP) != 0,
				 .tsc = 1000000};
	uint32_t lfsr = 0xace1u;
	uint64_t off = 0, next_psb = 0;
	bool ovf_done = false, err_done = false;

	while (g.enc && !g.err) {
		if (pt_enc_get_offset(g.enc, &off) < 0 || off + 64 >= size)
			break;
		lfsr = (lfsr >> 1) ^ (-(lfsr & 1u) & 0xb400u);
		int skip = lfsr & 1;
		/* With PT_EDGES_DIRECT, a PSB+ due in an iteration that
		 * jumps over the call comes after the direct jmp, so that
		 * its FUP is not where the last branch went. */
		bool psb_late = false;
		if (off >= next_psb) {
			next_psb += 4096;
			psb_late = off > 0 && (what & PT_EDGES_DIRECT) && skip;
			if (!psb_late)
				pt_edges_psb(&g, PT_EDGES_ORG);
		}
		if ((what & PT_EDGES_OVERFLOW) && !ovf_done && off >= size / 2) {
			struct pt_packet p;
			pt_edges_flush(&g);
			memset(&p, 0, sizeof(p));
			p.type = ppt_ovf;
			pt_edges_put(&g, &p);
			pt_edges_ip(&g, ppt_fup, PT_EDGES_ORG);
			ovf_done = true;
		}
		if ((what & PT_EDGES_INTERRUPTS) && (lfsr & 0x1f8) == 0x1f8) {
			pt_edges_ip(&g, ppt_fup, PT_EDGES_ORG + 3);
			/* With PT_EDGES_PIP, the interrupt enters another
			 * address space, and its handler's MOV CR3 (or its
			 * iretq, in a handler without one) comes back. */
			bool cr3 = g.pip && (lfsr & 0x200);
			if (g.pip)
				pt_edges_pip(&g, 0x5678000);
			pt_edges_ip(&g, ppt_tip, PT_EDGES_ORG + (cr3 ? 0x32 : 0x30));
			if (g.pip)
				pt_edges_pip(&g, 0x1234000);
			pt_edges_ip(&g, ppt_tip, PT_EDGES_ORG + 3);
		}
		pt_edges_tnt(&g, skip); /* jz 40000c */
		if (g.timing && (lfsr & 0x30) == 0x30)
			pt_edges_time(&g, ppt_mtc, 0);
		if (g.timing && (lfsr & 0x1c0) == 0x1c0)
			pt_edges_time(&g, ppt_tsc, lfsr & 0xff);
		if (g.timing && (lfsr & 0x600) == 0x600)
			pt_edges_time(&g, ppt_cyc, lfsr & 0xff);
		if (g.timing && (lfsr & 0x7000) == 0x7000)
			pt_edges_time(&g, ppt_cbr, lfsr);
		if (psb_late)
			pt_edges_psb(&g, PT_EDGES_ORG + 0x10); /* past jmp */
		if (!skip) {
			pt_edges_tnt(&g, (lfsr >> 1) & 1); /* jz 400029 */
			if ((lfsr & 4) || (what & PT_EDGES_DIRECT))
				pt_edges_tnt(&g, 1); /* compressed ret */
			else
				pt_edges_ip(&g, ppt_tip, PT_EDGES_ORG + 0xc);
		}
		if (what & PT_EDGES_DIRECT) {
			/* jmp 400010: no packet */
		} else if ((what & PT_EDGES_ERROR) && !err_done && off >= size / 3) {
			pt_edges_tnt(&g, 1); /* jmp rbx has no TNT */
			err_done = true;
		} else {
			pt_edges_ip(&g, ppt_tip, PT_EDGES_ORG + 0x10); /* jmp rbx */
		}
		pt_edges_tnt(&g, 1); /* jne 400000 */
	}
	pt_edges_flush(&g);
	if (g.enc)
		pt_enc_get_offset(g.enc, &off);
	pt_free_encoder(g.enc);
	return g.enc && !g.err ? (size_t)off : 0;
}

#endif
