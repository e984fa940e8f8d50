/* Where each packet of a stream starts, and which packets carry only
 * time, from the backend's packets op (the `decode --packets` listing:
 * "OFFSET NAME ..." lines, '#' lines are headers), for the emulator's
 * probes in a trace that does not name its branches
 * (emu_decoded_calls.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emulator/emu_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"

/* The listing's names of packets that carry only time (Intel PT's; a
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

static int parse(FILE *in, uint64_t len, struct emu_packet **out, size_t *n)
{
	char line[512], name[64];
	size_t cap = 0;
	uint64_t off;

	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%" SCNx64 " %63s", &off, name) != 2 || off >= len)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct emu_packet *v = realloc(*out, ncap * sizeof(*v));
			if (!v)
				return HWT_ERR_NOMEM;
			*out = v;
			cap = ncap;
		}
		(*out)[(*n)++] = (struct emu_packet){off, timing_name(name)};
	}
	return 0;
}

int hwt_emu_packet_list(const struct hwt_decoder_ops *ops,
			const struct hwt_decode_params *params,
			const uint8_t *bytes, uint64_t len, int cpu,
			struct emu_packet **out, size_t *n)
{
	struct hwt_aux_chunk chunk;
	char *text = NULL;
	size_t size = 0;
	int err;

	*out = NULL;
	*n = 0;
	if (!ops->packets)
		return HWT_ERR_NOSUP;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return HWT_ERR_NOMEM;
	memset(&chunk, 0, sizeof(chunk));
	chunk.data = bytes;
	chunk.size = len;
	chunk.cpu = cpu;
	chunk.tid = -1;
	err = ops->packets(params, &chunk, f);
	if (fclose(f) || !text)
		err = err < 0 ? err : HWT_ERR_NOMEM;
	FILE *in = err < 0 ? NULL : fmemopen(text, size ? size : 1, "r");
	if (in) {
		err = parse(in, len, out, n);
		fclose(in);
	} else if (err >= 0) {
		err = HWT_ERR_NOMEM;
	}
	free(text);
	return err < 0 ? err : 0;
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
