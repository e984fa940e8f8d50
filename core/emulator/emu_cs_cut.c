/* Cutting a replayed ETMv4 stream where a probe pauses or resumes its
 * trace unit, at the atom of the probed branch: the sink's frames are
 * written whole up to the frame that holds that atom; that frame (and
 * the ones a packet spills into) is framed again with only what belongs
 * on the traced side of the cut.
 *
 * A pause keeps the packets of the frame up to the branch's atom (the
 * atom packet cut after it, in one-atom packets) and the address packet
 * that gives an indirect branch's target; nothing after that is written.
 * A resume writes the restart (emu_cs_reencode.c) at the branch's target,
 * then the atoms after the branch's in its packet, then the packets of
 * the frames the cut replaced; the sink's frames after those follow.
 *
 * A later address packet that leans on the address history (a short or
 * 32-bit one, an exact match) must give the same address after the
 * restart as in the capture, or the cut is refused. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/emulator/emu_cs.h"

#define ETM_ATOM_E 0xf7 /* format 1, one E atom */
#define ETM_ATOM_N 0xf6

int hwt_emu_cs_cut_open(const uint8_t *frames, size_t len, uint8_t id,
			const struct hwt_etm_cfg *cfg, struct hwt_emu_cs_cut *c,
			const char **why)
{
	struct hwt_cs_deframed res;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->cfg = *cfg;
	c->bytes = malloc(len ? len : 1);
	c->idx = malloc((len ? len : 1) * sizeof(*c->idx));
	if (!c->bytes || !c->idx) {
		hwt_emu_cs_cut_close(c);
		*why = "out of memory";
		return -ENOMEM;
	}
	int err = hwt_emu_cs_deframe(frames, len, id, c->bytes, c->idx, len, &res);
	res.ids[0] &= ~1u; /* ID 0: the sink's padding */
	res.ids[id / 32] &= ~(1u << (id % 32));
	if (err) {
		*why = "the stream is not whole 16-byte frames";
	} else if (res.ids[0] | res.ids[1] | res.ids[2] | res.ids[3]) {
		*why = "the buffer holds the trace of several trace IDs";
		err = -EOPNOTSUPP;
	} else if (res.barriers) {
		*why = "the stream has frame-sync barriers (lost trace)";
		err = -EOPNOTSUPP;
	}
	c->n = res.n;
	/* The decoder's indexes name one byte each (they repeat where a
	 * frame changes ID with no data in between). */
	for (size_t i = 1; !err && i < c->n; i++) {
		if (c->idx[i] <= c->idx[i - 1]) {
			*why = "the stream's frames change trace ID where the "
			       "decoder's byte indexes repeat";
			err = -EOPNOTSUPP;
		}
	}
	/* Every packet must be one this can walk. */
	for (size_t at = 0; !err && at < c->n;) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(c->bytes + at, c->n - at, cfg, &p);
		if (r == HWT_ETM_INCOMPLETE)
			break; /* the capture's own last, cut packet */
		if (r < 0) {
			*why = r == HWT_ETM_UNSUPPORTED ?
				       "the stream has cycle-count, conditional or Q "
				       "packets, which the cut does not re-encode" :
				       "the stream has a reserved packet header";
			err = -EOPNOTSUPP;
		}
		at += r > 0 ? (size_t)r : 0;
	}
	if (err)
		hwt_emu_cs_cut_close(c);
	return err;
}

void hwt_emu_cs_cut_close(struct hwt_emu_cs_cut *c)
{
	free(c->bytes);
	free(c->idx);
	c->bytes = NULL;
	c->idx = NULL;
	c->n = 0;
}

/* The stream offset of the first byte at or after formatted index @i. */
static size_t offset_of(const struct hwt_emu_cs_cut *c, uint32_t i)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->idx[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The atom packet at formatted index @pkt, with atom @k in it. */
static int atom_packet(const struct hwt_emu_cs_cut *c, uint32_t pkt,
		       unsigned int k, size_t *at, struct hwt_etm_pkt *p,
		       long *len)
{
	*at = offset_of(c, pkt);
	if (*at >= c->n || c->idx[*at] != pkt)
		return -EINVAL;
	*len = hwt_etm_next(c->bytes + *at, c->n - *at, &c->cfg, p);
	if (*len <= 0 || p->kind != HWT_ETM_ATOM || !p->atoms || k >= p->atoms)
		return -EOPNOTSUPP;
	return 0;
}

static size_t put_atoms(uint8_t *out, uint32_t en, unsigned int from,
			unsigned int to)
{
	size_t n = 0;
	for (unsigned int i = from; i < to; i++)
		out[n++] = en >> i & 1 ? ETM_ATOM_E : ETM_ATOM_N;
	return n;
}

/* The address packet at @at, when there is one: its length, else 0. */
static size_t address_at(const struct hwt_emu_cs_cut *c, size_t at)
{
	struct hwt_etm_pkt p;
	long r = at < c->n ? hwt_etm_next(c->bytes + at, c->n - at, &c->cfg, &p)
			   : 0;
	return r > 0 && p.kind == HWT_ETM_ADDRESS && !p.exact ? (size_t)r : 0;
}

long hwt_emu_cs_pause_frames(const struct hwt_emu_cs_cut *c, uint32_t pkt,
			     unsigned int k, uint8_t *out, uint64_t *frame)
{
	struct hwt_etm_pkt p;
	size_t at;
	long len;
	int err = atom_packet(c, pkt, k, &at, &p, &len);
	if (err)
		return err;
	*frame = pkt & ~(uint32_t)(HWT_CS_FRAME - 1);
	size_t from = offset_of(c, (uint32_t)*frame);
	if (at - from > 14)
		return -EOPNOTSUPP;
	uint8_t buf[14 + 24 + 18];
	size_t n = at - from;
	memcpy(buf, c->bytes + from, n);
	n += put_atoms(buf + n, p.en, 0, k + 1);
	/* The last atom of its packet may be an indirect branch's: its
	 * target's address packet follows. */
	if (k + 1 == p.atoms) {
		size_t a = address_at(c, at + (size_t)len);
		memcpy(buf + n, c->bytes + at + len, a);
		n += a;
	}
	return (long)hwt_emu_cs_frame(buf, n, c->id, out);
}

/* Whether the address packets after @at, up to the first that gives
 * the whole address, give the same with history @h as in the capture
 * (history @orig). */
static int same_addresses(const struct hwt_emu_cs_cut *c, size_t at,
			  struct hwt_etm_addr_hist h, struct hwt_etm_addr_hist orig)
{
	while (at < c->n) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(c->bytes + at, c->n - at, &c->cfg, &p);
		if (r <= 0)
			return 1;
		if (p.kind == HWT_ETM_ADDRESS) {
			if (hwt_etm_addr_apply(&h, &p) != hwt_etm_addr_apply(&orig, &p))
				return 0;
			if (p.addr_bits == 64)
				return 1;
		}
		at += (size_t)r;
	}
	return 1;
}

long hwt_emu_cs_resume_frames(const struct hwt_emu_cs_cut *c, uint32_t pkt,
			      unsigned int k, uint64_t target, uint8_t *out,
			      uint64_t *frame, uint64_t *replaced)
{
	struct hwt_etm_pkt p;
	struct hwt_etm_scan sc;
	size_t at;
	long len;
	int err = atom_packet(c, pkt, k, &at, &p, &len);
	if (err)
		return err;
	if (hwt_etm_scan_to(c->bytes, c->n, at, &c->cfg, &sc) ||
	    sc.boundary != at || !sc.have_ctxt || !sc.r.info_len)
		return -EOPNOTSUPP;
	uint8_t buf[24 + 3 * 14];
	size_t n = put_atoms(buf, p.en, k + 1, p.atoms);
	size_t next = at + (size_t)len;
	/* An indirect branch's target address: the restart gives it. */
	if (!n)
		next += address_at(c, next);
	/* The restart's address is the history's newest entry. */
	struct hwt_etm_addr_hist h = sc.hist, orig = sc.hist;
	struct hwt_etm_pkt whole = { .kind = HWT_ETM_ADDRESS, .addr = target,
				     .addr_bits = 64 };
	hwt_etm_addr_apply(&h, &whole);
	if (!n && next != at + (size_t)len) {
		struct hwt_etm_pkt a;
		hwt_etm_next(c->bytes + at + len, c->n - at - (size_t)len,
			     &c->cfg, &a);
		hwt_etm_addr_apply(&orig, &a);
	}
	if (!same_addresses(c, next, h, orig))
		return -EOPNOTSUPP;
	/* The frames replaced: from the atom's to the one that holds the
	 * last byte used here. */
	*frame = pkt & ~(uint32_t)(HWT_CS_FRAME - 1);
	uint32_t last = c->idx[next - 1] & ~(uint32_t)(HWT_CS_FRAME - 1);
	size_t end = offset_of(c, last + HWT_CS_FRAME);
	/* Nothing of ours after the restart in those frames: the restart
	 * would end with its padding's ID, which the sink's next frame
	 * would go on with. That frame is replaced too. */
	while (n + (end - next) == 0 && end < c->n) {
		last = c->idx[end] & ~(uint32_t)(HWT_CS_FRAME - 1);
		end = offset_of(c, last + HWT_CS_FRAME);
	}
	if (end - next > sizeof(buf) - n)
		return -EOPNOTSUPP;
	memcpy(buf + n, c->bytes + next, end - next);
	n += end - next;
	*replaced = last + HWT_CS_FRAME - *frame;
	sc.r.addr = target;
	return hwt_etm_restart_frames(&sc.r, &c->cfg, buf, n, c->id, out);
}
