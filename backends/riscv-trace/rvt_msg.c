/* N-Trace framing and fields (see rvt_msg.h). */
#include "backends/riscv-trace/rvt_msg.h"

#define MSEO(b) ((b) & 3u)
#define MDO(b) ((unsigned)(b) >> 2)
#define MSEO_MID 0u    /* more of this field (or message) follows */
#define MSEO_FIELD 1u  /* a variable-length field ends here */
#define MSEO_RSVD 2u
#define MSEO_END 3u    /* the message ends here */
#define IDLE 0xffu

/* A message's MDO bits, read field by field. */
struct reader {
	const uint8_t *p;
	size_t n;      /* bytes of the message */
	size_t i;      /* the byte being read */
	unsigned bit;  /* the next MDO bit of p[i], 0..6 */
	bool ended;    /* the last field ended the message */
	const char *why;
};

/* Moves to the next byte when this one's MDO bits are used up; false
 * when the message (or a field boundary) does not allow it. */
static bool next_byte(struct reader *r)
{
	if (r->ended) {
		r->why = "the message ends before its last field";
		return false;
	}
	if (r->bit < 6)
		return true;
	if (MSEO(r->p[r->i]) != MSEO_MID) {
		r->why = "a fixed-length field runs past the end of a "
			 "variable-length one";
		return false;
	}
	r->i++;
	r->bit = 0;
	if (r->i >= r->n) {
		r->why = "the message ends inside a field";
		return false;
	}
	return true;
}

static bool fixed(struct reader *r, unsigned nbits, uint64_t *out)
{
	uint64_t v = 0;
	unsigned got = 0;

	while (got < nbits) {
		if (!next_byte(r))
			return false;
		unsigned k = 6 - r->bit;
		if (k > nbits - got)
			k = nbits - got;
		v |= (uint64_t)((MDO(r->p[r->i]) >> r->bit) & ((1u << k) - 1))
		     << got;
		got += k;
		r->bit += k;
	}
	*out = v;
	return true;
}

/* A variable-length field: the MDO bits up to the end of the byte whose
 * MSEO closes it. Bits past 64 must be zero (the specification's fields
 * are 64 bits at most; corrupt trace may give more). */
static bool var(struct reader *r, uint64_t *out, unsigned *nbits)
{
	uint64_t v = 0;
	unsigned got = 0;

	if (!next_byte(r))
		return false;
	for (;;) {
		uint8_t b = r->p[r->i];
		uint64_t chunk = MDO(b) >> r->bit;
		unsigned k = 6 - r->bit;
		if (got < 64) {
			v |= chunk << got;
			if (got + k > 64 && chunk >> (64 - got)) {
				r->why = "a variable-length field has more than "
					 "64 significant bits";
				return false;
			}
		} else if (chunk) {
			r->why = "a variable-length field has more than 64 "
				 "significant bits";
			return false;
		}
		got += k;
		r->bit = 0;
		r->i++;
		if (MSEO(b) != MSEO_MID) {
			r->ended = MSEO(b) == MSEO_END;
			break;
		}
		if (r->i >= r->n) {
			r->why = "the message ends inside a field";
			return false;
		}
	}
	*out = v;
	*nbits = got > 255 ? 255 : got;
	return true;
}

static void put(struct rvt_msg *m, enum rvt_field f, uint64_t v,
		unsigned nbits)
{
	m->present |= 1u << f;
	m->v[f] = v;
	m->bits[f] = (uint8_t)nbits;
	m->order[m->nfields++] = (uint8_t)f;
}

static bool get_fixed(struct reader *r, struct rvt_msg *m, enum rvt_field f,
		      unsigned nbits)
{
	uint64_t v;
	if (!fixed(r, nbits, &v))
		return false;
	put(m, f, v, nbits);
	return true;
}

static bool get_var(struct reader *r, struct rvt_msg *m, enum rvt_field f)
{
	uint64_t v;
	unsigned nbits;
	if (!var(r, &v, &nbits))
		return false;
	put(m, f, v, nbits);
	return true;
}

/* The fields after TCODE and SRC, in the order the specification sends
 * them; false (r->why set) when the message does not hold them. */
static bool body(struct reader *r, struct rvt_msg *m)
{
	bool ok = true;

	m->known = true;
	switch (m->tcode) {
	case RVT_TC_OWNERSHIP:
		return get_var(r, m, RVT_F_PROCESS);
	case RVT_TC_DIRECT_BRANCH:
		return get_var(r, m, RVT_F_ICNT);
	case RVT_TC_INDIRECT_BRANCH:
	case RVT_TC_INDIRECT_BRANCH_HIST:
		ok = get_fixed(r, m, RVT_F_BTYPE, 2) && get_var(r, m, RVT_F_ICNT) &&
		     get_var(r, m, RVT_F_UADDR);
		if (ok && m->tcode == RVT_TC_INDIRECT_BRANCH_HIST)
			ok = get_var(r, m, RVT_F_HIST);
		return ok;
	case RVT_TC_ERROR:
		return get_fixed(r, m, RVT_F_ETYPE, 4) && get_var(r, m, RVT_F_ECODE);
	case RVT_TC_PROG_TRACE_SYNC:
	case RVT_TC_DIRECT_BRANCH_SYNC:
		return get_fixed(r, m, RVT_F_SYNC, 4) && get_var(r, m, RVT_F_ICNT) &&
		       get_var(r, m, RVT_F_FADDR);
	case RVT_TC_INDIRECT_BRANCH_SYNC:
	case RVT_TC_INDIRECT_BRANCH_HIST_SYNC:
		ok = get_fixed(r, m, RVT_F_SYNC, 4) &&
		     get_fixed(r, m, RVT_F_BTYPE, 2) && get_var(r, m, RVT_F_ICNT) &&
		     get_var(r, m, RVT_F_FADDR);
		if (ok && m->tcode == RVT_TC_INDIRECT_BRANCH_HIST_SYNC)
			ok = get_var(r, m, RVT_F_HIST);
		return ok;
	case RVT_TC_RESOURCE_FULL:
		if (!get_fixed(r, m, RVT_F_RCODE, 4) || !get_var(r, m, RVT_F_RDATA))
			return false;
		/* RCODE 2 (repeated history) carries HREPEAT; the vendors'
		 * codes 8..15 and the reserved 3..7 fields not known here. */
		if (m->v[RVT_F_RCODE] == 2)
			return get_var(r, m, RVT_F_HREPEAT);
		if (m->v[RVT_F_RCODE] > 2)
			m->known = false;
		return true;
	case RVT_TC_REPEAT_BRANCH:
		return get_var(r, m, RVT_F_BCNT);
	case RVT_TC_PROG_TRACE_CORRELATION:
		if (!get_fixed(r, m, RVT_F_EVCODE, 4) || !get_fixed(r, m, RVT_F_CDF, 2) ||
		    !get_var(r, m, RVT_F_ICNT))
			return false;
		if (m->v[RVT_F_CDF] == 1)
			return get_var(r, m, RVT_F_HIST);
		if (m->v[RVT_F_CDF] > 1)
			m->known = false;
		return true;
	default:
		m->known = false;
		return true;
	}
}

enum rvt_frame rvt_msg_next(const uint8_t *p, size_t n, uint64_t offset,
			    const struct rvt_opts *o, struct rvt_msg *m,
			    size_t *used, const char **why)
{
	size_t i = 0, end;

	/* Idle bytes, and bytes that cannot start a message (the tail of
	 * one whose start was lost, say): up to the next MSEO 00 after an
	 * end. */
	if (n && MSEO(p[0]) != MSEO_MID) {
		while (i < n && MSEO(p[i]) != MSEO_MID)
			i++;
		*used = i;
		return RVT_FRAME_IDLE;
	}
	for (end = 0; end < n && MSEO(p[end]) != MSEO_END; end++)
		if (MSEO(p[end]) == MSEO_RSVD || end >= RVT_MAX_MSG)
			break;
	if (end >= n) {
		*used = 0;
		return RVT_FRAME_SHORT;
	}
	if (MSEO(p[end]) != MSEO_END) {
		/* Skip to where a message may start again. */
		while (end < n && MSEO(p[end]) != MSEO_END)
			end++;
		*used = end < n ? end + 1 : n;
		*why = "a byte with the reserved MSEO 10, or a message longer "
		       "than 256 bytes";
		return RVT_FRAME_BAD;
	}
	*used = end + 1;
	m->offset = offset;
	m->size = (uint32_t)(end + 1);
	m->present = 0;
	m->nfields = 0;
	m->known = false;

	struct reader r = {.p = p, .n = end + 1};
	uint64_t tc;
	fixed(&r, 6, &tc);
	m->tcode = (uint8_t)tc;
	bool ok = (!o->src_bits || get_fixed(&r, m, RVT_F_SRC, o->src_bits)) &&
		  body(&r, m);
	if (ok && m->known && !r.ended) {
		/* The optional last field. */
		ok = get_var(&r, m, RVT_F_TSTAMP);
		if (ok && !r.ended) {
			ok = false;
			r.why = "the message has more fields than its TCODE "
				"defines";
		}
	}
	if (ok && m->known && r.i != r.n) {
		ok = false;
		r.why = "the message has bytes after its last field";
	}
	if (!ok) {
		*why = r.why ? r.why : "the message is malformed";
		return RVT_FRAME_BAD;
	}
	return RVT_FRAME_MSG;
}

bool rvt_tcode_is_sync(unsigned tcode)
{
	return tcode == RVT_TC_PROG_TRACE_SYNC ||
	       tcode == RVT_TC_DIRECT_BRANCH_SYNC ||
	       tcode == RVT_TC_INDIRECT_BRANCH_SYNC ||
	       tcode == RVT_TC_INDIRECT_BRANCH_HIST_SYNC;
}

const char *rvt_tcode_name(unsigned tcode)
{
	switch (tcode) {
	case RVT_TC_OWNERSHIP: return "Ownership";
	case RVT_TC_DIRECT_BRANCH: return "DirectBranch";
	case RVT_TC_INDIRECT_BRANCH: return "IndirectBranch";
	case RVT_TC_ERROR: return "Error";
	case RVT_TC_PROG_TRACE_SYNC: return "ProgTraceSync";
	case RVT_TC_DIRECT_BRANCH_SYNC: return "DirectBranchSync";
	case RVT_TC_INDIRECT_BRANCH_SYNC: return "IndirectBranchSync";
	case RVT_TC_RESOURCE_FULL: return "ResourceFull";
	case RVT_TC_INDIRECT_BRANCH_HIST: return "IndirectBranchHist";
	case RVT_TC_INDIRECT_BRANCH_HIST_SYNC: return "IndirectBranchHistSync";
	case RVT_TC_REPEAT_BRANCH: return "RepeatBranch";
	case RVT_TC_PROG_TRACE_CORRELATION: return "ProgTraceCorrelation";
	}
	return tcode >= 56 && tcode <= 62 ? "Vendor" : "Reserved";
}

const char *rvt_field_name(enum rvt_field f)
{
	static const char *const names[RVT_F_COUNT] = {
		[RVT_F_SRC] = "SRC", [RVT_F_SYNC] = "SYNC",
		[RVT_F_BTYPE] = "BTYPE", [RVT_F_ETYPE] = "ETYPE",
		[RVT_F_RCODE] = "RCODE", [RVT_F_EVCODE] = "EVCODE",
		[RVT_F_CDF] = "CDF", [RVT_F_PROCESS] = "PROCESS",
		[RVT_F_ECODE] = "ECODE", [RVT_F_RDATA] = "RDATA",
		[RVT_F_HREPEAT] = "HREPEAT", [RVT_F_BCNT] = "BCNT",
		[RVT_F_ICNT] = "ICNT", [RVT_F_FADDR] = "FADDR",
		[RVT_F_UADDR] = "UADDR", [RVT_F_HIST] = "HIST",
		[RVT_F_TSTAMP] = "TSTAMP",
	};
	return (unsigned)f < RVT_F_COUNT ? names[f] : "?";
}

uint64_t rvt_addr_field(uint64_t v, unsigned bits, const struct rvt_opts *o)
{
	if (o->extaddr && bits && bits < 64 && (v >> (bits - 1) & 1))
		v |= ~0ull << bits;
	uint64_t a = v << 1;
	return o->xlen == 32 ? a & 0xffffffffull : a;
}
