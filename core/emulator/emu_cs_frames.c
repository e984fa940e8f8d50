/* The CoreSight Trace Formatter's 16-byte frames (CoreSight Architecture
 * Specification, "Trace Formatter"), both ways: the bytes of one trace ID
 * out of a sink's frames, and one ID's bytes into frames again.
 *
 * In a frame, bytes 0, 2, ..., 14 are each an ID change (bit 0 set: the
 * new ID in bits 7:1) or a data byte whose bit 0 is in byte 15, the
 * auxiliary byte (bit i for byte 2i); bytes 1, 3, ..., 13 are data. For an
 * ID change, auxiliary bit i set says the data byte after it (2i + 1)
 * still belongs to the previous ID. The current ID carries over from
 * frame to frame. */
#include <errno.h>
#include <string.h>

#include "core/emulator/emu_cs.h"

static int barrier_frame(const uint8_t *f)
{
	static const uint8_t fsync[4] = { 0xff, 0xff, 0xff, 0x7f };
	for (int i = 0; i < HWT_CS_FRAME; i += 4)
		if (memcmp(f + i, fsync, 4))
			return 0;
	return 1;
}

/* One byte of ID @cur at index @i: kept when it is the wanted ID's. */
static int keep(int cur, uint8_t id, uint8_t v, uint32_t i, uint8_t *out,
		uint32_t *idx, size_t cap, struct hwt_cs_deframed *res)
{
	if (cur != id)
		return 0;
	if (res->n == cap)
		return -ENOSPC;
	if (idx)
		idx[res->n] = i;
	out[res->n++] = v;
	return 0;
}

/* The indexes are OpenCSD's (its frame deformatter, which
 * trc_pkt_lister's "Idx" shows): a frame's bytes go out in runs of one
 * ID; the first run's index is the frame's offset, a run that an ID
 * change starts after bytes of another ID has the offset of the ID byte,
 * and a byte's index is its run's plus the bytes before it in the run
 * (a byte an ID change leaves to the previous ID ends the previous run).
 * An ID byte naming the current ID changes nothing: its data byte is
 * the current ID's. */
int hwt_emu_cs_deframe(const uint8_t *buf, size_t len, uint8_t id,
		       uint8_t *out, uint32_t *idx, size_t cap,
		       struct hwt_cs_deframed *res)
{
	int cur = -1; /* no ID yet: bytes before the first ID are no one's */

	memset(res, 0, sizeof(*res));
	if (len % HWT_CS_FRAME)
		return -EINVAL;
	for (size_t off = 0; off < len; off += HWT_CS_FRAME) {
		const uint8_t *f = buf + off;
		uint32_t base = (uint32_t)off, cnt = 0;
		int err = 0;
		if (barrier_frame(f)) {
			res->barriers++;
			cur = -1;
			continue;
		}
		for (int i = 0; i < 7 && !err; i++) {
			uint8_t b = f[2 * i], odd = f[2 * i + 1];
			int flag = f[15] >> i & 1;
			if (!(b & 1)) {
				err = keep(cur, id, (uint8_t)(b | flag), base + cnt++,
					   out, idx, cap, res);
				if (!err)
					err = keep(cur, id, odd, base + cnt++, out, idx,
						   cap, res);
				continue;
			}
			int nid = b >> 1;
			res->ids[nid / 32] |= 1u << (nid % 32);
			if (nid == cur) {
				err = keep(cur, id, odd, base + cnt++, out, idx, cap, res);
				continue;
			}
			if (flag) /* the data byte is the previous ID's */
				err = keep(cur, id, odd, base + cnt++, out, idx, cap, res);
			cur = nid;
			if (cnt) {
				base = (uint32_t)off + 2u * (uint32_t)i;
				cnt = 0;
			}
			if (!flag && !err)
				err = keep(cur, id, odd, base + cnt++, out, idx, cap, res);
		}
		if (err)
			return err;
		/* Byte 14: an ID (no data byte follows it) or data. */
		if (f[14] & 1) {
			cur = f[14] >> 1;
			res->ids[cur / 32] |= 1u << (cur % 32);
		} else if ((err = keep(cur, id, (uint8_t)(f[14] | (f[15] >> 7 & 1)),
				       base + cnt, out, idx, cap, res))) {
			return err;
		}
	}
	return 0;
}

/* 14 data bytes a frame: each frame starts with the ID. */
#define PER_FRAME 14

size_t hwt_emu_cs_framed_len(size_t n)
{
	return (n + PER_FRAME - 1) / PER_FRAME * HWT_CS_FRAME;
}

/* Puts data byte @b at position @pos (1..14) of frame @f. */
static void put(uint8_t *f, int pos, uint8_t b)
{
	if (pos & 1) {
		f[pos] = b;
		return;
	}
	f[pos] = b & 0xfe;
	f[15] |= (uint8_t)((b & 1) << (pos / 2));
}

size_t hwt_emu_cs_frame(const uint8_t *data, size_t n, uint8_t id,
			uint8_t *out)
{
	size_t w = 0;

	while (n) {
		uint8_t *f = out + w;
		size_t r = n < PER_FRAME ? n : PER_FRAME;
		memset(f, 0, HWT_CS_FRAME);
		f[0] = (uint8_t)(id << 1 | 1);
		if (r == PER_FRAME) {
			for (int pos = 1; pos <= PER_FRAME; pos++)
				put(f, pos, data[pos - 1]);
		} else if (r & 1) {
			/* Data at 1..r (r odd), then ID 0 (padding) at the
			 * even byte r + 1; its zero data bytes follow. */
			for (size_t pos = 1; pos <= r; pos++)
				put(f, (int)pos, data[pos - 1]);
			f[r + 1] = 0x01;
		} else {
			/* r even: its last byte would fall on an even byte,
			 * where the padding's ID change must go: the change
			 * goes there with its auxiliary bit set, which gives
			 * the odd byte after it (the last data byte) to our
			 * ID still. */
			for (size_t pos = 1; pos < r; pos++)
				put(f, (int)pos, data[pos - 1]);
			f[r] = 0x01;
			f[15] |= (uint8_t)(1u << (r / 2));
			f[r + 1] = data[r - 1];
		}
		data += r;
		n -= r;
		w += HWT_CS_FRAME;
	}
	return w;
}
