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
		uint32_t ordinal = 0;
		if (barrier_frame(f)) {
			res->barriers++;
			cur = -1;
			continue;
		}
		for (int i = 0; i < 8; i++) {
			uint8_t b = f[2 * i], flag = f[15] >> i & 1;
			int odd_id = cur; /* the ID the odd byte after goes to */
			if (b & 1) {
				cur = b >> 1;
				res->ids[cur / 32] |= 1u << (cur % 32);
				if (!flag)
					odd_id = cur;
			} else {
				if (cur == id) {
					if (res->n == cap)
						return -ENOSPC;
					if (idx)
						idx[res->n] = (uint32_t)off + ordinal;
					out[res->n++] = (uint8_t)(b | flag);
				}
				ordinal++;
				odd_id = cur;
			}
			if (i == 7)
				break;
			if (odd_id == id) {
				if (res->n == cap)
					return -ENOSPC;
				if (idx)
					idx[res->n] = (uint32_t)off + ordinal;
				out[res->n++] = f[2 * i + 1];
			}
			ordinal++;
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
