/* Where the intel_pt split op cuts a chunk for parallel decode
 * (backends/x86-pt/pt_split.c): only at a PSB whose PSB+ restates the
 * time (a TSC, and a TMA when the capture has MTC on) and holds nothing
 * else a decoder starting there would not see the same (an OVF here),
 * only in a capture with CYC off, and not in raw input, which has no
 * attribute to tell. The trace is written with libipt's encoder, its PSB+
 * variants at known offsets; the segments asked for are 1 byte long, so
 * that every PSB where a cut may be is one, or 1 MiB, so that none is.
 * The AUXTRACE_INFO words are the quipper capture's (CYC bit 0x2, MTC bit
 * 0x200, TSC bit 0x400). Letting an OVF into a PSB+, dropping the TSC,
 * TMA or CYC check each fails it. A trace with no time packet at all is
 * cut at every clean PSB+, whatever the settings. */
#include <string.h>

#include <intel-pt.h>

#include "backends/x86-pt/pt_decode.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "pt_enc_psb.h"

#define ORG 0x400000ull

static const uint64_t info[17] = {
	6, 31, 1789569706, 18446744041015200657ull, 1, 0x400, 0x800, 3, 0, 1,
	0x200, 0x3c000, 100, 2, 0x2, 12, 0,
};

/* The PSB+ variants, in the order they are written. */
enum psb_kind {
	PSB_TSC,         /* TSC, MODE, FUP: a cut */
	PSB_NO_TSC,      /* MODE, FUP: the time does not restart */
	PSB_OVF,         /* TSC, OVF, FUP: an overflow inside */
	PSB_TSC_NO_TMA,  /* a cut only with MTC off */
	PSB_TSC_TMA,     /* TSC, TMA, MODE, FUP: a cut */
	NKINDS,
};

static uint8_t trace[8192];
static uint64_t psb_at[NKINDS];

static int put(struct pt_encoder *e, struct pt_packet *p)
{
	return pt_enc_put(e, p);
}

static bool untimed; /* no TSC or TMA in any PSB+ (nor CYC) */

static int psb_plus(struct pt_encoder *e, enum psb_kind k)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	int err = 0;
	p.type = ppt_psb;
	err |= put(e, &p);
	if (k != PSB_NO_TSC && !untimed) {
		p.type = ppt_tsc;
		p.payload.tsc.tsc = 1000 + k;
		err |= put(e, &p);
	}
	if (k == PSB_TSC_TMA && !untimed) {
		p.type = ppt_tma;
		p.payload.tma.ctc = 1;
		p.payload.tma.fc = 0;
		err |= put(e, &p);
	}
	if (k == PSB_OVF) {
		p.type = ppt_ovf;
		err |= put(e, &p);
	}
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	err |= put(e, &p);
	err |= pt_enc_ip(e, ppt_fup, ORG);
	p.type = ppt_psbend;
	err |= put(e, &p);
	return err;
}

static bool with_cyc; /* a CYC packet after the last PSB+ */

/* A few TNT packets between the PSBs. */
static int tnts(struct pt_encoder *e)
{
	struct pt_packet p;
	int err = 0;
	for (int i = 0; i < 8; i++) {
		memset(&p, 0, sizeof(p));
		p.type = ppt_tnt_8;
		p.payload.tnt.bit_size = 6;
		p.payload.tnt.payload = 0x3f;
		err |= put(e, &p);
	}
	return err;
}

static size_t write_trace(void)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = trace;
	c.end = trace + sizeof(trace);
	struct pt_encoder *e = pt_alloc_encoder(&c);
	int err = !e || (untimed ? psb_plus(e, PSB_NO_TSC)
				 : pt_enc_psb_plus(e, 999, ORG)) || tnts(e);
	for (int k = 0; k < NKINDS && !err; k++) {
		pt_enc_get_offset(e, &psb_at[k]);
		err |= psb_plus(e, (enum psb_kind)k) || tnts(e);
	}
	if (with_cyc) {
		struct pt_packet p;
		memset(&p, 0, sizeof(p));
		p.type = ppt_cyc;
		p.payload.cyc.value = 100;
		err |= put(e, &p) || tnts(e);
	}
	uint64_t size = 0;
	pt_enc_get_offset(e, &size);
	pt_free_encoder(e);
	return err ? 0 : (size_t)size;
}

static int no_elements(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

/* The cuts the op gives for the trace, with the event's @config, or no
 * attribute at all (raw input) when @raw. */
static bool edges_only; /* the decode counts edges (--edges) */
static const char *raw_options; /* --raw intel_pt,OPTIONS */

/* What the op's passes over the stream said they read
 * (hwt_decode_params.read_done): ranges of the chunk, in order. */
struct read_log {
	size_t n;
	const uint8_t *from[8], *to[8];
};
static struct read_log *read_log;

static void log_read(void *arg, const uint8_t *from, const uint8_t *to)
{
	struct read_log *l = arg;
	if (l->n < 8) {
		l->from[l->n] = from;
		l->to[l->n] = to;
	}
	l->n++;
}

static int cuts(uint64_t config, bool raw, size_t size, uint64_t *starts,
		size_t max)
{
	const struct hwt_backend *b = hwt_backend_find("intel_pt");
	struct hwt_elem_sink sink = {no_elements, NULL};
	struct perf_event_attr attr = {.size = sizeof(attr), .config = config};
	struct hwt_decode_params p = {
		.size = sizeof(p), .info = info, .info_words = 17,
		.sink = &sink, .cpu_model = "6/78/3",
		.aux_attr = raw ? NULL : &attr,
		.edges_only = edges_only,
		.raw_options = raw ? raw_options : NULL,
		.read_done = read_log ? log_read : NULL,
		.read_done_arg = read_log,
	};
	if (raw) {
		p.info = NULL;
		p.info_words = 0;
	}
	void *priv = NULL;
	CHECK(b && b->decoder && b->decoder->split);
	if (!b || !b->decoder || b->decoder->create(&p, &priv) < 0)
		return -1;
	struct hwt_aux_chunk chunk = {.data = trace, .size = size, .cpu = 0,
				      .tid = -1};
	int n = b->decoder->split(priv, &chunk, starts, max);
	b->decoder->destroy(priv);
	return n;
}

int main(void)
{
	size_t size = write_trace();
	CHECK(size > 0);
	uint64_t s[16];
	pt_split_bytes = 1;

	/* TSC and MTC on, CYC off (perf's default intel_pt//): with MTC on,
	 * a PSB+ is a cut only with a TMA (the processor writes one in every
	 * PSB+ then). */
	CHECK_INT(cuts(0x400 | 0x200, false, size, s, 16), 2);
	CHECK_U64(s[0], 0);
	CHECK_U64(s[1], psb_at[PSB_TSC_TMA]);

	/* MTC off: a TSC is the whole time. */
	CHECK_INT(cuts(0x400, false, size, s, 16), 4);
	CHECK_U64(s[1], psb_at[PSB_TSC]);
	CHECK_U64(s[2], psb_at[PSB_TSC_NO_TMA]);
	CHECK_U64(s[3], psb_at[PSB_TSC_TMA]);

	/* At most @max segments, each at least the chunk / @max long: the
	 * first cut at or after the middle. */
	CHECK_INT(cuts(0x400, false, size, s, 2), 2);
	uint64_t want = 0;
	for (int k = NKINDS - 1; k >= 0; k--)
		if (k != PSB_NO_TSC && k != PSB_OVF && psb_at[k] > size / 2)
			want = psb_at[k];
	CHECK(want != 0);
	CHECK_U64(s[1], want);

	/* CYC on: its calibration carries over a PSB. */
	CHECK_INT(cuts(0x400 | 0x200 | 0x2, false, size, s, 16), 1);
	CHECK_U64(s[0], 0);

	/* Raw input: no attribute says what the trace holds, but the
	 * stream has no CYC packet, whose calibration would carry over a
	 * PSB. libipt uses MTC only with the TSC:CTC ratio, which no
	 * option gives here: a TSC is the whole time. */
	CHECK_INT(cuts(0, true, size, s, 16), 4);
	CHECK_U64(s[1], psb_at[PSB_TSC]);
	CHECK_U64(s[2], psb_at[PSB_TSC_NO_TMA]);
	CHECK_U64(s[3], psb_at[PSB_TSC_TMA]);
	/* With the ratio, MTC gives time: a cut needs a TMA. */
	raw_options = "cpuid_0x15_eax=2,cpuid_0x15_ebx=100";
	CHECK_INT(cuts(0, true, size, s, 16), 2);
	CHECK_U64(s[1], psb_at[PSB_TSC_TMA]);
	raw_options = NULL;
	/* A CYC packet anywhere in it: not cut. */
	with_cyc = true;
	size_t cyc_size = write_trace();
	CHECK(cyc_size > size);
	CHECK_INT(cuts(0, true, cyc_size, s, 16), 1);
	/* Unless the decode counts edges, which have no time: then every
	 * PSB+ that restates the state is a cut, with a time stamp or not
	 * (not the one with an overflow inside). */
	edges_only = true;
	CHECK_INT(cuts(0, true, size, s, 16), 5);
	CHECK_U64(s[1], psb_at[PSB_TSC]);
	CHECK_U64(s[2], psb_at[PSB_NO_TSC]);
	CHECK_U64(s[3], psb_at[PSB_TSC_NO_TMA]);
	CHECK_U64(s[4], psb_at[PSB_TSC_TMA]);
	/* A capture's stream needs its time at a cut for edges too: its
	 * code is read by time. */
	CHECK_INT(cuts(0x400 | 0x200, false, size, s, 16), 2);
	edges_only = false;

	/* A trace without any time packet (no TSC, TMA, MTC or CYC, as
	 * qemu's trace has none): no time carries over a PSB, so every
	 * PSB+ that restates the state is a cut (not the one with an
	 * overflow inside), raw and in a capture whatever its settings
	 * (here: TSC, MTC and CYC on). */
	untimed = true;
	with_cyc = false;
	size_t untimed_size = write_trace();
	CHECK(untimed_size > 0 && untimed_size < size);
	static const uint64_t settings[] = {0, 0x400 | 0x200, 0x400 | 0x200 | 0x2};
	for (size_t i = 0; i < 4; i++) {
		bool raw = i == 3;
		CHECK_INT(cuts(raw ? 0 : settings[i], raw, untimed_size, s, 16), 5);
		CHECK_U64(s[1], psb_at[PSB_TSC]);
		CHECK_U64(s[2], psb_at[PSB_NO_TSC]);
		CHECK_U64(s[3], psb_at[PSB_TSC_NO_TMA]);
		CHECK_U64(s[4], psb_at[PSB_TSC_TMA]);
	}
	/* Cutting it, the op reads the stream twice (for its time packets,
	 * then for its PSBs), each pass saying so once: a chunk under the
	 * 1 MiB the passes report by reads it whole. */
	struct read_log log = {0};
	read_log = &log;
	CHECK_INT(cuts(0, true, untimed_size, s, 16), 5);
	read_log = NULL;
	CHECK_INT(log.n, 2);
	for (size_t i = 0; i < 2; i++) {
		CHECK(log.from[i] == trace);
		CHECK(log.to[i] == trace + untimed_size);
	}
	untimed = false;
	write_trace();

	/* Segments of at least 1 MiB: a 1 KiB trace is one. */
	pt_split_bytes = 1u << 20;
	CHECK_INT(cuts(0x400, false, size, s, 16), 1);

	/* A segment ends where the next one's decoder takes over: the PSB+
	 * is as long as libipt reads it, and one with an overflow inside is
	 * no PSB+ to end at. */
	struct pt_config c;
	pt_config_init(&c);
	CHECK(pt_psb_plus_size(&c, trace + psb_at[PSB_TSC], trace + size,
			       PSB_NEED_TSC) > 16);
	CHECK(pt_psb_plus_size(&c, trace + psb_at[PSB_OVF], trace + size,
			       0) < 0);
	CHECK(pt_psb_plus_size(&c, trace + psb_at[PSB_NO_TSC], trace + size,
			       PSB_NEED_TSC) < 0);
	/* Without a time stamp, a PSB+ ends a segment cut for edges. */
	CHECK(pt_psb_plus_size(&c, trace + psb_at[PSB_NO_TSC], trace + size,
			       0) > 16);
	CHECK(pt_psb_plus_size(&c, trace + psb_at[PSB_TSC_NO_TMA], trace + size,
			       PSB_NEED_TSC | PSB_NEED_TMA) < 0);
	CHECK(pt_psb_plus_size(&c, trace + psb_at[PSB_TSC_TMA], trace + size,
			       PSB_NEED_TSC | PSB_NEED_TMA) > 16);
	return hwt_test_summary();
}
