/* A decode's edge map as lines, a bitmap or a partial result, and its
 * summary line (hwtrace/decode_edges.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/decode_edges.h"
#include "hwtrace/edges.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"

static int write_partial(const struct hwt_edges *edges, FILE *out)
{
	struct hwt_partial *p;
	int err = hwt_partial_from_edges(edges, &p);
	if (!err)
		err = hwt_partial_write(p, out);
	hwt_partial_free(p);
	return err;
}

static int write_bitmap(const struct hwt_edges *edges,
			const struct hwt_decode_edges_out *o)
{
	uint8_t *map = malloc(o->bitmap);
	if (!map)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a %" PRIu64
				 "-byte bitmap", o->bitmap);
	int err = hwt_edges_bitmap(edges, map, o->bitmap);
	if (err >= 0 && fwrite(map, 1, o->bitmap, o->out) != o->bitmap)
		err = hwt_error(HWT_ERR_IO, "writing %s: %s", o->out_name ?
				o->out_name : "standard output",
				strerror(errno));
	free(map);
	return err;
}

int hwt_decode_edges_write(const struct hwt_edges *edges,
			   const struct hwt_decode_edges_out *o)
{
	if (!edges || !o || o->size < sizeof(*o) || !o->out)
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_edges_write: no "
				 "edges, or options without their size or "
				 "output");
	if (o->partial)
		return write_partial(edges, o->out);
	if (o->bitmap)
		return write_bitmap(edges, o);
	return hwt_edges_write(edges, o->out, o->format);
}

void hwt_decode_edges_summary_print(FILE *f, const char *prefix,
				    struct hwt_edges *edges)
{
	const struct hwt_edges_stats *st = hwt_edges_stats(edges);
	fprintf(f, "%s%zu edges (%" PRIu64 " taken branches), %" PRIu64
		" overflows, %" PRIu64 " errors, %" PRIu64 " other gaps",
		prefix, hwt_edges_size(edges), hwt_edges_total(edges),
		st->overflows, st->errors, st->gaps);
	/* Only a backend with an edges op leaves chunks to the decoder. */
	if (st->fallbacks)
		fprintf(f, "; %" PRIu64 " chunks decoded (in part) by the "
			"element decoder", st->fallbacks);
	fputc('\n', f);
}
