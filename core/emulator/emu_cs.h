/* The emulator's view of CoreSight ETMv4 trace in a sink's buffer: the
 * frame deformatter and formatter (emu_cs_frames.c) and the packet
 * boundary parser of one trace ID's bytes (emu_etm_packets.c), so the
 * trace unit's pause and resume can cut a replayed stream and restart it
 * decodably. Internal to core/emulator. */
#ifndef HWT_EMU_CS_H
#define HWT_EMU_CS_H

#include <stddef.h>
#include <stdint.h>

#define HWT_CS_FRAME 16

/* ---- frames (CoreSight Trace Formatter, 16-byte frames) ---- */

/* What a deformat of a buffer of whole frames found. */
struct hwt_cs_deframed {
	size_t n;           /* bytes of the wanted ID written to out */
	uint32_t ids[4];    /* bitmap of the trace IDs 0..127 seen */
	size_t barriers;    /* frames that were a full frame-sync barrier */
};

/* The bytes of trace ID @id in @len bytes of frames (@len a multiple of
 * 16, else -EINVAL), at most @cap of them into @out (-ENOSPC beyond).
 * @idx, when not NULL, gets each byte's index as OpenCSD's deformatter
 * gives it (its runs of one ID in a frame, emu_cs_frames.c), the "Idx"
 * of trc_pkt_lister's packets. A frame of four 0x7fffffff (the kernel's
 * barrier packet) is skipped, as perf's decoder resets on it. ID 0 bytes (the formatter's
 * padding) belong to no source. */
int hwt_emu_cs_deframe(const uint8_t *buf, size_t len, uint8_t id,
		       uint8_t *out, uint32_t *idx, size_t cap,
		       struct hwt_cs_deframed *res);

/* Formats @n bytes of trace ID @id (1..0x6f) into frames at @out (room
 * for hwt_emu_cs_framed_len(@n)); the last frame is padded with ID 0
 * bytes. Returns the bytes written. */
size_t hwt_emu_cs_framed_len(size_t n);
size_t hwt_emu_cs_frame(const uint8_t *data, size_t n, uint8_t id,
			uint8_t *out);

/* ---- ETMv4 instruction trace packets ---- */

/* The trace unit's configuration that sets packet sizes. */
struct hwt_etm_cfg {
	uint8_t vmid_bytes; /* TRCIDR2.VMIDSIZE: 0, 1, 2 or 4 */
	uint8_t cid_bytes;  /* TRCIDR2.CIDSIZE: 0 or 4 */
};

enum hwt_etm_kind {
	HWT_ETM_ASYNC = 1,
	HWT_ETM_TRACE_INFO,
	HWT_ETM_TRACE_ON,
	HWT_ETM_TIMESTAMP,
	HWT_ETM_EXCEPTION,
	HWT_ETM_EXCEPTION_RETURN,
	HWT_ETM_CONTEXT,
	HWT_ETM_ADDRESS,    /* an address packet, with or without context */
	HWT_ETM_ATOM,
	HWT_ETM_OTHER,      /* extension, event, sync markers, cancels... */
};

/* One packet: its kind and length, and for address and context packets
 * what they carry (the address as the packet gives it: bits above
 * addr_bits come from the previous address, hwt_etm_addr_apply). */
struct hwt_etm_pkt {
	enum hwt_etm_kind kind;
	uint8_t header;
	size_t len;
	uint64_t addr;
	uint8_t addr_bits;  /* 0: no address; 64: all of it */
	uint8_t addr_shift; /* IS0 (A64/A32): 2; IS1 (T32): 1 */
	uint8_t exact;      /* exact-match packets: 1 + the history index */
	uint8_t has_ctxt;   /* the packet has a context field */
	uint8_t ctxt_info;  /* EL, SF, NS, V, C bits */
	uint32_t vmid, cid;
	uint8_t atoms;      /* atom packets: how many, for the forms read
			     * here (F1, F2, F3, F6); 0 for F4 and F5 */
	uint32_t en;        /* their E bits, the oldest in bit 0 */
};

/* Return values of hwt_etm_next besides a length > 0. */
#define HWT_ETM_INCOMPLETE 0   /* the packet runs past the end */
#define HWT_ETM_BAD (-1)       /* a reserved or malformed header */
#define HWT_ETM_UNSUPPORTED (-2) /* valid, but not parsed here (cycle
				  * counts, conditionals, Q packets) */

/* The packet at @s (@n bytes left). Never reads past @s + @n. */
long hwt_etm_next(const uint8_t *s, size_t n, const struct hwt_etm_cfg *cfg,
		  struct hwt_etm_pkt *p);

/* The trace's address history (the last three addresses, for exact-match
 * packets and for the bits compressed packets leave out). */
struct hwt_etm_addr_hist {
	uint64_t a[3];
};

/* The full address @p gives after @h; updates @h. */
uint64_t hwt_etm_addr_apply(struct hwt_etm_addr_hist *h,
			    const struct hwt_etm_pkt *p);

/* The name of a return value of hwt_etm_next below 1. */
const char *hwt_etm_strerror(long r);

/* ---- restarting a cut stream (emu_cs_reencode.c) ---- */

/* What a decoder must be told to pick a stream up at a packet boundary:
 * the trace unit's TraceInfo packet (as the stream last gave it), the
 * context and the address where execution goes on. */
struct hwt_etm_restart {
	uint8_t info[16];   /* the TraceInfo packet's bytes, header first */
	size_t info_len;
	uint8_t ctxt_info;  /* EL, SF, NS, V, C of the last context */
	uint32_t vmid, cid;
	uint64_t addr;
};

/* What the stream says up to a byte offset: the last TraceInfo and
 * context (hwt_etm_restart without addr), the address history and the
 * first packet boundary at or after the offset. */
struct hwt_etm_scan {
	struct hwt_etm_restart r; /* info_len 0: no TraceInfo seen */
	int have_ctxt;
	struct hwt_etm_addr_hist hist;
	size_t boundary;
};

/* Walks the packets of @s up to the first boundary at or after @upto
 * (<= @n). 0, or the hwt_etm_next error that stopped it (the packet at
 * res->boundary): a stream this cannot walk cannot be cut. */
long hwt_etm_scan_to(const uint8_t *s, size_t n, size_t upto,
		     const struct hwt_etm_cfg *cfg, struct hwt_etm_scan *res);

/* The frames of trace ID @id that restart the trace: an A-sync, @r's
 * TraceInfo, a Trace On and a 64-bit address-with-context packet of
 * @r->addr (IS0: A64), then the @n bytes of packets at @pkts, framed so
 * that the last frame ends with no padding (the frames the sink wrote
 * after them go on with the same ID). hwt_etm_restart_len gives the room
 * needed; the bytes written are returned, -EINVAL when @r has no
 * TraceInfo or a context this cannot write. */
size_t hwt_etm_restart_len(size_t n);
long hwt_etm_restart_frames(const struct hwt_etm_restart *r,
			    const struct hwt_etm_cfg *cfg, const uint8_t *pkts,
			    size_t n, uint8_t id, uint8_t *out);

/* ---- cutting at a probe's branch (emu_cs_cut.c) ---- */

/* One trace ID's stream of a replayed CoreSight buffer, ready to cut. */
struct hwt_emu_cs_cut {
	uint8_t id;
	struct hwt_etm_cfg cfg;
	uint8_t *bytes;  /* the ID's bytes */
	uint32_t *idx;   /* each one's formatted index */
	size_t n;
};

/* The trace ID and packet sizes of CPU @cpu's trace unit in a cs_etm
 * AUXTRACE_INFO's @words words after its header (emu_cs_info.c);
 * -EOPNOTSUPP with @why for one the cut cannot re-encode (not ETMv4 in a
 * version 1 block, cycle counts, VMIDs, conditional trace). */
int hwt_emu_cs_source(const uint64_t *priv, size_t words, int cpu,
		      uint8_t *trace_id, struct hwt_etm_cfg *cfg,
		      const char **why);

/* Room for the frames either cut writes. */
#define HWT_EMU_CS_CUT_ROOM 256

/* Deframes @len bytes of frames for trace ID @id. -EOPNOTSUPP, with
 * @why, for a stream the cut cannot re-encode: other trace IDs in the
 * buffer, barriers, packets this parser does not walk. */
int hwt_emu_cs_cut_open(const uint8_t *frames, size_t len, uint8_t id,
			const struct hwt_etm_cfg *cfg, struct hwt_emu_cs_cut *c,
			const char **why);
void hwt_emu_cs_cut_close(struct hwt_emu_cs_cut *c);

/* A pause after atom @k of the atom packet at formatted index @pkt: the
 * frames that replace the sink's frame holding it (*@frame: its offset
 * in the buffer), ending the trace there. Bytes written to @out (room
 * HWT_EMU_CS_CUT_ROOM), or -EINVAL (no packet there), -EOPNOTSUPP. */
long hwt_emu_cs_pause_frames(const struct hwt_emu_cs_cut *c, uint32_t pkt,
			     unsigned int k, uint8_t *out, uint64_t *frame);

/* A resume after atom @k of the packet at @pkt, execution going on at
 * @target: the frames that replace the sink's @replaced bytes of frames
 * from *@frame on. As hwt_emu_cs_pause_frames otherwise. */
long hwt_emu_cs_resume_frames(const struct hwt_emu_cs_cut *c, uint32_t pkt,
			      unsigned int k, uint64_t target, uint8_t *out,
			      uint64_t *frame, uint64_t *replaced);

#endif
