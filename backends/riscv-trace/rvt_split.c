/* Cutting N-Trace streams at synchronization points (see rvt_split.h). */
#include "backends/riscv-trace/rvt_decode.h"
#include "backends/riscv-trace/rvt_split.h"

size_t rvt_split_bytes = 16384;

int rvt_split(void *priv, const struct hwt_aux_chunk *chunk, uint64_t *starts,
	      size_t max)
{
	struct rvt_dec *d = priv;
	struct rvt_msg m;
	size_t n = 1, used;
	const char *why;
	/* A stream's start is where decoders start unsynchronized. */
	bool after_stop = true;

	starts[0] = 0;
	if (d->o.src_bits)
		return 1;
	for (uint64_t i = 0; i < chunk->size; i += used) {
		enum rvt_frame f = rvt_msg_next(chunk->data + i,
						(size_t)(chunk->size - i),
						chunk->offset + i, &d->o, &m,
						&used, &why);
		if (f == RVT_FRAME_SHORT)
			break;
		if (f == RVT_FRAME_IDLE)
			continue;
		if (f == RVT_FRAME_MSG && m.known) {
			if (m.tcode == RVT_TC_PROG_TRACE_SYNC && after_stop &&
			    i - starts[n - 1] >= rvt_split_bytes && n < max)
				starts[n++] = i;
			after_stop = m.tcode == RVT_TC_PROG_TRACE_CORRELATION ||
				     m.tcode == RVT_TC_ERROR;
		} else {
			after_stop = false;
		}
	}
	return (int)n;
}
