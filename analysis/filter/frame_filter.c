/* The frame filters of the stack commands (include/hwtrace/filter.h):
 * the stacks see everything, their consumer only the matching frames. */
#include <stdlib.h>
#include <string.h>

#include "analysis/filter/name_lists.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"
#include "hwtrace/image.h"

struct hwt_frame_filter {
	struct hwt_frame_filter_opts o;
};

int hwt_frame_filter_new(const struct hwt_frame_filter_opts *opts,
			 struct hwt_frame_filter **out)
{
	if (!opts || opts->size < sizeof(*opts))
		return hwt_error(HWT_ERR_INVAL, "hwt_frame_filter_opts: size "
				 "not set");
	int err = hwt_filter_lists_check(&opts->match,
					 "hwt_frame_filter_opts.match");
	if (err < 0)
		return err;
	struct hwt_frame_filter *f = calloc(1, sizeof(*f));
	if (!f)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	f->o = *opts;
	*out = f;
	return 0;
}

void hwt_frame_filter_free(struct hwt_frame_filter *f)
{
	free(f);
}

/* The same answer for a frame's enter and its exit: both look at its
 * thread, its entry address and the time it was entered. */
static bool matches(const struct hwt_frame_filter *f, const struct hwt_frame *fr)
{
	const struct hwt_elem_filter_opts *o = &f->o.match;
	int32_t pid = fr->pid >= 0 ? fr->pid : fr->tid >= 0 ? fr->tid
							    : HWT_PID_ANY;
	if (o->comms &&
	    !hwt_filter_comm_passes(o, fr->tid >= 0 ? o->comm(o->comm_arg, pid,
							      fr->tid)
						    : NULL))
		return false;
	uint64_t time = fr->has_time ? fr->call_time : HWT_TIME_UNKNOWN;
	return hwt_filter_code_passes(o, pid, fr->func, time);
}

static int enter(void *arg, const struct hwt_frame *fr)
{
	struct hwt_frame_filter *f = arg;
	const struct hwt_stack_ops *to = matches(f, fr) ? &f->o.next
							: &f->o.dropped;
	return to->on_enter ? to->on_enter(to->arg, fr) : 0;
}

static int leave(void *arg, const struct hwt_frame *fr)
{
	struct hwt_frame_filter *f = arg;
	const struct hwt_stack_ops *to = matches(f, fr) ? &f->o.next
							: &f->o.dropped;
	return to->on_exit ? to->on_exit(to->arg, fr) : 0;
}

static int caller(void *arg, const struct hwt_frame *fr, uint64_t time)
{
	struct hwt_frame_filter *f = arg;
	return f->o.next.on_caller && matches(f, fr)
		       ? f->o.next.on_caller(f->o.next.arg, fr, time)
		       : 0;
}

struct hwt_stack_ops hwt_frame_filter_ops(struct hwt_frame_filter *f)
{
	struct hwt_stack_ops ops = f->o.next;
	ops.on_enter = enter;
	ops.on_exit = leave;
	ops.on_caller = f->o.next.on_caller ? caller : NULL;
	ops.arg = f;
	return ops;
}
