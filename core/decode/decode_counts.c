/* A decode's element counts and their summary line (hwtrace/decode.h). */
#include <inttypes.h>
#include <stdio.h>

#include "hwtrace/decode.h"

void hwt_decode_count(struct hwt_decode_counts *c, const struct hwt_elem *e)
{
	c->elems++;
	if (e->type == HWT_ELEM_RANGE) {
		c->ranges++;
		c->insns += e->u.range.insns;
	} else if (e->type == HWT_ELEM_BRANCH) {
		c->branches++;
		c->branches_no_from += !!(e->fields & HWT_FIELD_NO_FROM);
	} else if (e->type == HWT_ELEM_SAMPLE) {
		c->samples++;
		c->sample_branches += e->u.sample.nbranches;
		c->samples_nosync += e->u.sample.sync >= e->u.sample.window;
	} else if (e->type == HWT_ELEM_ERROR) {
		c->errors++;
	} else if (e->type == HWT_ELEM_GAP) {
		c->gaps++;
		if ((unsigned)e->u.gap.reason <= HWT_GAP_NO_IMAGE)
			c->gap_by[e->u.gap.reason]++;
		if (e->fields & HWT_FIELD_GAP_BYTES)
			c->gap_bytes += e->u.gap.bytes;
	}
}

static int counter_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_decode_counter *c = arg;
	hwt_decode_count(&c->counts, e);
	return c->next.emit(c->next.arg, e);
}

struct hwt_elem_sink hwt_decode_counter_sink(struct hwt_decode_counter *c)
{
	struct hwt_elem_sink sink = {counter_emit, c};
	return sink;
}

void hwt_decode_counts_print(FILE *out, const char *prefix,
			     const struct hwt_decode_counts *c)
{
	fprintf(out, "%s%" PRIu64 " ranges (%" PRIu64 " instructions), %"
		PRIu64 " branches", prefix, c->ranges, c->insns, c->branches);
	if (c->branches_no_from)
		fprintf(out, " (%" PRIu64 " without their source, read "
			"from the packets where the code was missing)",
			c->branches_no_from);
	fprintf(out, ", %" PRIu64 " errors, %" PRIu64 " gaps", c->errors,
		c->gaps);
	if (c->gaps) {
		const char *sep = " (";
		for (int r = 0; r <= HWT_GAP_NO_IMAGE; r++) {
			if (!c->gap_by[r])
				continue;
			fprintf(out, "%s%" PRIu64 " %s", sep, c->gap_by[r],
				hwt_gap_reason_name((enum hwt_gap_reason)r));
			sep = ", ";
		}
		fprintf(out, "; %" PRIu64 " bytes of trace skipped)",
			c->gap_bytes);
	}
	if (c->samples)
		fprintf(out, "; %" PRIu64 " AUX samples (%" PRIu64 " branches; %"
			PRIu64 " without a sync point)", c->samples,
			c->sample_branches, c->samples_nosync);
	fputc('\n', out);
}
