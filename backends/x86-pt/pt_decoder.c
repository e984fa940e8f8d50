/* The intel_pt decoding half: libipt's block decoder. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"

#ifdef HWT_HAVE_LIBIPT
#include "backends/x86-pt/pt_decode.h"

/* Whether the fast path decodes (pt_fast.c): HWTRACE_PT_FAST=0 turns it
 * off, to compare with libipt's block decoder alone. */
static int fast_wanted(bool *on)
{
	const char *env = getenv("HWTRACE_PT_FAST");
	if (!env) {
		*on = pt_fast_default != 0;
		return 0;
	}
	if (strcmp(env, "0") && strcmp(env, "1"))
		return hwt_error(HWT_ERR_CONFIG, "HWTRACE_PT_FAST is '%s': it "
				 "must be 1 (the fast Intel PT decoder, the "
				 "default) or 0 (libipt's block decoder alone)",
				 env);
	*on = env[0] == '1';
	return 0;
}

/* Makes @d's caches for a decode: the image adapter, the block shapes
 * and the fast path's blocks, which are keyed by its section ids and
 * images. */
static int make_caches(struct pt_dec *d)
{
	bool fast = false;
	int err = fast_wanted(&fast);
	if (err < 0)
		return err;
	d->shapes = pt_shapes_new();
	d->fast = fast ? pt_fast_new() : NULL;
	if (!d->shapes || (fast && !d->fast))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a PT decoder");
	return pt_image_adapter_new(d->params.image, d->params.sandboxed,
				    &d->ad);
}

static void pt_destroy(void *priv)
{
	struct pt_dec *d = priv;
	if (!d)
		return;
	pt_shapes_free(d->shapes);
	pt_fast_free(d->fast);
	pt_image_adapter_free(d->ad);
	pt_insn_len_free(d->il);
	pt_edges_free(d->edges);
	free(d);
}

static int pt_create(const struct hwt_decode_params *params, void **priv)
{
	if (!params || !params->sink)
		return hwt_error(HWT_ERR_INVAL, "intel_pt decoder: no sink");
	if (params->info && params->info_words < PT_INFO_WORDS_MIN)
		return hwt_error(HWT_ERR_FORMAT,
				 "intel_pt AUXTRACE_INFO has %zu words, fewer than "
				 "the %d perf writes: is the file cut short?",
				 params->info_words, (int)PT_INFO_WORDS_MIN);
	struct pt_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a PT decoder");
	memcpy(&d->params, params,
	       params->size < sizeof(d->params) ? params->size : sizeof(d->params));
	d->params.size = sizeof(d->params);
	int err = pt_config_setup(&d->config, &d->tc, &d->params);
	if (err < 0) {
		free(d);
		return err;
	}
	/* Code that changes over time: stop at every time update (tick
	 * events), so that the next block is read from the code of then. */
	d->timed_image = params->image && hwt_image_changes(params->image);
	if (d->timed_image)
		d->config.flags.variant.block.enable_tick_events = 1;
	err = make_caches(d);
	if (err < 0) {
		pt_destroy(d);
		return err;
	}
	*priv = d;
	return 0;
}

/* libipt's block caches stay warm from one chunk to the next: where a
 * warm one ends a block where a fresh one would not, the ranges join
 * (emit_range), so a chunk decodes the same whatever was decoded before
 * it, in this instance or another (--jobs, --cpu). */
static int pt_feed(void *priv, const struct hwt_aux_chunk *chunk)
{
	struct pt_dec *d = priv;
	if (pt_image_adapter_refresh(d->ad)) {
		pt_shapes_clear(d->shapes);
		if (d->fast)
			pt_fast_clear(d->fast);
	}
	return pt_dec_chunk(d, chunk);
}

static void pt_reset(void *priv)
{
	struct pt_dec *d = priv;
	d->pend = false;
}

/* split: every chunk starts a libipt decoder of its own that
 * synchronises at its first PSB, and pt_dec_chunk starts from a clean
 * state: a chunk decodes the same in any instance. Cut further at PSBs
 * where that holds for the segments too (pt_split.c). */
const struct hwt_decoder_ops hwt_pt_decoder_ops = {
	.create = pt_create,
	.feed = pt_feed,
	.reset = pt_reset,
	.destroy = pt_destroy,
	.packets = pt_packets_dump,
	.edges = pt_edges_chunk,
	.split = pt_split,
	.code_isa = hwt_decoder_code_isa_x86_64,
};
#endif
