/* Call stacks from a cursor, and a namer's function starts given to the
 * stacks: what the stack commands and the bindings assemble alike. */
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"

static bool function_start(void *arg, int32_t pid, uint64_t addr,
			   uint64_t *start)
{
	const struct hwt_func_namer *namer = arg;
	return namer->name(namer->arg, pid, addr, start) != NULL;
}

static bool function_parent(void *arg, int32_t pid, uint64_t addr,
			    uint64_t *start)
{
	const struct hwt_func_namer *namer = arg;
	return namer->parent(namer->arg, pid, addr, start);
}

void hwt_stack_use_namer(struct hwt_stack_ops *ops,
			 const struct hwt_func_namer *namer)
{
	if (!namer || !namer->name)
		return;
	ops->function_start = function_start;
	ops->sym_arg = (void *)namer;
	if (namer->parent)
		ops->function_parent = function_parent;
}

int hwt_stack_run_cursor(struct hwt_cursor *cur, const struct hwt_stack_ops *ops,
			 const struct hwt_func_namer *namer,
			 struct hwt_stack_stats *stats)
{
	if (!cur || !ops)
		return hwt_error(HWT_ERR_INVAL, "hwt_stack_run_cursor: missing "
				 "argument");
	struct hwt_stack_ops o = *ops;
	hwt_stack_use_namer(&o, namer);
	struct hwt_stack *stack = hwt_stack_new(&o);
	if (!stack)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	struct hwt_elem_sink sink = hwt_stack_sink(stack);
	int err = hwt_cursor_run(cur, &sink);
	/* A decode that failed part way still ends its open frames. */
	int ferr = hwt_stack_finish(stack);
	if (!err)
		err = ferr;
	if (stats)
		hwt_stack_get_stats(stack, stats);
	hwt_stack_free(stack);
	return err;
}
