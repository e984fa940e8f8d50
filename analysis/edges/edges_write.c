/* The edge map written out: text, jsonl, or an AFL-style bitmap. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/edges.h"
#include "hwtrace/error.h"

int hwt_edges_write(const struct hwt_edges *edges, FILE *out,
		    enum hwt_output_format format)
{
	struct hwt_edge *v;
	size_t n;
	int err = hwt_edges_sorted(edges, &v, &n);
	if (err < 0)
		return err;
	for (size_t i = 0; i < n; i++) {
		if (format == HWT_OUTPUT_JSONL)
			fprintf(out, "{\"type\":\"edge\",\"from\":\"0x%" PRIx64
				"\",\"to\":\"0x%" PRIx64 "\",\"count\":%" PRIu64
				"}\n", v[i].from, v[i].to, v[i].count);
		else
			fprintf(out, "0x%" PRIx64 "->0x%" PRIx64 " %" PRIu64 "\n",
				v[i].from, v[i].to, v[i].count);
	}
	free(v);
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the edges: %s",
				 strerror(errno));
	return 0;
}

static uint32_t loc(uint64_t a)
{
	return (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 32);
}

size_t hwt_edges_bitmap_slot(uint64_t from, uint64_t to, size_t size)
{
	return (size_t)(loc(to) ^ (loc(from) >> 1)) & (size - 1);
}

int hwt_edges_bitmap(const struct hwt_edges *edges, uint8_t *map, size_t size)
{
	if (!size || (size & (size - 1)))
		return hwt_error(HWT_ERR_INVAL, "a bitmap of %zu bytes: the size "
				 "must be a power of two", size);
	struct hwt_edge *v;
	size_t n;
	int err = hwt_edges_sorted(edges, &v, &n);
	if (err < 0)
		return err;
	memset(map, 0, size);
	for (size_t i = 0; i < n; i++) {
		uint8_t *c = &map[hwt_edges_bitmap_slot(v[i].from, v[i].to, size)];
		uint64_t sum = *c + v[i].count;
		*c = sum > 255 ? 255 : (uint8_t)sum;
	}
	free(v);
	return 0;
}
