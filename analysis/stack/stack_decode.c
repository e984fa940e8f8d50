/* A capture decoded in time order into call stacks (hwt_stack_decode,
 * hwtrace/stack.h): the decode into the merge, the merge into the
 * stacks, with the caller's element sinks before and after them (and
 * the filters of its lists in front of those and of its frames). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analysis/stack/stack_filters.h"
#include "analysis/util/merge_hint.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"

/* Two sinks, one after the other. */
struct tee {
	const struct hwt_elem_sink *first;
	struct hwt_elem_sink second;
};

static int tee_emit(void *arg, const struct hwt_elem *e)
{
	struct tee *t = arg;
	int err = t->first->emit(t->first->arg, e);
	return err ? err : t->second.emit(t->second.arg, e);
}

/* A decoder's warning (the trace decodes less well than it could) is no
 * lost trace: with no warn callback of the caller's it would come as an
 * error element with no CPU, thread or time, and the stacks would end
 * every open frame at it, wherever the merge placed it (first when the
 * merge keeps elements to order, last when it passes one stream straight
 * on). It goes to the caller's element sinks alone. */
struct warn_route {
	const struct hwt_elem_sink *elements, *after;
	int err; /* the first a sink returned */
};

static void warn_to_sinks(void *arg, const char *message)
{
	struct warn_route *w = arg;
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_ERROR);
	e.u.error.message = message;
	int err = w->elements ? w->elements->emit(w->elements->arg, &e) : 0;
	if (!err && w->after)
		err = w->after->emit(w->after->arg, &e);
	if (err && !w->err)
		w->err = err;
}

static int decode_into(const struct hwt_stack_decode *run,
		       const struct hwt_decode_opts *opts,
		       const struct hwt_elem_sink *sink)
{
	if (run->decode)
		return run->decode(run->decode_arg, opts, sink);
	if (run->unit)
		return hwt_capture_decode_unit(run->file, run->unit, opts, sink);
	return hwt_decode_file(run->file, opts, sink);
}

int hwt_stack_decode(const struct hwt_stack_decode *given,
		     struct hwt_stack_decode_result *result)
{
	*result = (struct hwt_stack_decode_result){.merged = false};
	/* A caller built before the filter lists came passes a shorter
	 * struct: no filters. */
	struct hwt_stack_decode full;
	memset(&full, 0, sizeof(full));
	if (given && given->size >= offsetof(struct hwt_stack_decode, comms))
		memcpy(&full, given, given->size < sizeof(full) ? given->size
								: sizeof(full));
	const struct hwt_stack_decode *run = &full;
	if (!given || given->size < offsetof(struct hwt_stack_decode, comms) ||
	    !run->opts || (!run->file && !run->decode))
		return hwt_error(HWT_ERR_INVAL, "hwt_stack_decode: no capture "
				 "or options");
	if (run->unit && (run->decode || !run->file))
		return hwt_error(HWT_ERR_INVAL, "hwt_stack_decode: a unit is "
				 "of a capture file, not of a decode callback");
	struct hwt_stack_ops ops = run->ops;
	if (run->namer)
		hwt_stack_use_namer(&ops, run->namer);
	const struct hwt_elem_sink *elements = run->elements;
	const struct hwt_elem_sink *after_sink = run->after;
	struct stack_filters filters;
	int err = stack_filters_start(run, &filters, &ops, &elements,
				      &after_sink);
	struct hwt_stack *stack = err ? NULL : hwt_stack_new(&ops);
	if (!stack) {
		stack_filters_end(&filters);
		return err ? err : hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	struct hwt_elem_sink stack_alone = hwt_stack_sink(stack);
	struct tee after = {&stack_alone, after_sink ? *after_sink : stack_alone};
	struct hwt_elem_sink stack_then = {tee_emit, &after};
	struct hwt_elem_sink into_stack = after_sink ? stack_then : stack_alone;
	struct tee tee = {elements, into_stack};
	struct hwt_elem_sink teed = {tee_emit, &tee};
	const struct hwt_elem_sink *consumer = elements ? &teed : &into_stack;
	/* No pipe in front of the stacks (hwtrace/pipe.h): building them
	 * costs less than handing their elements to another thread. */
	struct hwt_merge *merge = NULL;
	err = run->per_cpu ? 0 : hwt_merge_new(consumer, &merge);
	struct hwt_decode_opts opts = *run->opts;
	struct warn_route warns = {elements, after_sink, 0};
	if (!opts.warn) {
		opts.warn = warn_to_sinks;
		opts.warn_arg = &warns;
	}
	if (!err && merge) {
		struct hwt_elem_sink into_merge = hwt_merge_sink(merge);
		struct merge_hint hint = {merge, run->opts};
		opts.progress = merge_hint_progress;
		opts.progress_arg = &hint;
		err = decode_into(run, &opts, &into_merge);
	} else if (!err) {
		err = decode_into(run, &opts, consumer);
	}
	if (!err)
		err = warns.err;
	/* A decode that failed part way still ends with what came before:
	 * its first error is the one returned. */
	int ferr = merge ? hwt_merge_finish(merge) : 0;
	if (!err)
		err = ferr;
	ferr = hwt_stack_finish(stack);
	if (!err)
		err = ferr;
	hwt_stack_get_stats(stack, &result->stack);
	if (merge) {
		hwt_merge_get_stats(merge, &result->merge);
		result->merged = result->merge.timed != 0;
	}
	hwt_merge_free(merge);
	hwt_stack_free(stack);
	stack_filters_end(&filters);
	return err;
}

void hwt_stack_decode_print_summary(FILE *out, const char *prefix,
				    const struct hwt_stack_decode_result *result,
				    bool per_cpu)
{
	const struct hwt_stack_stats *s = &result->stack;
	if (!per_cpu && result->merge.streams > 1 && !result->merged)
		fprintf(out,
			"%sthe capture has no timestamps: its %" PRIu64
			" streams are in stream order, not merged by time\n",
			prefix, result->merge.streams);
	fprintf(out,
		"%s%" PRIu64 " calls (%" PRIu64 " call instructions, %"
		PRIu64 " tail calls, %" PRIu64 " traps), %" PRIu64 " returns in %"
		PRIu64 " threads (max depth %" PRIu64 "); %" PRIu64
		" inferred callers, %" PRIu64 " frames without return, %" PRIu64
		" unmatched returns, %" PRIu64 " frames ended by lost trace, %"
		PRIu64 " where tracing stopped",
		prefix, s->entered, s->calls, s->tail_calls, s->traps, s->returns,
		s->threads, s->max_depth, s->inferred, s->no_return,
		s->unmatched_returns, s->cut_by_gap, s->cut_by_trace_off);
	if (s->time_backwards)
		fprintf(out, "; %" PRIu64 " elements older than the one "
			"before them in their thread (times clamped)",
			s->time_backwards);
	fputc('\n', out);
}
