/* The capture sink that writes a perf.data file: what hwtrace record and
 * the software branch tracer hand their capture sessions. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/session.h"

struct hwt_writer_sink {
	struct hwt_pd_writer *w;
	bool join;
	uint8_t *bounce;
	size_t bounce_len;
};

static int sink_record(void *ctx, const struct perf_event_header *h)
{
	return hwt_pd_writer_record(((struct hwt_writer_sink *)ctx)->w, h);
}

static int joined(struct hwt_writer_sink *ws, const struct hwt_pd_auxtrace *hdr,
		  const void *d1, uint64_t l1, const void *d2)
{
	if (ws->bounce_len < hdr->size) {
		uint8_t *n = realloc(ws->bounce, hdr->size);
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "no memory for AUX data");
		ws->bounce = n;
		ws->bounce_len = hdr->size;
	}
	memcpy(ws->bounce, d1, l1);
	memcpy(ws->bounce + l1, d2, hdr->size - l1);
	return hwt_pd_writer_auxtrace(ws->w, hdr, ws->bounce);
}

/* A read that wrapped the ring is written as two AUXTRACE records with
 * consecutive offsets, straight from the ring. The first span ends on the
 * ring's end and starts on an 8-byte boundary (the session consumes whole
 * words), so it needs no padding and the stream stays contiguous. */
static int sink_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		    const void *d1, uint64_t l1, const void *d2)
{
	struct hwt_writer_sink *ws = ctx;
	struct hwt_pd_auxtrace second = *hdr;
	struct hwt_pd_auxtrace first = *hdr;
	int err;

	if (!d2)
		return hwt_pd_writer_auxtrace(ws->w, hdr, d1);
	/* Not expected unjoined; keep the stream exact with one copy. */
	if (ws->join || l1 % 8)
		return joined(ws, hdr, d1, l1, d2);
	first.size = l1;
	second.size = hdr->size - l1;
	second.offset = hdr->offset + l1;
	err = hwt_pd_writer_auxtrace(ws->w, &first, d1);
	return err < 0 ? err : hwt_pd_writer_auxtrace(ws->w, &second, d2);
}

int hwt_writer_sink_new(struct hwt_pd_writer *w, bool join_wrapped,
			struct hwt_writer_sink **out)
{
	struct hwt_writer_sink *ws;

	if (!w || !out)
		return hwt_error(HWT_ERR_INVAL, "writer sink needs a writer");
	ws = calloc(1, sizeof(*ws));
	if (!ws)
		return hwt_error(HWT_ERR_NOMEM, "no memory for a writer sink");
	ws->w = w;
	ws->join = join_wrapped;
	*out = ws;
	return 0;
}

struct hwt_capture_sink hwt_writer_sink_get(struct hwt_writer_sink *ws)
{
	return (struct hwt_capture_sink){ws, sink_record, sink_aux};
}

void hwt_writer_sink_free(struct hwt_writer_sink *ws)
{
	if (!ws)
		return;
	free(ws->bounce);
	free(ws);
}
