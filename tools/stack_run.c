#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/filter.h"
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "decode_symbols.h"
#include "stack_run.h"
#include "thread_names.h"
#include "unit_run.h"

int cli_stack_run_option(const char *cmd, struct hwt_decode_opts *o,
			 bool *per_cpu, int opt, const char *arg)
{
	switch (opt) {
	case OPT_RUN_PER_CPU:
		*per_cpu = true;
		return 1;
	case OPT_RUN_TID:
	{
		uint64_t v;
		int rc = cli_number_u64(&(struct cli_number){cmd, "--tid", 0,
				INT32_MAX, "a thread id from 0 to 2147483647"},
				arg, &v);
		if (rc)
			return rc;
		o->tid = (int32_t)v;
		o->filter_tid = true;
		return 1;
	}
	case OPT_RUN_CPU:
	{
		uint64_t v;
		int rc = cli_number_u64(&(struct cli_number){cmd, "--cpu", 0,
				65535, "a CPU number from 0 to 65535"}, arg, &v);
		if (rc)
			return rc;
		o->cpu = (int32_t)v;
		o->filter_cpu = true;
		return 1;
	}
	case OPT_RUN_TIME:
		if (cli_parse_time_range(arg, o))
			return cli_usage_error(cmd, "--time %s: expected "
					       "START,END", arg);
		return 1;
	case OPT_RUN_SYMFS:
		o->lookup.symfs = arg;
		return 1;
	case OPT_RUN_BUILDID_DIR:
		o->lookup.buildid_dir = arg;
		return 1;
	case OPT_RUN_VMLINUX:
		o->lookup.vmlinux = arg;
		return 1;
	case OPT_RUN_VIRTUAL_LBR:
	{
		int rc = cli_virtual_lbr(cmd, arg, &o->virtual_lbr);
		return rc ? rc : 1;
	}
	case OPT_RUN_KCORE:
		o->kcore = arg;
		return 1;
	case 'j':
	{
		int rc = cli_jobs(cmd, arg, &o->jobs);
		return rc ? rc : 1;
	}
	}
	return 0;
}

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

/* --comm, --dso, --sym NAME,...: no empty list nor empty name in it (a
 * filter that would match nothing by a slip of the shell). */
static int filter_list(const char *cmd, const char *option, const char *arg,
		       const char **list)
{
	size_t n = strlen(arg);
	if (!n || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"))
		return cli_usage_error(cmd, "%s '%s': expected NAME[,NAME...] "
				       "without empty names", option, arg);
	*list = arg;
	return 0;
}

/* --dso and --sym look functions up: not with --no-symbols, in either
 * order. */
static int filter_needs_symbols(const char *cmd,
				const struct decode_symbols *ds)
{
	if (ds->off && (ds->dsos || ds->syms))
		return cli_usage_error(cmd, "--dso and --sym need symbols: not "
				       "with --no-symbols");
	return 0;
}

/* Takes the frame filters into @ds: 1 taken, 0 not one, or EXIT_USAGE. */
static int filter_option(const char *cmd, struct decode_symbols *ds, int opt,
			 const char *arg)
{
	int rc;
	switch (opt) {
	case OPT_RUN_COMM:
		rc = filter_list(cmd, "--comm", arg, &ds->comms);
		break;
	case OPT_RUN_DSO:
		rc = filter_list(cmd, "--dso", arg, &ds->dsos);
		break;
	case OPT_RUN_SYM:
		rc = filter_list(cmd, "--sym", arg, &ds->syms);
		break;
	default:
		return 0;
	}
	return rc ? rc : 1;
}

int cli_stack_run_default(const char *cmd, struct hwt_decode_opts *opts,
			  bool *per_cpu, struct decode_symbols *ds, int opt,
			  const char *arg, char **argv)
{
	int rc = cli_stack_run_option(cmd, opts, per_cpu, opt, arg);
	if (!rc)
		rc = filter_option(cmd, ds, opt, arg);
	if (!rc && decode_symbols_option(ds, opt, arg))
		rc = 1;
	if (rc == 1)
		return filter_needs_symbols(cmd, ds);
	if (rc)
		return rc;
	if (opt == ':')
		return cli_usage_error(cmd, "%s needs a value", argv[optind - 1]);
	return cli_usage_error(cmd, "unknown option %s", argv[optind - 1]);
}

int cli_stack_run_file(const char *cmd, int argc, char **argv,
		       const char **file)
{
	if (optind != argc - 1)
		return cli_usage_error(cmd, optind < argc ? "give one capture file"
					    : "no capture file");
	*file = argv[optind];
	return 0;
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
	/* No pipe in front of the stacks (merge_piped.h): building them
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
static const struct option common_opts[] = {
	STACK_RUN_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int stack_parse(const struct cli_stack_cmd *cmd,
		       struct cli_stack_args *a, void *arg, int argc,
		       char **argv)
{
	size_t own = 0, common = sizeof(common_opts) / sizeof(common_opts[0]);
	while (cmd->options && cmd->options[own].name)
		own++;
	struct option *opts = calloc(own + common, sizeof(*opts));
	if (!opts)
		return cli_report(hwt_error(HWT_ERR_NOMEM, "out of memory"));
	if (own)
		memcpy(opts, cmd->options, own * sizeof(*opts));
	memcpy(opts + own, common_opts, sizeof(common_opts));
	a->opts.size = sizeof(a->opts);
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->opts.jobs = cmd->one_thread ? 1 : cli_online_cpus();
	optind = 1;
	opterr = 0;
	int c, rc = 0;
	const char *shorts = cmd->one_thread ? ":o:h" : ":o:j:h";
	while (!rc && (c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 'o') {
			a->output = optarg;
			continue;
		}
		rc = cmd->option ? cmd->option(arg, c, optarg)
				 : CLI_STACK_NOT_MINE;
		if (rc == CLI_STACK_NOT_MINE)
			rc = cli_stack_run_default(cmd->name, &a->opts,
						   &a->per_cpu, &a->symbols, c,
						   optarg, argv);
	}
	free(opts);
	if (rc)
		return rc;
	if (cmd->positional && (rc = cmd->positional(arg, argc, argv)))
		return rc;
	if (cmd->many_files) {
		if (optind >= argc)
			return cli_usage_error(cmd->name, "no capture file");
		a->files = (const char **)argv + optind;
		a->nfiles = argc - optind;
		a->file = a->files[0];
	} else {
		if ((rc = cli_stack_run_file(cmd->name, argc, argv, &a->file)))
			return rc;
		a->files = &a->file;
		a->nfiles = 1;
	}
	return cmd->check ? cmd->check(arg) : 0;
}

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
	int rc = stack_parse(cmd, a, arg, argc, argv);
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
