/* decode --calls as one library call (include/hwtrace/calls.h): the CLI
 * and the bindings list calls through it, so they list the same. */
#include <stddef.h>
#include <string.h>

#include "hwtrace/calls.h"
#include "hwtrace/error.h"

/* Rebuilds the stacks of @run's elements into @ops. */
static int run_stacks(const struct hwt_calls_decode *run,
		      const struct hwt_stack_ops *ops,
		      struct hwt_stack_decode_result *res)
{
	if (run->cursor)
		return hwt_stack_run_cursor(run->cursor, ops, run->namer,
					    &res->stack);
	/* A copy (the caller's run is const; the ops and namer are ours)
	 * of no more than the caller's struct holds: the fields a shorter,
	 * older one lacks are zero, which is what they mean absent (no
	 * filters, the whole capture), so the copy is full size and its
	 * namer is read. */
	struct hwt_stack_decode d;
	memset(&d, 0, sizeof(d));
	size_t n = run->decode->size;
	memcpy(&d, run->decode, n < sizeof(d) ? n : sizeof(d));
	d.size = sizeof(d);
	d.ops = *ops;
	d.namer = run->namer;
	return hwt_stack_decode(&d, res);
}

int hwt_calls_decode(const struct hwt_calls_decode *run,
		     struct hwt_stack_decode_result *result)
{
	struct hwt_stack_decode_result res;
	memset(&res, 0, sizeof(res));
	if (result)
		*result = res;
	if (!run || run->size < offsetof(struct hwt_calls_decode, cursor) +
					sizeof(run->cursor))
		return hwt_error(HWT_ERR_INVAL, "hwt_calls_decode: missing or "
				 "short run");
	if (!run->out)
		return hwt_error(HWT_ERR_INVAL, "hwt_calls_decode: no output");
	if (!run->decode == !run->cursor)
		return hwt_error(HWT_ERR_INVAL, "hwt_calls_decode: give a "
				 "decode or a cursor, not %s",
				 run->decode ? "both" : "neither");
	struct hwt_calls_writer *w;
	int err = hwt_calls_writer_new(run->out, run->format, run->namer, &w);
	if (err)
		return err;
	struct hwt_stack_ops ops = hwt_calls_writer_ops(w);
	err = run_stacks(run, &ops, &res);
	/* The lines of a failed decode are written too: they are what it
	 * decoded before it failed. */
	int ferr = hwt_calls_writer_flush(w);
	if (!err)
		err = ferr;
	hwt_calls_writer_free(w);
	if (result)
		*result = res;
	return err;
}
