/* hwtrace decode's element counts and its summary (decode_counts.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode_counts.h"

int count_emit(void *arg, const struct hwt_elem *e)
{
	struct counts *c = arg;
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
	if (c->written_total && !(c->elems & 0xffff))
		cli_progress_written(c->progress, c->elems - c->written_base,
				     c->written_total);
	return c->next.emit(c->next.arg, e);
}

void counts_add(struct counts *total, struct counts *part)
{
	total->elems += part->elems;
	total->ranges += part->ranges;
	total->insns += part->insns;
	total->branches += part->branches;
	total->branches_no_from += part->branches_no_from;
	total->errors += part->errors;
	total->gaps += part->gaps;
	total->samples += part->samples;
	total->sample_branches += part->sample_branches;
	total->samples_nosync += part->samples_nosync;
	for (size_t r = 0; r <= HWT_GAP_NO_IMAGE; r++)
		total->gap_by[r] += part->gap_by[r];
	total->gap_bytes += part->gap_bytes;
	if (total->written_total)
		cli_progress_written(total->progress,
				     total->elems - total->written_base,
				     total->written_total);
	struct hwt_elem_sink next = part->next;
	memset(part, 0, sizeof(*part));
	part->next = next;
}

/* The summary line of hwtrace decode, on standard error. */
void counts_print(const struct counts *c)
{
	fprintf(stderr,
		"hwtrace decode: %" PRIu64 " ranges (%" PRIu64 " instructions), %"
		PRIu64 " branches", c->ranges, c->insns, c->branches);
	if (c->branches_no_from)
		fprintf(stderr, " (%" PRIu64 " without their source, read "
			"from the packets where the code was missing)",
			c->branches_no_from);
	fprintf(stderr, ", %" PRIu64 " errors, %" PRIu64 " gaps", c->errors,
		c->gaps);
	if (c->gaps) {
		const char *sep = " (";
		for (int r = 0; r <= HWT_GAP_NO_IMAGE; r++) {
			if (!c->gap_by[r])
				continue;
			fprintf(stderr, "%s%" PRIu64 " %s", sep, c->gap_by[r],
				hwt_gap_reason_name((enum hwt_gap_reason)r));
			sep = ", ";
		}
		fprintf(stderr, "; %" PRIu64 " bytes of trace skipped)",
			c->gap_bytes);
	}
	if (c->samples)
		fprintf(stderr, "; %" PRIu64 " AUX samples (%" PRIu64 " branches; %"
			PRIu64 " without a sync point)", c->samples,
			c->sample_branches, c->samples_nosync);
	fputc('\n', stderr);
}
