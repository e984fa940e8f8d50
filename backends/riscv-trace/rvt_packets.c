/* `hwtrace decode --packets` for N-Trace: one line per message with its
 * TCODE and every field as NAME[bits]=value (the field's MDO bits, as
 * the specification's reference dump counts them), the address an
 * F-ADDR or U-ADDR field stands for, idle runs and broken frames. */
#include <inttypes.h>
#include <stdio.h>

#include "backends/riscv-trace/rvt_decode.h"
#include "backends/riscv-trace/rvt_record.h"

static void print_msg(const struct rvt_msg *m, const struct rvt_opts *o,
		      uint64_t *ref, FILE *out)
{
	fprintf(out, "  %08" PRIx64 ": %s TCODE[6]=%u", m->offset,
		rvt_tcode_name(m->tcode), m->tcode);
	for (unsigned i = 0; i < m->nfields; i++) {
		enum rvt_field f = (enum rvt_field)m->order[i];
		fprintf(out, " %s[%u]=0x%" PRIx64, rvt_field_name(f), m->bits[f],
			m->v[f]);
	}
	if (rvt_msg_has(m, RVT_F_FADDR))
		*ref = rvt_addr_field(m->v[RVT_F_FADDR], m->bits[RVT_F_FADDR], o);
	else if (rvt_msg_has(m, RVT_F_UADDR))
		*ref ^= rvt_addr_field(m->v[RVT_F_UADDR], m->bits[RVT_F_UADDR], o);
	if (rvt_msg_has(m, RVT_F_FADDR) || rvt_msg_has(m, RVT_F_UADDR))
		fprintf(out, " -> 0x%" PRIx64, *ref);
	if (!m->known)
		fprintf(out, " (%" PRIu32 " bytes, fields not known)", m->size);
	fputc('\n', out);
}

int rvt_packets(const struct hwt_decode_params *params,
		const struct hwt_aux_chunk *c, FILE *out)
{
	struct rvt_opts o;
	struct rvt_msg m;
	uint64_t ref = 0;
	size_t used;
	const char *why = NULL;
	int err = rvt_params_opts(params, &o);

	if (err < 0)
		return err;
	fprintf(out, ". ... RISC-V N-Trace data: size %" PRIu64 " bytes\n",
		c->size);
	for (uint64_t i = 0; i < c->size; i += used) {
		uint64_t at = c->offset + i;
		switch (rvt_msg_next(c->data + i, (size_t)(c->size - i), at, &o,
				     &m, &used, &why)) {
		case RVT_FRAME_MSG:
			print_msg(&m, &o, &ref, out);
			break;
		case RVT_FRAME_IDLE:
			fprintf(out, "  %08" PRIx64 ": idle (%zu bytes)\n", at, used);
			break;
		case RVT_FRAME_BAD:
			fprintf(out, "  %08" PRIx64 ": bad message (%zu bytes): "
				"%s\n", at, used, why);
			break;
		case RVT_FRAME_SHORT:
			if (params->info &&
			    rvt_perf_padding(c->data + i, (size_t)(c->size - i),
					     c->offset + c->size)) {
				fprintf(out, "  %08" PRIx64 ": perf's AUXTRACE "
					"padding (%" PRIu64 " zero bytes)\n", at,
					c->size - i);
				used = (size_t)(c->size - i);
				break;
			}
			fprintf(out, "  %08" PRIx64 ": partial message (%" PRIu64
				" bytes)\n", at, c->size - i);
			return 0;
		}
	}
	return 0;
}
