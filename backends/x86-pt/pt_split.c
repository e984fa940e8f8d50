/* The intel_pt split op: where a chunk may be cut for parallel decode.
 *
 * A segment starts at a PSB. The decoder of the segment before reads on
 * through that PSB+ (the chunk's lookahead) and stops at its end: the
 * PSB+'s FUP tells where the last branch before it went, and the block
 * decoder ends its last block there. The next segment's decoder
 * synchronises at the same PSB and starts where the first left off. The
 * two give what one decoder running through gives when nothing it
 * carries over the PSB changes the elements after it:
 *  - the return-compression stack: the processor compresses no return
 *    across a PSB (perf empties its stack there);
 *  - the time: the PSB+ holds a TSC (and a TMA when MTC is on), which
 *    sets it anew; CYC is not used, since its calibration (the cycles of
 *    the last MTC periods, or between the TSCs of the last PSB+s)
 *    carries over the PSB: a chunk of a capture with CYC on is not cut,
 *    nor a raw stream (whose settings are not known) with a CYC packet;
 *    a chunk with no time packet at all (TSC, TMA, MTC, CYC: untimed
 *    trace, as qemu writes it) has no time to carry over, and is cut at
 *    every PSB+ that restates the rest;
 *  - the state the PSB+ restates (IP, exec mode, TSX, paging, VMCS):
 *    anything else inside it (an overflow, a TIP, a bad packet) makes it
 *    no place to cut.
 * Segments are about pt_split_bytes long: long enough that a unit of
 * work is worth a decoder of its own, short enough that the parallel
 * decode can hold a unit's elements in memory while the units before it
 * are sent, so that every thread decodes. */
#define _GNU_SOURCE
#include <string.h>

#include "backends/x86-pt/pt_decode.h"
#include "hwtrace/error.h"

size_t pt_split_bytes = 8 * 1024;

/* The PSB packet: 02 82, eight times (Intel SDM, "PSB Packet"). */
static const uint8_t psb[16] = {
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
};

/* A pass over the chunk ahead of its decode tells the caller, every
 * READ_STEP bytes, what it has read (hwt_decode_params.read_done), so
 * that a long raw trace need not stay resident whole while it is cut. */
#define READ_STEP (1024 * 1024)

struct read_pass {
	const struct hwt_decode_params *params;
	const uint8_t *from;
};

/* The pass has read up to @at (and will not come back before it). */
static void read_up_to(struct read_pass *r, const uint8_t *at)
{
	if (r->params->read_done && at >= r->from + READ_STEP) {
		r->params->read_done(r->params->read_done_arg, r->from, at);
		r->from = at;
	}
}

/* The pass is over: the rest of what it read, [from, @end). */
static void read_end(struct read_pass *r, const uint8_t *end)
{
	if (r->params->read_done && end > r->from)
		r->params->read_done(r->params->read_done_arg, r->from, end);
	r->from = end;
}

/* What a chunk's packets say about its time (pt_dec.timing_flags). */
enum { TIMING_CYC = 1, TIMING_ANY = 2 };

/* Which time packets a chunk holds: CYC, and any of TSC, TMA, MTC and
 * CYC. One pass of the packet decoder, a small part of a decode's time,
 * which stops once it has seen all of @stop. Bytes it cannot read are
 * skipped up to the next PSB, as a decoder skips them. */
static unsigned int scan_timing(const struct pt_dec *d,
				const struct hwt_aux_chunk *chunk,
				unsigned int stop)
{
	const struct pt_config *base = &d->config;
	struct read_pass pass = {&d->params, chunk->data};
	struct pt_config c = *base;
	c.begin = (uint8_t *)chunk->data;
	c.end = c.begin + chunk->size;
	struct pt_packet_decoder *pd = pt_pkt_alloc_decoder(&c);
	if (!pd)
		return TIMING_CYC | TIMING_ANY; /* not known: not cut */
	unsigned int found = 0;
	unsigned int n = 0;
	while ((found & stop) != stop && pt_pkt_sync_forward(pd) >= 0) {
		struct pt_packet p;
		while ((found & stop) != stop &&
		       pt_pkt_next(pd, &p, sizeof(p)) >= 0) {
			uint64_t off;
			if (!(++n & 4095) && pt_pkt_get_offset(pd, &off) >= 0)
				read_up_to(&pass, chunk->data + off);
			if (p.type == ppt_cyc)
				found |= TIMING_CYC | TIMING_ANY;
			else if (p.type == ppt_tsc || p.type == ppt_tma ||
				 p.type == ppt_mtc)
				found |= TIMING_ANY;
		}
	}
	uint64_t off;
	read_end(&pass, pt_pkt_get_offset(pd, &off) >= 0 ? chunk->data + off
							 : chunk->data);
	pt_pkt_free_decoder(pd);
	return found;
}

/* Raw input: no attribute or AUXTRACE_INFO says how the trace was
 * recorded. */
static bool is_raw(const struct pt_dec *d)
{
	return !d->params.aux_attr || !d->params.info ||
	       d->params.info_words < PT_INFO_WORDS_MIN;
}

/* scan_timing of @chunk, kept: a decode asks once to choose its threads,
 * again to cut. A raw stream is read up to its first CYC (its settings
 * are not known); a capture's only up to its first time packet. */
static unsigned int chunk_timing(struct pt_dec *d,
				 const struct hwt_aux_chunk *chunk)
{
	if (d->timing_data != chunk->data || d->timing_size != chunk->size) {
		d->timing_flags = scan_timing(d, chunk,
					      is_raw(d) ? TIMING_CYC
							: TIMING_ANY);
		d->timing_data = chunk->data;
		d->timing_size = chunk->size;
	}
	return d->timing_flags;
}

/* Whether the capture's settings leave a PSB as a clean cut: no CYC.
 * (That the time restarts there, each PSB+ must show with a TSC.) A raw
 * stream (no attribute) is cut when it has no CYC packet, whatever its
 * settings; for edges alone, which have no time, always. A chunk without
 * any time packet is cut whatever the settings: no time carries over its
 * PSBs. */
static bool cuttable(struct pt_dec *d, const struct hwt_aux_chunk *chunk)
{
	if (is_raw(d))
		return !d->params.pid_at &&
		       (d->params.edges_only ||
			!(chunk_timing(d, chunk) & TIMING_CYC));
	uint64_t cyc = d->params.info[PT_INFO_CYC_BIT];
	return !(cyc && (d->params.aux_attr->config & cyc)) ||
	       !(chunk_timing(d, chunk) & TIMING_ANY);
}

/* What a PSB+ must hold to be a cut: a TSC, and a TMA where MTC gives
 * time (a capture with MTC on; a raw stream whose --raw options give the
 * TSC:CTC ratio, without which libipt does not use MTC). A raw stream
 * cut for edges alone needs neither, nor a chunk without time packets
 * (untimed trace, as qemu writes), where every clean PSB+ is a cut. */
static unsigned int cut_needs(struct pt_dec *d,
			      const struct hwt_aux_chunk *chunk)
{
	bool mtc_time;
	if (is_raw(d) && d->params.edges_only)
		return 0;
	if (!(chunk_timing(d, chunk) & TIMING_ANY))
		return 0;
	if (is_raw(d)) {
		mtc_time = d->config.cpuid_0x15_eax && d->config.cpuid_0x15_ebx;
	} else {
		uint64_t mtc = d->params.info[PT_INFO_MTC_BIT];
		mtc_time = mtc && (d->params.aux_attr->config & mtc);
	}
	return PSB_NEED_TSC | (mtc_time ? PSB_NEED_TMA : 0);
}

int pt_psb_plus_size(const struct pt_config *base, const uint8_t *at,
		     const uint8_t *end, unsigned int need)
{
	struct pt_config c = *base;
	c.begin = (uint8_t *)at;
	c.end = (uint8_t *)end;
	struct pt_packet_decoder *pd = pt_pkt_alloc_decoder(&c);
	if (!pd)
		return -pte_nomem;
	int size = -pte_bad_packet;
	bool have_tsc = false, have_tma = false;
	struct pt_packet p;
	if (pt_pkt_sync_set(pd, 0) < 0 || pt_pkt_next(pd, &p, sizeof(p)) < 0 ||
	    p.type != ppt_psb)
		goto out;
	for (;;) {
		if (pt_pkt_next(pd, &p, sizeof(p)) < 0)
			goto out;
		switch (p.type) {
		case ppt_tsc:
			have_tsc = true;
			break;
		case ppt_tma:
			have_tma = true;
			break;
		case ppt_cbr:
		case ppt_mode:
		case ppt_fup:
		case ppt_pip:
		case ppt_vmcs:
		case ppt_pad:
		case ppt_mnt:
			break;
		case ppt_psbend: {
			uint64_t off = 0;
			pt_pkt_get_offset(pd, &off);
			if ((have_tsc || !(need & PSB_NEED_TSC)) &&
			    (have_tma || !(need & PSB_NEED_TMA)))
				size = (int)off;
			goto out;
		}
		default:
			goto out;
		}
	}
out:
	pt_pkt_free_decoder(pd);
	return size;
}

int pt_split(void *priv, const struct hwt_aux_chunk *chunk, uint64_t *starts,
	     size_t max)
{
	struct pt_dec *d = priv;
	size_t n = 0;
	starts[n++] = 0;
	if (!cuttable(d, chunk))
		return 1;
	const uint8_t *begin = chunk->data, *end = chunk->data + chunk->size;
	uint64_t step = pt_split_bytes;
	if (max > 1 && chunk->size / max > step)
		step = chunk->size / max + 1;
	unsigned int need = cut_needs(d, chunk);
	struct read_pass pass = {&d->params, begin};
	uint64_t from = step;
	/* Compared as sizes left, not as sums: a step as long as the
	 * address space (no cut wanted) would wrap. */
	while (n < max && from < chunk->size &&
	       chunk->size - from > sizeof(psb)) {
		const uint8_t *at = memmem(begin + from, (size_t)(end - begin - from),
					   psb, sizeof(psb));
		if (!at)
			break;
		uint64_t off = (uint64_t)(at - begin);
		read_up_to(&pass, at);
		/* Bytes of another packet's payload can look like a PSB:
		 * only a well-formed PSB+ that restates the time counts. */
		if (pt_psb_plus_size(&d->config, at, end, need) > 0) {
			starts[n++] = off;
			if (step >= chunk->size - off)
				break;
			from = off + step;
		} else {
			from = off + 1;
		}
	}
	read_end(&pass, end);
	return (int)n;
}
