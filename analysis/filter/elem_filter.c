/* The --comm, --dso and --sym filters (include/hwtrace/filter.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/filter/name_lists.h"
#include "analysis/util/elem_pid.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"

struct hwt_elem_filter {
	struct hwt_elem_filter_opts o;
};

int hwt_elem_filter_new(const struct hwt_elem_filter_opts *opts,
			struct hwt_elem_filter **out)
{
	int err = hwt_filter_lists_check(opts, "hwt_elem_filter_opts");
	if (err < 0)
		return err;
	struct hwt_elem_filter *f = calloc(1, sizeof(*f));
	if (!f)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	f->o = *opts;
	*out = f;
	return 0;
}

void hwt_elem_filter_free(struct hwt_elem_filter *f)
{
	free(f);
}

/* The address an element's code starts at; false for none. */
static bool code_of(const struct hwt_elem *e, uint64_t *addr)
{
	switch (e->type) {
	case HWT_ELEM_RANGE:
		*addr = e->u.range.start;
		return true;
	case HWT_ELEM_BRANCH:
		*addr = e->u.branch.from;
		return true;
	case HWT_ELEM_TRACE_OFF:
		*addr = e->u.trace.at;
		return (e->fields & HWT_FIELD_AT) != 0;
	default:
		return false;
	}
}

static bool passes(struct hwt_elem_filter *f, const struct hwt_elem *e)
{
	const struct hwt_elem_filter_opts *o = &f->o;
	uint64_t addr = 0; /* set when code_of finds the code */
	bool code = code_of(e, &addr) || e->type == HWT_ELEM_TRACE_ON;
	if (o->comms && ((e->fields & HWT_FIELD_TID) || code)) {
		/* A gap or error of no thread (a CPU's) passes. */
		const char *comm = e->fields & HWT_FIELD_TID
					   ? o->comm(o->comm_arg, hwt_elem_pid(e), e->tid)
					   : NULL;
		if (!hwt_filter_comm_passes(o, comm))
			return false;
	}
	if (!o->dsos && !o->syms)
		return true;
	if (!code || e->type == HWT_ELEM_TRACE_ON)
		/* trace on names no code; the stream's own elements pass. */
		return !code;
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	return hwt_filter_code_passes(o, hwt_elem_pid(e), addr, time);
}

static int emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_elem_filter *f = arg;
	return passes(f, e) ? f->o.next.emit(f->o.next.arg, e) : 0;
}

struct hwt_elem_sink hwt_elem_filter_sink(struct hwt_elem_filter *f)
{
	struct hwt_elem_sink sink = {emit, f};
	return sink;
}
