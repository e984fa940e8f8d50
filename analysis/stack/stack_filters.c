/* The --comm, --dso and --sym filters of a stack decode (stack_filters.h):
 * the stacks themselves see every element, so a kept frame's counts are
 * the unfiltered ones. */
#include <string.h>

#include "analysis/stack/stack_filters.h"

/* hwt_elem_filter_opts.comm over the capture opened for its names. */
static const char *capture_thread_name(void *arg, int32_t pid, int32_t tid)
{
	const struct stack_filters *f = arg;
	(void)pid;
	return f->names ? hwt_capture_thread_name(f->names, tid) : NULL;
}

/* An element filter of @match in front of **@sink (none: nothing to do),
 * *@sink then @filtered. */
static int filter_sink(const struct hwt_elem_filter_opts *match,
		       const struct hwt_elem_sink **sink,
		       struct hwt_elem_sink *filtered,
		       struct hwt_elem_filter **filter)
{
	if (!*sink)
		return 0;
	struct hwt_elem_filter_opts o = *match;
	o.next = **sink;
	int err = hwt_elem_filter_new(&o, filter);
	if (!err) {
		*filtered = hwt_elem_filter_sink(*filter);
		*sink = filtered;
	}
	return err;
}

int stack_filters_start(const struct hwt_stack_decode *run,
			struct stack_filters *f, struct hwt_stack_ops *ops,
			const struct hwt_elem_sink **elements,
			const struct hwt_elem_sink **after)
{
	memset(f, 0, sizeof(*f));
	if (!run->comms && !run->dsos && !run->syms)
		return 0;
	/* A pipe cannot be read ahead for its names: its threads have none. */
	int err = 0;
	if (run->comms && run->file && strcmp(run->file, "-"))
		err = hwt_capture_open(run->file, NULL, &f->names);
	if (err < 0)
		return err;
	struct hwt_frame_filter_opts o = {
		.size = sizeof(o),
		.match = {
			.size = sizeof(o.match),
			.comms = run->comms,
			.dsos = run->dsos,
			.syms = run->syms,
			.sym = run->sym,
			.comm = capture_thread_name,
			.comm_arg = f,
		},
		.next = *ops,
		.dropped = run->dropped,
	};
	err = hwt_frame_filter_new(&o, &f->frames);
	if (!err)
		*ops = hwt_frame_filter_ops(f->frames);
	if (!err)
		err = filter_sink(&o.match, elements, &f->elements_sink,
				  &f->elements);
	if (!err)
		err = filter_sink(&o.match, after, &f->after_sink, &f->after);
	return err;
}

void stack_filters_end(struct stack_filters *f)
{
	hwt_frame_filter_free(f->frames);
	hwt_elem_filter_free(f->elements);
	hwt_elem_filter_free(f->after);
	hwt_capture_free(f->names);
	memset(f, 0, sizeof(*f));
}
