/* Restarting an ETMv4 stream that the emulator cut (the trace unit
 * paused, then resumed): a decoder that meets the rest of the stream
 * needs to find its alignment again (A-sync), the trace unit's setup
 * (TraceInfo), and the address and context where execution goes on (an
 * address-with-context packet), as a real trace unit writes them when
 * its trace starts. The Trace On packet before the address makes the
 * decoder show trace on there.
 *
 * The restart goes into frames of its own, and the packets after it into
 * frames that must end with the ID of the trace, so that the sink's next
 * frame, whose first data bytes may lean on the current ID, goes on with
 * it: the padding (ID 0) is at the end of the restart's last frame and of
 * the first frame of the packets, which holds as many bytes as make the
 * rest whole frames. No packet is added for it (ETMv4.2 has no ignore
 * packet: OpenCSD reads 0x70 as reserved there). */
#include <errno.h>
#include <string.h>

#include "core/emulator/emu_cs.h"

#define ETM_TRACE_ON 0x04
#define ETM_ADDR_CTXT_L_64IS0 0x85
#define RESTART_MAX (12 + 16 + 1 + 18) /* A-sync, TraceInfo, on, address */

long hwt_etm_scan_to(const uint8_t *s, size_t n, size_t upto,
		     const struct hwt_etm_cfg *cfg, struct hwt_etm_scan *res)
{
	size_t at = 0;

	memset(res, 0, sizeof(*res));
	while (at < upto && at < n) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(s + at, n - at, cfg, &p);
		if (r <= 0) {
			res->boundary = at;
			return r == HWT_ETM_INCOMPLETE ? HWT_ETM_INCOMPLETE : r;
		}
		if (p.kind == HWT_ETM_TRACE_INFO &&
		    (size_t)r <= sizeof(res->r.info)) {
			memcpy(res->r.info, s + at, (size_t)r);
			res->r.info_len = (size_t)r;
		}
		if (p.has_ctxt) {
			res->have_ctxt = 1;
			res->r.ctxt_info = p.ctxt_info;
			res->r.vmid = p.vmid;
			res->r.cid = p.cid;
		}
		if (p.kind == HWT_ETM_ADDRESS)
			res->r.addr = hwt_etm_addr_apply(&res->hist, &p);
		at += (size_t)r;
	}
	res->boundary = at;
	return 0;
}

size_t hwt_etm_restart_len(size_t n)
{
	return hwt_emu_cs_framed_len(RESTART_MAX) + hwt_emu_cs_framed_len(n) +
	       HWT_CS_FRAME;
}

static size_t put_le(uint8_t *b, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return (size_t)bytes;
}

long hwt_etm_restart_frames(const struct hwt_etm_restart *r,
			    const struct hwt_etm_cfg *cfg, const uint8_t *pkts,
			    size_t n, uint8_t id, uint8_t *out)
{
	uint8_t head[RESTART_MAX];
	size_t h = 0;

	if (!r->info_len || r->info_len > sizeof(r->info) || r->info[0] != 0x01)
		return -EINVAL;
	if (((r->ctxt_info & 0x40) && !cfg->vmid_bytes) ||
	    ((r->ctxt_info & 0x80) && !cfg->cid_bytes))
		return -EINVAL;
	memset(head, 0, 11);
	h = 11;
	head[h++] = 0x80;
	memcpy(head + h, r->info, r->info_len);
	h += r->info_len;
	head[h++] = ETM_TRACE_ON;
	/* Address, long, 64 bits, IS0: bits 8:2 and 15:9 in 7 bits each,
	 * then bits 16 up a byte at a time. */
	head[h++] = ETM_ADDR_CTXT_L_64IS0;
	head[h++] = (uint8_t)(r->addr >> 2 & 0x7f);
	head[h++] = (uint8_t)(r->addr >> 9 & 0x7f);
	h += put_le(head + h, r->addr >> 16, 6);
	head[h++] = r->ctxt_info;
	if (r->ctxt_info & 0x40)
		h += put_le(head + h, r->vmid, cfg->vmid_bytes);
	if (r->ctxt_info & 0x80)
		h += put_le(head + h, r->cid, cfg->cid_bytes);
	size_t w = hwt_emu_cs_frame(head, h, id, out);
	size_t first = n % 14;
	w += hwt_emu_cs_frame(pkts, first, id, out + w);
	w += hwt_emu_cs_frame(pkts + first, n - first, id, out + w);
	return (long)w;
}
