/* `hwtrace decode --packets` for N-Trace: a record per message with its
 * TCODE and every field (typed, and in the line as NAME[bits]=value, the
 * field's MDO bits, as the specification's reference dump counts them),
 * the address an F-ADDR or U-ADDR field stands for, idle runs and broken
 * frames. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "backends/riscv-trace/rvt_decode.h"
#include "backends/riscv-trace/rvt_record.h"
#include "hwtrace/listing.h"

/* A message's line, written piece by piece; cut short (never overrun) if
 * a message had more fields than it holds. */
struct line {
	char s[1024];
	size_t len;
};

static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->len >= sizeof(l->s) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(l->s + l->len, sizeof(l->s) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->s) - l->len ? (size_t)n
							      : sizeof(l->s) - 1 - l->len;
}

static int put(const struct hwt_packet_sink *sink,
	       enum hwt_packet_rec_type type, bool has_offset, uint64_t offset,
	       const char *kind, const struct hwt_packet_field *fields,
	       size_t nfields, const char *text)
{
	return hwt_packet_emit(sink, "riscv_ntrace", type, has_offset, offset,
			       kind, fields, nfields, text);
}

static int put_msg(const struct rvt_msg *m, const struct rvt_opts *o,
		   uint64_t *ref, const struct hwt_packet_sink *sink)
{
	/* TCODE, each field, and the address: at most RVT_F_COUNT + 2. */
	struct hwt_packet_field fields[RVT_F_COUNT + 2];
	size_t n = 0;
	struct line l = {.len = 0};

	line_add(&l, "  %08" PRIx64 ": %s TCODE[6]=%u", m->offset,
		 rvt_tcode_name(m->tcode), m->tcode);
	fields[n++] = (struct hwt_packet_field){"TCODE", m->tcode};
	for (unsigned i = 0; i < m->nfields; i++) {
		enum rvt_field f = (enum rvt_field)m->order[i];
		line_add(&l, " %s[%u]=0x%" PRIx64, rvt_field_name(f), m->bits[f],
			 m->v[f]);
		fields[n++] = (struct hwt_packet_field){rvt_field_name(f), m->v[f]};
	}
	if (rvt_msg_has(m, RVT_F_FADDR))
		*ref = rvt_addr_field(m->v[RVT_F_FADDR], m->bits[RVT_F_FADDR], o);
	else if (rvt_msg_has(m, RVT_F_UADDR))
		*ref ^= rvt_addr_field(m->v[RVT_F_UADDR], m->bits[RVT_F_UADDR], o);
	if (rvt_msg_has(m, RVT_F_FADDR) || rvt_msg_has(m, RVT_F_UADDR)) {
		line_add(&l, " -> 0x%" PRIx64, *ref);
		fields[n++] = (struct hwt_packet_field){"address", *ref};
	}
	if (!m->known)
		line_add(&l, " (%" PRIu32 " bytes, fields not known)", m->size);
	return put(sink, HWT_PACKET_REC_PACKET, true, m->offset,
		   rvt_tcode_name(m->tcode), fields, n, l.s);
}

int rvt_packets(const struct hwt_decode_params *params,
		const struct hwt_aux_chunk *c, const struct hwt_packet_sink *sink)
{
	struct rvt_opts o;
	struct rvt_msg m;
	uint64_t ref = 0;
	size_t used;
	const char *why = NULL;
	char text[256];
	int err = rvt_params_opts(params, &o);

	if (err < 0)
		return err;
	snprintf(text, sizeof(text), ". ... RISC-V N-Trace data: size %" PRIu64
		 " bytes", c->size);
	err = put(sink, HWT_PACKET_REC_NOTE, false, 0, NULL, NULL, 0, text);
	for (uint64_t i = 0; err >= 0 && i < c->size; i += used) {
		uint64_t at = c->offset + i;
		switch (rvt_msg_next(c->data + i, (size_t)(c->size - i), at, &o,
				     &m, &used, &why)) {
		case RVT_FRAME_MSG:
			err = put_msg(&m, &o, &ref, sink);
			break;
		case RVT_FRAME_IDLE:
			snprintf(text, sizeof(text), "  %08" PRIx64 ": idle (%zu "
				 "bytes)", at, used);
			err = put(sink, HWT_PACKET_REC_PACKET, true, at, "idle",
				  NULL, 0, text);
			break;
		case RVT_FRAME_BAD:
			snprintf(text, sizeof(text), "  %08" PRIx64 ": bad message "
				 "(%zu bytes): %s", at, used, why);
			err = put(sink, HWT_PACKET_REC_NOTE, true, at, NULL, NULL,
				  0, text);
			break;
		case RVT_FRAME_SHORT:
			if (params->info &&
			    rvt_perf_padding(c->data + i, (size_t)(c->size - i),
					     c->offset + c->size)) {
				snprintf(text, sizeof(text), "  %08" PRIx64
					 ": perf's AUXTRACE padding (%" PRIu64
					 " zero bytes)", at, c->size - i);
				err = put(sink, HWT_PACKET_REC_NOTE, true, at,
					  NULL, NULL, 0, text);
				used = (size_t)(c->size - i);
				break;
			}
			snprintf(text, sizeof(text), "  %08" PRIx64 ": partial "
				 "message (%" PRIu64 " bytes)", at, c->size - i);
			return put(sink, HWT_PACKET_REC_NOTE, true, at, NULL, NULL,
				   0, text);
		}
	}
	return err < 0 ? err : 0;
}
