/* A capture decoded and merged by time into its consumer
 * (hwt_decode_merged, hwtrace/decode.h): through lanes that format the
 * read-back's slices at once where the consumer is the printer alone
 * (decode_lanes.h), else beside the read-back (merge_piped.h). */
#include <stdbool.h>

#include "analysis/decode_run/decode_lanes.h"
#include "analysis/decode_run/merge_piped.h"
#include "analysis/util/merge_hint.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

/* How often the write-back reports its progress: every 65,536
 * elements, as cheap to test as a mask. */
#define WRITTEN_EVERY_MASK 0xffffu

struct run_state {
	const struct hwt_decode_merged *run;
	struct hwt_decode_counts counts;
	struct hwt_elem_sink next;   /* the consumer */
	/* While the merge writes its elements: the count when it started
	 * and the number it writes (0: no progress to report). */
	uint64_t written_base, written_total;
};

static void report_written(struct run_state *s)
{
	if (s->written_total && s->run->written)
		s->run->written(s->run->written_arg,
				s->counts.elems - s->written_base,
				s->written_total);
}

static int count_emit(void *arg, const struct hwt_elem *e)
{
	struct run_state *s = arg;
	hwt_decode_count(&s->counts, e);
	if (!(s->counts.elems & WRITTEN_EVERY_MASK))
		report_written(s);
	return s->next.emit(s->next.arg, e);
}

static void add_counts(void *arg, const struct hwt_decode_counts *slice)
{
	struct run_state *s = arg;
	struct hwt_decode_counts *t = &s->counts;
	t->elems += slice->elems;
	t->ranges += slice->ranges;
	t->insns += slice->insns;
	t->branches += slice->branches;
	t->branches_no_from += slice->branches_no_from;
	t->errors += slice->errors;
	t->gaps += slice->gaps;
	t->samples += slice->samples;
	t->sample_branches += slice->sample_branches;
	t->samples_nosync += slice->samples_nosync;
	for (size_t r = 0; r <= HWT_GAP_NO_IMAGE; r++)
		t->gap_by[r] += slice->gap_by[r];
	t->gap_bytes += slice->gap_bytes;
	report_written(s);
}

/* The merge's read-back: in slices, each formatted by the lane that
 * read it, where the merge can cut its records by time; else beside the
 * consumer. */
static int finish(struct run_state *s, struct merge_piped *m)
{
	const struct hwt_decode_merged *run = s->run;
	unsigned int jobs = run->opts->jobs;
	if (!run->output || jobs < 2 || hwt_merge_slices(m->merge, jobs) < 2)
		return merge_piped_finish(m);
	/* What went straight out (hwt_merge_expect_streams) comes first. */
	int err = hwt_output_flush(run->output);
	if (err < 0)
		return err;
	struct decode_lanes_config c = {
		.out = run->out,
		.format = run->format,
		.annotator = run->annotator,
		.lanes = jobs,
		.add_counts = add_counts,
		.add_counts_arg = s,
	};
	return decode_lanes_finish(m->merge, &c);
}

int hwt_decode_merged(const struct hwt_decode_merged *run,
		      struct hwt_decode_merged_result *result)
{
	*result = (struct hwt_decode_merged_result){.timed = false};
	if (!run || run->size < sizeof(*run) || !run->file || !run->opts ||
	    !run->consumer.emit || (run->output && !run->out))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_merged: no capture, "
				 "options or consumer");
	struct run_state s = {.run = run, .next = run->consumer};
	struct hwt_elem_sink counted = {count_emit, &s};
	struct merge_piped m;
	int err = merge_piped_new(&m, &counted, run->opts->jobs);
	if (err)
		return err;
	struct hwt_elem_sink into = hwt_merge_sink(m.merge);
	struct merge_hint hint = {m.merge, run->opts};
	struct hwt_decode_opts opts = *run->opts;
	opts.progress = merge_hint_progress;
	opts.progress_arg = &hint;
	err = hwt_decode_file(run->file, &opts, &into);
	struct hwt_merge_stats before;
	hwt_merge_get_stats(m.merge, &before);
	s.written_base = s.counts.elems;
	/* What went straight out is not written again. */
	s.written_total = before.elements - s.counts.elems;
	if (run->written)
		run->written(run->written_arg, 0, s.written_total);
	/* A decode that failed part way still writes what came before. */
	int ferr = finish(&s, &m);
	if (!err)
		err = ferr;
	struct hwt_merge_stats st;
	hwt_merge_get_stats(m.merge, &st);
	merge_piped_free(&m);
	result->counts = s.counts;
	result->streams = st.streams;
	result->timed = st.timed != 0;
	return err;
}
