/* libFuzzer target for the emulator's CoreSight frame deformatter and
 * ETMv4 packet boundary parser (core/emulator/emu_cs_frames.c,
 * emu_etm_packets.c): the first byte is the trace ID to take, the second
 * the VMID and context ID sizes (bits 1:0: 0, 1, 2 or 4 bytes of VMID;
 * bit 2: 4 bytes of context ID); the rest, cut to whole frames, is the
 * sink's buffer. Each packet must lie inside the stream (ASan sees a read
 * past the exact-size copies), the stream framed again must deframe to
 * itself, and the raw bytes are parsed as a stream too. The stream is
 * restarted (emu_cs_reencode.c) at the packet boundary after its middle:
 * the restart's frames must deframe to the packets after that boundary,
 * behind the restart's own bytes. And the cut (emu_cs_cut.c) pauses and
 * resumes at the first atom of each of the first atom packets: what it
 * writes must fit its room. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/emulator/emu_cs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const uint8_t *s, size_t n, const struct hwt_etm_cfg *cfg)
{
	struct hwt_etm_addr_hist h;
	memset(&h, 0, sizeof(h));
	for (size_t at = 0; at < n;) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(s + at, n - at, cfg, &p);
		if (r <= 0) {
			if (!hwt_etm_strerror(r))
				abort();
			/* The decoder resyncs past a bad byte: so does this. */
			at++;
			continue;
		}
		if ((size_t)r > n - at)
			abort();
		if (p.kind == HWT_ETM_ADDRESS)
			hwt_etm_addr_apply(&h, &p);
		at += (size_t)r;
	}
}

static void restart(const uint8_t *s, size_t n, uint8_t id,
		    const struct hwt_etm_cfg *cfg)
{
	struct hwt_etm_scan sc;
	if (hwt_etm_scan_to(s, n, n / 2, cfg, &sc) || sc.boundary > n)
		return;
	size_t rest = n - sc.boundary, room = hwt_etm_restart_len(rest);
	uint8_t *f = malloc(room), *back = malloc(room);
	long w = hwt_etm_restart_frames(&sc.r, cfg, s + sc.boundary, rest, id, f);
	if (w >= 0) {
		struct hwt_cs_deframed r;
		if ((size_t)w > room || w % HWT_CS_FRAME ||
		    hwt_emu_cs_deframe(f, (size_t)w, id, back, NULL, room, &r) ||
		    r.n < rest || memcmp(back + r.n - rest, s + sc.boundary, rest))
			abort();
	}
	free(f);
	free(back);
}

static void cuts(const uint8_t *frames, size_t len, uint8_t id,
		 const struct hwt_etm_cfg *cfg)
{
	struct hwt_emu_cs_cut c;
	const char *why;
	if (hwt_emu_cs_cut_open(frames, len, id, cfg, &c, &why))
		return;
	int tried = 0;
	for (size_t at = 0; at < c.n && tried < 8;) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(c.bytes + at, c.n - at, cfg, &p);
		if (r <= 0)
			break;
		if (p.kind == HWT_ETM_ATOM && p.atoms) {
			uint8_t out[HWT_EMU_CS_CUT_ROOM];
			uint64_t frame, replaced;
			unsigned int k = (unsigned int)tried % p.atoms;
			long w = hwt_emu_cs_pause_frames(&c, c.idx[at], k, out, &frame);
			if (w > HWT_EMU_CS_CUT_ROOM || (w > 0 && frame > len))
				abort();
			w = hwt_emu_cs_resume_frames(&c, c.idx[at], k, 0x1000, out,
						     &frame, &replaced);
			if (w > HWT_EMU_CS_CUT_ROOM ||
			    (w > 0 && frame + replaced > len))
				abort();
			tried++;
		}
		at += (size_t)r;
	}
	hwt_emu_cs_cut_close(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t vmid[4] = { 0, 1, 2, 4 };
	if (size < 2)
		return 0;
	uint8_t id = data[0] & 0x7f;
	struct hwt_etm_cfg cfg = { vmid[data[1] & 3], (data[1] & 4) ? 4 : 0 };
	size_t len = (size - 2) / HWT_CS_FRAME * HWT_CS_FRAME;

	uint8_t *frames = malloc(len ? len : 1);
	uint8_t *out = malloc(len ? len : 1);
	uint32_t *idx = malloc((len ? len : 1) * sizeof(*idx));
	if (!frames || !out || !idx)
		abort();
	memcpy(frames, data + 2, len);
	struct hwt_cs_deframed res;
	if (hwt_emu_cs_deframe(frames, len, id, out, idx, len, &res) == 0) {
		if (res.n > len)
			abort();
		/* Indexes stay in their frame, frames in order (OpenCSD's
		 * can repeat inside a frame of ID changes with no data). */
		for (size_t i = 0; i < res.n; i++)
			if (idx[i] >= len ||
			    (i && idx[i] < (idx[i - 1] & ~(uint32_t)(HWT_CS_FRAME - 1))))
				abort();
		uint8_t *s = malloc(res.n ? res.n : 1);
		memcpy(s, out, res.n);
		walk(s, res.n, &cfg);
		if (id >= 1 && id <= 0x6f && res.n) {
			size_t w = hwt_emu_cs_framed_len(res.n);
			uint8_t *re = malloc(w), *back = malloc(res.n);
			if (hwt_emu_cs_frame(s, res.n, id, re) != w)
				abort();
			struct hwt_cs_deframed r2;
			if (hwt_emu_cs_deframe(re, w, id, back, NULL, res.n, &r2) ||
			    r2.n != res.n || memcmp(back, s, res.n))
				abort();
			free(re);
			free(back);
			restart(s, res.n, id, &cfg);
		}
		free(s);
	}
	cuts(frames, len, id, &cfg);
	uint8_t *raw = malloc(size - 2 ? size - 2 : 1);
	memcpy(raw, data + 2, size - 2);
	walk(raw, size - 2, &cfg);
	free(raw);
	free(frames);
	free(out);
	free(idx);
	return 0;
}
