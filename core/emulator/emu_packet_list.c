/* Where each packet of a stream starts, and which packets carry only
 * time, from the records of the backend's packets op (what `decode
 * --packets` lists), for the emulator's probes in a trace that does not
 * name its branches (emu_decoded_calls.c). */
#include <stdlib.h>
#include <string.h>

#include "core/emulator/emu_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/listing.h"

/* The kinds of packets that carry only time (Intel PT's; a
 * backend whose names differ has none). */
static bool timing_name(const char *name)
{
	static const char *const names[] = {"pad", "tsc", "mtc", "cyc",
					    "tma", "cbr"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

struct packet_list {
	uint64_t len;
	struct emu_packet *v;
	size_t n, cap;
};

/* The sink: a packet of the stream kept, notes and AUX buffers not. */
static int keep_packet(void *arg, const struct hwt_packet_rec *rec)
{
	struct packet_list *l = arg;

	if (rec->type != HWT_PACKET_REC_PACKET || !rec->has_offset ||
	    !rec->kind || rec->offset >= l->len)
		return 0;
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 256;
		struct emu_packet *v = realloc(l->v, ncap * sizeof(*v));
		if (!v)
			return HWT_ERR_NOMEM;
		l->v = v;
		l->cap = ncap;
	}
	l->v[l->n++] = (struct emu_packet){rec->offset, timing_name(rec->kind)};
	return 0;
}

int hwt_emu_packet_list(const struct hwt_decoder_ops *ops,
			const struct hwt_decode_params *params,
			const uint8_t *bytes, uint64_t len, int cpu,
			struct emu_packet **out, size_t *n)
{
	struct packet_list list = {.len = len};
	struct hwt_packet_sink sink = {keep_packet, &list};
	struct hwt_aux_chunk chunk;
	int err;

	*out = NULL;
	*n = 0;
	if (!ops->packets)
		return HWT_ERR_NOSUP;
	memset(&chunk, 0, sizeof(chunk));
	chunk.data = bytes;
	chunk.size = len;
	chunk.cpu = cpu;
	chunk.tid = -1;
	err = ops->packets(params, &chunk, &sink);
	if (err < 0) {
		free(list.v);
		return err;
	}
	*out = list.v;
	*n = list.n;
	return 0;
}

size_t hwt_emu_packet_at(const struct emu_packet *p, size_t n, uint64_t at)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].start <= at)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
