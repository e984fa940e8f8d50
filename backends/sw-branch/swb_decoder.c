/* sw_branch writes Intel BTS records, so its captures decode with the
 * intel_bts decoder. A backend may not call another backend's symbols, so
 * these ops find that decoder through the backend table (the route an
 * out-of-tree backend has too) and pass every call on to it. */
#include <stdlib.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"

struct swb_decoder {
	const struct hwt_decoder_ops *ops; /* intel_bts's */
	void *priv;
};

static int bts_ops(const struct hwt_decoder_ops **ops)
{
	const struct hwt_backend *b = hwt_backend_find("intel_bts");
	if (!b || !b->decoder || !b->decoder->create || !b->decoder->feed)
		return hwt_error(HWT_ERR_NOSUP, "sw_branch captures are decoded "
				 "by the intel_bts decoder, which this build "
				 "does not have");
	*ops = b->decoder;
	return 0;
}

static int swb_create(const struct hwt_decode_params *params, void **priv)
{
	struct swb_decoder *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the sw_branch "
				 "decoder");
	int err = bts_ops(&d->ops);
	if (err >= 0)
		err = d->ops->create(params, &d->priv);
	if (err < 0) {
		free(d);
		return err;
	}
	*priv = d;
	return 0;
}

static int swb_feed(void *priv, const struct hwt_aux_chunk *chunk)
{
	struct swb_decoder *d = priv;
	return d->ops->feed(d->priv, chunk);
}

static int swb_flush(void *priv)
{
	struct swb_decoder *d = priv;
	return d->ops->flush ? d->ops->flush(d->priv) : 0;
}

static void swb_reset(void *priv)
{
	struct swb_decoder *d = priv;
	if (d->ops->reset)
		d->ops->reset(d->priv);
}

static void swb_destroy(void *priv)
{
	struct swb_decoder *d = priv;
	if (d->ops->destroy)
		d->ops->destroy(d->priv);
	free(d);
}

/* The intel_bts lister's records, named as this backend's. */
static int swb_packet(void *arg, const struct hwt_packet_rec *rec)
{
	const struct hwt_packet_sink *next = arg;
	struct hwt_packet_rec own = *rec;

	own.backend = "sw_branch";
	return next->packet(next->arg, &own);
}

static int swb_packets(const struct hwt_decode_params *params,
		       const struct hwt_aux_chunk *chunk,
		       const struct hwt_packet_sink *sink)
{
	const struct hwt_decoder_ops *ops = NULL;
	int err = bts_ops(&ops);
	if (err < 0)
		return err;
	if (!ops->packets)
		return hwt_error(HWT_ERR_NOSUP, "the intel_bts decoder prints no "
				 "packets");
	struct hwt_packet_sink renamed = {swb_packet, (void *)sink};
	return ops->packets(params, chunk, &renamed);
}

static int swb_split(void *priv, const struct hwt_aux_chunk *chunk,
		     uint64_t *starts, size_t max)
{
	struct swb_decoder *d = priv;
	if (!d->ops->split)
		return hwt_decoder_split_whole(d->priv, chunk, starts, max);
	return d->ops->split(d->priv, chunk, starts, max);
}

const struct hwt_decoder_ops hwt_swb_decoder_ops = {
	.create = swb_create,
	.feed = swb_feed,
	.flush = swb_flush,
	.reset = swb_reset,
	.destroy = swb_destroy,
	.packets = swb_packets,
	.split = swb_split,
	/* sw_branch steps x86-64 programs only. */
	.code_isa = hwt_decoder_code_isa_x86_64,
};
