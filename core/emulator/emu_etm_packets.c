/* Packet boundaries of ETMv4 instruction trace (Arm ETM Architecture
 * Specification ETMv4, "Packet descriptions"), for the emulator to find
 * where it may cut one trace ID's byte stream and what the trace's
 * address and context are there. Only lengths and the address and
 * context fields are read; everything else is the decoder's job. The
 * parser never reads past the bytes it is given: a packet that runs past
 * them is HWT_ETM_INCOMPLETE.
 *
 * Packets whose size depends on configuration this parser does not model
 * (cycle counts, conditional instruction trace, Q packets) are
 * HWT_ETM_UNSUPPORTED, so the emulator refuses such a stream rather than
 * cutting it wrong. */
#include <string.h>

#include "core/emulator/emu_cs.h"

/* Bytes of a field whose bytes go on while bit 7 is set, at most @max;
 * 0 when it runs past @n, -1 when it does not end within @max. */
static long cont_field(const uint8_t *s, size_t n, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (i >= n)
			return 0;
		if (!(s[i] & 0x80))
			return (long)i + 1;
	}
	return -1;
}

static uint64_t le(const uint8_t *s, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | s[i];
	return v;
}

/* The context field at @s (info byte, VMID, context ID): its length, 0
 * when it runs past @n. */
static size_t context(const uint8_t *s, size_t n, const struct hwt_etm_cfg *cfg,
		      struct hwt_etm_pkt *p)
{
	if (n < 1)
		return 0;
	size_t len = 1;
	p->has_ctxt = 1;
	p->ctxt_info = s[0];
	if (s[0] & 0x40) { /* V: a VMID follows */
		if (n < len + cfg->vmid_bytes)
			return 0;
		p->vmid = (uint32_t)le(s + len, cfg->vmid_bytes);
		len += cfg->vmid_bytes;
	}
	if (s[0] & 0x80) { /* C: a context ID follows */
		if (n < len + cfg->cid_bytes)
			return 0;
		p->cid = (uint32_t)le(s + len, cfg->cid_bytes);
		len += cfg->cid_bytes;
	}
	return len;
}

/* Address packets: short (IS0 0x95, IS1 0x96), long 32-bit (0x9a, 0x9b),
 * long 64-bit (0x9d, 0x9e); with context 0x82, 0x83, 0x85, 0x86. */
static long address(const uint8_t *s, size_t n, const struct hwt_etm_cfg *cfg,
		    struct hwt_etm_pkt *p)
{
	uint8_t h = s[0];
	int is1 = h == 0x96 || h == 0x9b || h == 0x9e || h == 0x83 || h == 0x86;
	int ctxt = h >= 0x82 && h <= 0x86;
	size_t len = 1;

	p->kind = HWT_ETM_ADDRESS;
	p->addr_shift = is1 ? 1 : 2;
	if (h == 0x95 || h == 0x96) {
		/* Byte 1: bits 7 (IS0: 8:2; IS1: 7:1), bit 7 set: byte 2
		 * gives 8 more. */
		if (n < 2)
			return HWT_ETM_INCOMPLETE;
		p->addr = (uint64_t)(s[1] & 0x7f) << p->addr_shift;
		p->addr_bits = (uint8_t)(7 + p->addr_shift);
		len = 2;
		if (s[1] & 0x80) {
			if (n < 3)
				return HWT_ETM_INCOMPLETE;
			p->addr |= (uint64_t)s[2] << (7 + p->addr_shift);
			p->addr_bits = (uint8_t)(15 + p->addr_shift);
			len = 3;
		}
		return (long)len;
	}
	int bytes = (h == 0x9a || h == 0x9b || h == 0x82 || h == 0x83) ? 4 : 8;
	if (n < 1 + (size_t)bytes)
		return HWT_ETM_INCOMPLETE;
	/* The first bytes hold 7 bits each above the instruction size
	 * (IS0: bits 8:2 and 15:9; IS1: 7:1 and 15:8), the rest whole. */
	if (is1)
		p->addr = (uint64_t)(s[1] & 0x7f) << 1 | (uint64_t)s[2] << 8;
	else
		p->addr = (uint64_t)(s[1] & 0x7f) << 2 |
			  (uint64_t)(s[2] & 0x7f) << 9;
	for (int i = 2; i < bytes; i++)
		p->addr |= (uint64_t)s[1 + i] << (8 * i);
	p->addr_bits = (uint8_t)(bytes * 8);
	len = 1 + (size_t)bytes;
	if (ctxt) {
		size_t c = context(s + len, n - len, cfg, p);
		if (!c)
			return HWT_ETM_INCOMPLETE;
		len += c;
	}
	return (long)len;
}

static long trace_info(const uint8_t *s, size_t n)
{
	size_t len = 1;
	long r = cont_field(s + len, n - len, 1);
	if (r <= 0)
		return r < 0 ? HWT_ETM_BAD : HWT_ETM_INCOMPLETE;
	uint8_t plctl = s[1];
	len += (size_t)r;
	/* INFO, KEY, SPEC, CYCT in that order, each present by its PLCTL
	 * bit; their longest forms. */
	static const size_t max[4] = { 2, 5, 5, 2 };
	for (int f = 0; f < 4; f++) {
		if (!(plctl >> f & 1))
			continue;
		r = cont_field(s + len, n - len, max[f]);
		if (r <= 0)
			return r < 0 ? HWT_ETM_BAD : HWT_ETM_INCOMPLETE;
		len += (size_t)r;
	}
	return (long)len;
}

static long timestamp(const uint8_t *s, size_t n)
{
	size_t len = 1;
	/* Up to 9 bytes: the first 8 with a continuation bit, the 9th a
	 * whole byte. */
	for (;;) {
		if (len >= n)
			return HWT_ETM_INCOMPLETE;
		if (len == 9 || !(s[len] & 0x80)) {
			len++;
			break;
		}
		len++;
	}
	if (s[0] & 1) { /* a cycle count follows: up to 3 bytes */
		long r = cont_field(s + len, n - len, 3);
		if (r <= 0)
			return r < 0 ? HWT_ETM_BAD : HWT_ETM_INCOMPLETE;
		len += (size_t)r;
	}
	return (long)len;
}

/* Atoms of the forms with a fixed pattern in the header. */
static void atoms(uint8_t h, struct hwt_etm_pkt *p)
{
	p->kind = HWT_ETM_ATOM;
	if (h == 0xf6 || h == 0xf7) { /* F1: one */
		p->atoms = 1;
		p->en = h & 1;
	} else if (h >= 0xd8 && h <= 0xdb) { /* F2: two */
		p->atoms = 2;
		p->en = h & 3;
	} else if (h >= 0xf8) { /* F3: three */
		p->atoms = 3;
		p->en = h & 7;
	} else if ((h >= 0xc0 && h <= 0xd4) || (h >= 0xe0 && h <= 0xf4)) {
		/* F6: COUNT + 3 E atoms (COUNT at most 20), then the last
		 * atom: E when bit 5 is clear. */
		int count = (h & 0x1f) + 3;
		if (count <= 23) {
			p->atoms = (uint8_t)(count + 1);
			p->en = (1u << count) - 1;
			if (!(h & 0x20))
				p->en |= 1u << count;
		}
	}
}

long hwt_etm_next(const uint8_t *s, size_t n, const struct hwt_etm_cfg *cfg,
		  struct hwt_etm_pkt *p)
{
	memset(p, 0, sizeof(*p));
	if (n < 1)
		return HWT_ETM_INCOMPLETE;
	uint8_t h = s[0];
	p->header = h;
	p->kind = HWT_ETM_OTHER;
	if (h >= 0xc0) {
		atoms(h, p);
		return 1;
	}
	switch (h) {
	case 0x00: /* extension: A-sync, discard, overflow */
		if (n < 2)
			return HWT_ETM_INCOMPLETE;
		if (s[1] == 0x03 || s[1] == 0x05)
			return 2;
		if (s[1] != 0x00)
			return HWT_ETM_BAD;
		/* A-sync: eleven 0x00, then 0x80. */
		for (size_t i = 2; i < 12; i++) {
			if (i >= n)
				return HWT_ETM_INCOMPLETE;
			if (s[i] != (i == 11 ? 0x80 : 0x00))
				return HWT_ETM_BAD;
		}
		p->kind = HWT_ETM_ASYNC;
		return 12;
	case 0x01:
		p->kind = HWT_ETM_TRACE_INFO;
		return trace_info(s, n);
	case 0x02:
	case 0x03:
		p->kind = HWT_ETM_TIMESTAMP;
		return timestamp(s, n);
	case 0x04:
		p->kind = HWT_ETM_TRACE_ON;
		return 1;
	case 0x06: {
		p->kind = HWT_ETM_EXCEPTION;
		long r = cont_field(s + 1, n - 1, 2);
		if (r <= 0)
			return r < 0 ? HWT_ETM_BAD : HWT_ETM_INCOMPLETE;
		return 1 + r;
	}
	case 0x07:
		p->kind = HWT_ETM_EXCEPTION_RETURN;
		return 1;
	case 0x2d: /* commit: a count */
	case 0x2e: /* cancel format 1: a count */
	case 0x2f: {
		long r = cont_field(s + 1, n - 1, 5);
		if (r <= 0)
			return r < 0 ? HWT_ETM_BAD : HWT_ETM_INCOMPLETE;
		return 1 + r;
	}
	case 0x70: /* ignore (ETMv4.3 on; OpenCSD 1.3 reads it as reserved
		    * on an ETMv4.2 unit, so the restart never writes it) */
		return 1;
	case 0x80: /* context: the same as before */
		p->kind = HWT_ETM_CONTEXT;
		return 1;
	case 0x81: {
		p->kind = HWT_ETM_CONTEXT;
		size_t c = context(s + 1, n - 1, cfg, p);
		return c ? (long)(1 + c) : HWT_ETM_INCOMPLETE;
	}
	case 0x82: case 0x83: case 0x85: case 0x86:
	case 0x95: case 0x96:
	case 0x9a: case 0x9b: case 0x9d: case 0x9e:
		return address(s, n, cfg, p);
	case 0x90: case 0x91: case 0x92: /* exact match: history entry */
		p->kind = HWT_ETM_ADDRESS;
		p->exact = (uint8_t)(1 + (h & 3));
		return 1;
	default:
		break;
	}
	if (h >= 0x20 && h <= 0x2c) /* data synchronization markers */
		return 1;
	if (h >= 0x30 && h <= 0x3f) /* mispredict, cancel formats 2, 3 */
		return 1;
	if (h >= 0x71 && h <= 0x7f) /* event */
		return 1;
	if ((h >= 0x0c && h <= 0x1f) || (h >= 0x40 && h <= 0x6f) ||
	    (h >= 0xa0 && h <= 0xaf))
		return HWT_ETM_UNSUPPORTED;
	return HWT_ETM_BAD;
}

uint64_t hwt_etm_addr_apply(struct hwt_etm_addr_hist *h,
			    const struct hwt_etm_pkt *p)
{
	uint64_t a;
	if (p->exact) {
		a = h->a[p->exact - 1];
	} else {
		uint64_t mask = p->addr_bits >= 64 ? ~0ull
				: (1ull << p->addr_bits) - 1;
		a = (h->a[0] & ~mask) | (p->addr & mask);
	}
	h->a[2] = h->a[1];
	h->a[1] = h->a[0];
	h->a[0] = a;
	return a;
}

const char *hwt_etm_strerror(long r)
{
	switch (r) {
	case HWT_ETM_INCOMPLETE:
		return "a packet runs past the end of the trace";
	case HWT_ETM_UNSUPPORTED:
		return "a cycle-count, conditional or Q packet (not parsed)";
	default:
		return "a reserved or malformed packet header";
	}
}
