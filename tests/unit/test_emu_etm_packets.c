/* The emulator's CoreSight frame deformatter and ETMv4 packet boundary
 * parser (core/emulator/emu_cs_frames.c, emu_etm_packets.c) on
 * simpleperf's real ETMv4 capture: every packet of trace ID 0x1e starts
 * at the byte index and with the header byte that OpenCSD's
 * trc_pkt_lister lists for the same buffer, and the addresses are the
 * lister's. The formatter, checked the same way: the stream re-framed
 * lists as the same packets. And the parser's edges: every cut of the
 * stream is an incomplete packet at the cut, never a read past it; a
 * reserved header is bad, a cycle count unsupported. The deformatter's
 * byte indexes with two trace IDs in one buffer (OpenCSD's Snowball
 * snapshot, two PTMs, IDs changing inside frames, some with the data
 * byte left to the previous ID): each packet trc_pkt_lister lists starts
 * at a byte of its ID with that index and its first byte (all but the
 * one not-synchronised chunk the lister cuts at its own place). */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "etm_lister.h"
#include "core/emulator/emu_cs.h"

#define MAXP 256

/* TRCIDR2 0x20001088: VMIDSIZE 4 bytes (bits 14:10 = 4), CIDSIZE 4
 * bytes (bits 9:5 = 4). */
static const struct hwt_etm_cfg cfg = { 4, 4 };

struct ours {
	uint32_t idx[MAXP];
	uint8_t first[MAXP];
	uint64_t addr[MAXP];
	long n;
};

static long parse(const uint8_t *s, const uint32_t *idx, size_t n,
		  struct ours *o)
{
	struct hwt_etm_addr_hist h;
	memset(&h, 0, sizeof(h));
	o->n = 0;
	for (size_t at = 0; at < n;) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(s + at, n - at, &cfg, &p);
		if (r <= 0)
			return r;
		if (o->n < MAXP) {
			o->idx[o->n] = idx ? idx[at] : (uint32_t)at;
			o->first[o->n] = s[at];
			o->addr[o->n] = p.kind == HWT_ETM_ADDRESS
					? hwt_etm_addr_apply(&h, &p) : 0;
		}
		o->n++;
		at += (size_t)r;
	}
	return 1;
}

static uint8_t *aux;
static size_t aux_len;
static uint8_t stream[4096];
static uint32_t idx[4096];
static size_t stream_len;

static void test_capture_matches_lister(void)
{
	struct hwt_cs_deframed res;
	CHECK_INT(hwt_emu_cs_deframe(aux, aux_len, 0x1e, stream, idx,
				     sizeof(stream), &res), 0);
	stream_len = res.n;
	/* One source, trace ID 0x1e (bit 30 of the first word), and ID 0,
	 * the sink's padding. */
	CHECK_U64(res.ids[0], 1u << 30 | 1u);
	CHECK_U64(res.ids[1] | res.ids[2] | res.ids[3], 0);

	static struct lister_pkt ref[MAXP];
	long nref = etm_lister(aux, aux_len, ref, MAXP);
	struct ours o;
	CHECK_INT(parse(stream, idx, stream_len, &o), 1);
	/* The lister's count of this capture's packets. */
	CHECK_INT(nref, 27);
	CHECK_INT(o.n, nref);
	long bad = 0;
	for (long i = 0; i < nref && i < o.n; i++)
		if (o.idx[i] != ref[i].idx || o.first[i] != ref[i].first) {
			if (!bad++)
				HWT_FAIL("packet %ld: ours idx %u header 0x%02x, "
					 "trc_pkt_lister's idx %lu header 0x%02x (%s)",
					 i, o.idx[i], o.first[i], ref[i].idx,
					 ref[i].first, ref[i].name);
		}
	CHECK_INT(bad, 0);
	/* The addresses the lister prints: Idx 258, 274, 284, 310, 321. */
	CHECK_U64(o.addr[9], 0x582b2b1000ull);
	CHECK_U64(o.addr[11], 0x727006cab8ull);
	CHECK_U64(o.addr[13], 0x582b2b108cull);
	CHECK_U64(o.addr[24], 0x582b2b10a4ull);
	CHECK_U64(o.addr[26], 0x727006cb1cull);
}

static void test_context_fields(void)
{
	/* Idx 258: I_ADDR_CTXT_L_64IS0, AArch64, EL0, NS, CID 0x4353. */
	size_t at = 0;
	while (at < stream_len && idx[at] != 258)
		at++;
	struct hwt_etm_pkt p;
	CHECK_INT(hwt_etm_next(stream + at, stream_len - at, &cfg, &p), 14);
	CHECK_INT(p.kind, HWT_ETM_ADDRESS);
	CHECK_INT(p.has_ctxt, 1);
	CHECK_INT(p.ctxt_info, 0xb0);
	CHECK_U64(p.cid, 0x4353);
	CHECK_U64(p.vmid, 0);
}

/* The stream framed again lists as the same packets (header bytes,
 * names), at 14 data bytes a frame; every length's padding, odd and
 * even, is tried by cutting the stream after each packet. */
static void test_reframed_matches_lister(void)
{
	static uint8_t framed[8192], back[4096];
	static struct lister_pkt ref[MAXP], again[MAXP];
	long nref = etm_lister(aux, aux_len, ref, MAXP);
	size_t ends[MAXP], nends = 0;
	for (size_t at = 0; at < stream_len && nends < MAXP;) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(stream + at, stream_len - at, &cfg, &p);
		if (r <= 0)
			break;
		at += (size_t)r;
		ends[nends++] = at;
	}
	CHECK_INT((long)nends, nref);
	long wrong = 0, odd = 0, even = 0;
	for (size_t k = 0; k < nends; k++) {
		size_t n = ends[k];
		size_t w = hwt_emu_cs_frame(stream, n, 0x1e, framed);
		if (w != hwt_emu_cs_framed_len(n))
			wrong++;
		if ((n % 14) & 1)
			odd++;
		else
			even++;
		struct hwt_cs_deframed res;
		if (hwt_emu_cs_deframe(framed, w, 0x1e, back, NULL, sizeof(back),
				       &res) || res.n != n || memcmp(back, stream, n))
			wrong++;
		long m = etm_lister(framed, w, again, MAXP);
		if (m != (long)k + 1)
			wrong++;
		for (long i = 0; i < m && i <= (long)k; i++)
			if (again[i].first != ref[i].first ||
			    strcmp(again[i].name, ref[i].name))
				wrong++;
	}
	CHECK_INT(wrong, 0);
	/* Both paddings came up. */
	CHECK(odd > 0 && even > 0);
}

static void test_cuts_are_incomplete(void)
{
	/* Each packet cut short at every length is incomplete (never a
	 * packet that reads past the cut); whole, it is its length. */
	long wrong = 0, tried = 0;
	for (size_t at = 0; at < stream_len;) {
		struct hwt_etm_pkt p;
		long r = hwt_etm_next(stream + at, stream_len - at, &cfg, &p);
		if (r <= 0)
			break;
		for (long cut = 0; cut < r; cut++) {
			uint8_t copy[64];
			memcpy(copy, stream + at, (size_t)cut);
			tried++;
			if (hwt_etm_next(copy, (size_t)cut, &cfg, &p) !=
			    HWT_ETM_INCOMPLETE)
				wrong++;
		}
		at += (size_t)r;
	}
	CHECK_INT(wrong, 0);
	/* The 27 packets' bytes: the stream's. */
	CHECK_INT(tried, (long)stream_len);
}

static void test_bad_headers(void)
{
	struct hwt_etm_pkt p;
	static const uint8_t reserved[] = { 0x08 }, cyc[] = { 0x0e, 0x01 },
			     q[] = { 0xa0 }, badsync[] = { 0x00, 0x00, 0x00, 0x01 },
			     ext[] = { 0x00, 0x07 };
	CHECK_INT(hwt_etm_next(reserved, 1, &cfg, &p), HWT_ETM_BAD);
	CHECK_INT(hwt_etm_next(cyc, 2, &cfg, &p), HWT_ETM_UNSUPPORTED);
	CHECK_INT(hwt_etm_next(q, 1, &cfg, &p), HWT_ETM_UNSUPPORTED);
	CHECK_INT(hwt_etm_next(badsync, 4, &cfg, &p), HWT_ETM_BAD);
	CHECK_INT(hwt_etm_next(ext, 2, &cfg, &p), HWT_ETM_BAD);
	CHECK_STR(hwt_etm_strerror(HWT_ETM_BAD), "a reserved or malformed packet header");
	/* A buffer that is not whole frames. */
	struct hwt_cs_deframed res;
	uint8_t out[16];
	CHECK_INT(hwt_emu_cs_deframe(aux, 15, 0x1e, out, NULL, 16, &res), -EINVAL);
	CHECK_INT(hwt_emu_cs_deframe(aux, aux_len, 0x1e, out, NULL, 16, &res),
		  -ENOSPC);
}

static void test_two_ids_match_lister(void)
{
	static const char dir[] = HWT_TESTDATA "/opencsd/Snowball";
	static struct lister_pkt ref[4096];
	static uint8_t buf[8192], out[2][8192];
	static uint32_t at[2][8192];
	struct hwt_cs_deframed res[2];
	FILE *f = fopen(HWT_TESTDATA "/opencsd/Snowball/cstrace.bin", "rb");
	size_t len = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	CHECK_INT(len, 8192);
	for (int k = 0; k < 2; k++)
		CHECK_INT(hwt_emu_cs_deframe(buf, len, (uint8_t)(0x10 + k), out[k],
					     at[k], sizeof(out[k]), &res[k]), 0);
	/* IDs 0x10, 0x11 and 0, the padding. */
	CHECK_U64(res[0].ids[0], 3u << 16 | 1u);
	long n = etm_lister_dir(dir, ref, 4096);
	CHECK_INT(n, 1832);
	long same = 0, other = 0, unsynced_other = 0;
	for (long i = 0; i < n && i < 4096; i++) {
		int k = ref[i].id - 0x10;
		int found = 0;
		for (size_t j = 0; k >= 0 && k < 2 && j < res[k].n; j++)
			if (at[k][j] == ref[i].idx) {
				found = out[k][j] == ref[i].first;
				break;
			}
		if (found)
			same++;
		else if (!strcmp(ref[i].name, "NOTSYNC"))
			unsynced_other++;
		else
			other++;
	}
	CHECK_INT(other, 0);
	CHECK_INT(unsynced_other, 1);
	CHECK_INT(same, n - 1);
}

int main(void)
{
	aux = etm_capture_aux(&aux_len);
	CHECK(aux != NULL);
	if (!aux)
		return hwt_test_summary();
	/* The AUXTRACE record's size: 0x180, 24 frames. */
	CHECK_U64(aux_len, 0x180);
	RUN(test_capture_matches_lister);
	RUN(test_context_fields);
	RUN(test_reframed_matches_lister);
	RUN(test_cuts_are_incomplete);
	RUN(test_bad_headers);
	RUN(test_two_ids_match_lister);
	free(aux);
	return hwt_test_summary();
}
