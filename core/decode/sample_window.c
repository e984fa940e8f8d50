/* A window of trace decoded alone into a branch stack. One backend decoder
 * instance serves every window (decoders reset their stream state per
 * chunk), so the image caches are built once. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/sample.h"

struct hwt_window_decoder {
	const struct hwt_backend *b;
	void *priv;
	struct hwt_elem_sink self;
	const struct hwt_elem_sink *gaps;
	/* The window being decoded. */
	uint64_t offset, size;
	bool synced, first;
	uint64_t sync_offset, errors;
	/* Oldest first while decoding, reversed at the end. */
	struct hwt_branch_entry *br;
	size_t nbr, cap;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct hwt_window_decoder *wd = arg;
	bool first = wd->first;
	wd->first = false;

	/* A branch stack's records each have a source: a target alone (read
	 * from the packets where code is missing) is none. */
	if (e->type == HWT_ELEM_BRANCH && !(e->fields & HWT_FIELD_NO_FROM)) {
		if (wd->nbr == wd->cap) {
			size_t cap = wd->cap ? wd->cap * 2 : 256;
			void *p = realloc(wd->br, cap * sizeof(*wd->br));
			if (!p)
				return hwt_error(HWT_ERR_NOMEM,
						 "out of memory for a branch stack");
			wd->br = p;
			wd->cap = cap;
		}
		wd->br[wd->nbr].from = e->u.branch.from;
		wd->br[wd->nbr].to = e->u.branch.to;
		wd->br[wd->nbr].kind = e->u.branch.kind;
		wd->nbr++;
		return 0;
	}
	if (e->type != HWT_ELEM_GAP && e->type != HWT_ELEM_ERROR)
		return 0;
	/* The bytes before the first sync point: every window has them. A
	 * no-sync gap covering the whole window means no sync point. */
	if (first && e->type == HWT_ELEM_GAP &&
	    e->u.gap.reason == HWT_GAP_NO_SYNC &&
	    (!(e->fields & HWT_FIELD_OFFSET) || e->trace_offset == wd->offset)) {
		uint64_t bytes = e->fields & HWT_FIELD_GAP_BYTES ? e->u.gap.bytes : 0;
		if (bytes >= wd->size) {
			wd->synced = false;
			wd->sync_offset = wd->size;
			wd->errors++;
			return wd->gaps ? wd->gaps->emit(wd->gaps->arg, e) : 0;
		}
		wd->sync_offset = bytes;
		return 0;
	}
	wd->errors++;
	return wd->gaps ? wd->gaps->emit(wd->gaps->arg, e) : 0;
}

int hwt_window_decoder_new(const struct hwt_backend *backend,
			   const struct hwt_decode_params *params,
			   struct hwt_image *image,
			   const struct hwt_elem_sink *gaps,
			   struct hwt_window_decoder **out)
{
	*out = NULL;
	if (!backend || !backend->decoder || !backend->decoder->create ||
	    !backend->decoder->feed)
		return hwt_error(HWT_ERR_NOSUP, "%s: no decoder for AUX samples%s%s",
				 backend ? backend->name : "(no backend)",
				 backend && backend->no_decoder_reason ? ": " : "",
				 backend && backend->no_decoder_reason
					 ? backend->no_decoder_reason : "");
	struct hwt_window_decoder *wd = calloc(1, sizeof(*wd));
	if (!wd)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a window decoder");
	wd->b = backend;
	wd->gaps = gaps;
	wd->self.emit = collect;
	wd->self.arg = wd;

	struct hwt_decode_params p;
	memset(&p, 0, sizeof(p));
	if (params)
		memcpy(&p, params, params->size < sizeof(p) ? params->size : sizeof(p));
	p.size = sizeof(p);
	p.image = image;
	p.sink = &wd->self;
	p.disasm = false;
	int err = backend->decoder->create(&p, &wd->priv);
	if (err < 0) {
		free(wd);
		return err;
	}
	*out = wd;
	return 0;
}

void hwt_window_decoder_free(struct hwt_window_decoder *wd)
{
	if (!wd)
		return;
	if (wd->priv && wd->b->decoder->destroy)
		wd->b->decoder->destroy(wd->priv);
	free(wd->br);
	free(wd);
}

int hwt_window_decode(struct hwt_window_decoder *wd, const uint8_t *data,
		      uint64_t size, uint64_t offset, int32_t cpu, int32_t tid,
		      struct hwt_window_result *res)
{
	memset(res, 0, sizeof(*res));
	wd->offset = offset;
	wd->size = size;
	wd->synced = size > 0;
	wd->first = true;
	wd->sync_offset = 0;
	wd->errors = 0;
	wd->nbr = 0;

	struct hwt_aux_chunk chunk = {
		.data = data,
		.size = size,
		.offset = offset,
		.cpu = cpu,
		.tid = tid,
	};
	if (wd->b->decoder->reset)
		wd->b->decoder->reset(wd->priv);
	int err = size ? wd->b->decoder->feed(wd->priv, &chunk) : 0;
	if (err >= 0 && wd->b->decoder->flush)
		err = wd->b->decoder->flush(wd->priv);
	if (err < 0)
		return err;
	if (!size)
		wd->sync_offset = 0;
	for (size_t i = 0, j = wd->nbr; i + 1 < j; i++, j--) {
		struct hwt_branch_entry t = wd->br[i];
		wd->br[i] = wd->br[j - 1];
		wd->br[j - 1] = t;
	}
	res->branches = wd->br;
	res->nbranches = wd->nbr;
	res->synced = wd->synced;
	res->sync_offset = wd->synced ? wd->sync_offset : size;
	res->errors = wd->errors;
	return 0;
}
