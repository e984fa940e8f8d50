/* Virtual LBR: an AUX sample handed out as the branch-stack records a
 * branch-record (LBR) sample gives. The window decoder found every taken
 * branch the sample's trace holds, newest first; the newest N of them are
 * the sample's stack, depth 0 the newest, as the hardware's LBR would
 * have held them, and go out through the same stack emitter as LBR
 * samples (brstack_emit.c): BRANCH elements with the sample's period as
 * weight, and the straight ranges between them. */
#include <string.h>

#include "core/decode/sample_internal.h"

/* Branch @i of the window's stack; its kind is the decoder's. */
static void window_get(const void *arg, uint64_t i, struct hwt_brstack_rec *out)
{
	const struct hwt_branch_entry *br = arg;
	memset(out, 0, sizeof(*out));
	out->e.from = br[i].from;
	out->e.to = br[i].to;
	out->has_kind = true;
	out->kind = br[i].kind;
}

int hwt_sample_vlbr_emit(struct hwt_sample_vlbr *vl,
			 const struct hwt_aux_sample *s,
			 const struct hwt_window_result *res,
			 const struct hwt_elem_sink *out)
{
	struct hwt_elem head;
	hwt_brstack_head(s, &head);
	size_t nr = res->nbranches < vl->n ? res->nbranches : vl->n;
	vl->samples++;
	if (nr < vl->n)
		vl->short_stacks++;
	if (!nr) {
		vl->empty++;
		return 0;
	}
	struct hwt_brstack_stack stack = {
		.head = &head,
		.weight = s->present & PERF_SAMPLE_PERIOD ? s->period : 0,
		/* Trace has every taken branch: code between two of them
		 * ran straight. */
		.every = true,
		.nr = nr,
		.get = window_get,
		.arg = res->branches,
	};
	return hwt_brstack_emit_stack(vl->code, &stack, out, &vl->br);
}
