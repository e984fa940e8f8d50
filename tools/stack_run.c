/* The stack commands' run (report, timeline, export, annotate, view):
 * the decode through the rebuilt stacks, with the filters, into the
 * command's writer (stack_run.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"
#include "decode_symbols.h"
#include "stack_run.h"
#include "thread_names.h"
#include "unit_run.h"

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

/* Tells the merge when the decode has one stream (nothing to order, so
 * nothing to keep), then reports as the caller asked. */
struct merge_hint {
	struct hwt_merge *merge;
	const struct hwt_decode_opts *user;
};

static void hint_progress(void *arg, const struct hwt_decode_progress *p)
{
	struct merge_hint *h = arg;
	if (!p->done && h->merge)
		hwt_merge_expect_streams(h->merge, p->streams);
	if (h->user->progress)
		h->user->progress(h->user->progress_arg, p);
}

/* The filters of run->symbols' lists, when it has any: the frames in
 * front of run->ops, the elements in front of run->elements and
 * run->after (the stacks themselves see every element). */
struct run_filters {
	struct hwt_frame_filter *frames;
	struct hwt_elem_filter *elements, *after;
	struct hwt_elem_sink elements_sink, after_sink;
	struct thread_names names;
};

/* An element filter of @lists in front of **@sink (none: nothing to do),
 * *@sink then @filtered. */
static int filter_elements(const struct hwt_elem_filter_opts *lists,
			   const struct hwt_elem_sink **sink,
			   struct hwt_elem_sink *filtered,
			   struct hwt_elem_filter **filter)
{
	if (!*sink)
		return 0;
	struct hwt_elem_filter_opts o = *lists;
	o.next = **sink;
	int err = hwt_elem_filter_new(&o, filter);
	if (!err) {
		*filtered = hwt_elem_filter_sink(*filter);
		*sink = filtered;
	}
	return err;
}

static int start_filters(struct cli_stack_run *run, struct run_filters *f)
{
	const struct decode_symbols *ds = run->symbols;
	if (!ds || (!ds->comms && !ds->dsos && !ds->syms))
		return 0;
	int err = ds->comms ? thread_names_load(&f->names, run->file) : 0;
	if (err < 0)
		return err;
	struct hwt_frame_filter_opts o = {
		.size = sizeof(o),
		.match = {
			.size = sizeof(o.match),
			.comms = ds->comms,
			.dsos = ds->dsos,
			.syms = ds->syms,
			.sym = ds->sym,
			.comm = thread_names_of,
			.comm_arg = &f->names,
		},
		.next = run->ops,
		.dropped = run->dropped,
	};
	err = hwt_frame_filter_new(&o, &f->frames);
	if (!err)
		run->ops = hwt_frame_filter_ops(f->frames);
	if (!err)
		err = filter_elements(&o.match, &run->elements,
				      &f->elements_sink, &f->elements);
	if (!err)
		err = filter_elements(&o.match, &run->after, &f->after_sink,
				      &f->after);
	return err;
}

static int stack_run(struct cli_stack_run *run);

int cli_stack_run(struct cli_stack_run *run)
{
	hwt_stack_use_namer(&run->ops, run->namer);
	struct run_filters f;
	memset(&f, 0, sizeof(f));
	struct cli_stack_run unfiltered = *run;
	int err = start_filters(run, &f);
	if (!err)
		err = stack_run(run);
	run->ops = unfiltered.ops;
	run->elements = unfiltered.elements;
	run->after = unfiltered.after;
	hwt_frame_filter_free(f.frames);
	hwt_elem_filter_free(f.elements);
	hwt_elem_filter_free(f.after);
	thread_names_free(&f.names);
	return err;
}

static int stack_run(struct cli_stack_run *run)
{
	struct hwt_stack *stack = hwt_stack_new(&run->ops);
	if (!stack)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	struct hwt_elem_sink stack_alone = hwt_stack_sink(stack);
	struct tee after = {&stack_alone, run->after ? *run->after : stack_alone};
	struct hwt_elem_sink stack_then = {tee_emit, &after};
	struct hwt_elem_sink into_stack = run->after ? stack_then : stack_alone;
	struct tee tee = {run->elements, into_stack};
	struct hwt_elem_sink teed = {tee_emit, &tee};
	const struct hwt_elem_sink *consumer = run->elements ? &teed
							     : &into_stack;
	/* No pipe in front of the stacks (hwtrace/pipe.h): building them
	 * costs less than handing their elements to another thread. */
	struct hwt_merge *merge = NULL;
	int err = 0;
	if (!run->per_cpu)
		err = hwt_merge_new(consumer, &merge);
	if (!err) {
		struct hwt_elem_sink into_merge;
		struct merge_hint hint = {merge, run->opts};
		struct hwt_decode_opts opts = *run->opts;
		if (merge) {
			into_merge = hwt_merge_sink(merge);
			opts.progress = hint_progress;
			opts.progress_arg = &hint;
		}
		const struct hwt_elem_sink *sink = merge ? &into_merge : consumer;
		err = run->unit ? cli_unit_decode(run->file, run->unit, &opts, sink)
				: hwt_decode_file(run->file, &opts, sink);
	}
	/* A decode that failed part way still ends with what came before:
	 * its first error is the one returned. */
	int ferr = merge ? hwt_merge_finish(merge) : 0;
	if (!err)
		err = ferr;
	ferr = hwt_stack_finish(stack);
	if (!err)
		err = ferr;
	hwt_stack_get_stats(stack, &run->stack_stats);
	if (merge) {
		hwt_merge_get_stats(merge, &run->merge_stats);
		run->merged = run->merge_stats.timed != 0;
	}
	hwt_merge_free(merge);
	hwt_stack_free(stack);
	return err;
}

void cli_stack_run_summary(const struct cli_stack_run *run, const char *cmd)
{
	const struct hwt_stack_stats *s = &run->stack_stats;
	if (!run->per_cpu && run->merge_stats.streams > 1 && !run->merged)
		fprintf(stderr,
			"hwtrace %s: the capture has no timestamps: its %" PRIu64
			" streams are in stream order, not merged by time\n",
			cmd, run->merge_stats.streams);
	fprintf(stderr,
		"hwtrace %s: %" PRIu64 " calls (%" PRIu64 " call instructions, %"
		PRIu64 " tail calls, %" PRIu64 " traps), %" PRIu64 " returns in %"
		PRIu64 " threads (max depth %" PRIu64 "); %" PRIu64
		" inferred callers, %" PRIu64 " frames without return, %" PRIu64
		" unmatched returns, %" PRIu64 " frames ended by lost trace, %"
		PRIu64 " where tracing stopped",
		cmd, s->entered, s->calls, s->tail_calls, s->traps, s->returns,
		s->threads, s->max_depth, s->inferred, s->no_return,
		s->unmatched_returns, s->cut_by_gap, s->cut_by_trace_off);
	if (s->time_backwards)
		fprintf(stderr, "; %" PRIu64 " elements older than the one "
			"before them in their thread (times clamped)",
			s->time_backwards);
	fputc('\n', stderr);
}

/* Every stack command's options after its own. */
/* -o, never over one of the captures or the kernel image read. */
static int stack_output_open(const struct cli_stack_cmd *cmd,
			     const struct cli_stack_args *a, FILE **out,
			     struct hwt_outfile **of)
{
	size_t n = (size_t)a->nfiles + 1;
	const char **inputs = calloc(n, sizeof(*inputs));
	if (!inputs)
		return cli_report(hwt_error(HWT_ERR_NOMEM, "out of memory"));
	memcpy(inputs, a->files, (n - 1) * sizeof(*inputs));
	inputs[n - 1] = a->opts.lookup.vmlinux;
	int rc = cli_output_open(cmd->name, a->output, inputs, n, out, of);
	free(inputs);
	return rc;
}

int cli_stack_command(const struct cli_stack_cmd *cmd, struct cli_stack_args *a,
		      void *arg, int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		cmd->usage(stdout);
		return EXIT_OK;
	}
	a->symbols.cmd = cmd->name;
	int rc = cli_stack_parse(cmd, a, arg, argc, argv);
	if (rc)
		return rc;
	FILE *out = NULL;
	struct hwt_outfile *of = NULL;
	rc = cmd->open ? cmd->open(arg, &out, &of)
		       : stack_output_open(cmd, a, &out, &of);
	if (rc)
		return rc;
	a->symbols.capture = a->file;
	int err = decode_symbols_start(&a->symbols, &a->opts, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a->symbols);
	struct cli_stack_run run = {
		.file = a->file,
		.opts = &a->opts,
		.per_cpu = a->per_cpu,
		.namer = &namer,
		.symbols = &a->symbols,
	};
	if (!err)
		err = cmd->start(arg, out, &run);
	if (!err)
		err = cmd->decode ? cmd->decode(arg, &run) : cli_stack_run(&run);
	if (!err && cmd->finish)
		err = cmd->finish(arg, out, &run);
	int wrc = out ? cli_output_close(cmd->name, out, a->output, of, err < 0)
		      : 0;
	/* What the stacks saw, once the answer is out (none for a failed
	 * one: its error is the message). */
	if (!err && !wrc && !cmd->decode)
		cli_stack_run_summary(&run, cmd->name);
	if (cmd->done)
		cmd->done(arg, &run, err, wrc);
	if (cmd->free)
		cmd->free(arg);
	decode_symbols_end(&a->symbols);
	if (wrc)
		return wrc;
	if (!err)
		return EXIT_OK;
	return cmd->usage_status ? cli_report_status(err) : cli_report(err);
}
