/* A function namer over a symbolizer that may not exist yet
 * (hwt_symbolizer_slot_namer, hwtrace/sym_setup.h): a command hands its
 * stacks their namer before it knows whether symbols start, so each call
 * looks in the slot again. */
#include <stddef.h>

#include "hwtrace/sym_setup.h"

/* The namer of the symbolizer in the slot now: false when the slot is
 * empty (symbols off, or not started yet). */
static bool slot_namer(void *arg, struct hwt_func_namer *n)
{
	struct hwt_symbolizer *const *slot = arg;
	if (!*slot)
		return false;
	*n = hwt_symbolizer_namer(*slot);
	return true;
}

static const char *slot_name(void *arg, int32_t pid, uint64_t addr,
			     uint64_t *start)
{
	struct hwt_func_namer n;
	return slot_namer(arg, &n) ? n.name(n.arg, pid, addr, start) : NULL;
}

static bool slot_parent(void *arg, int32_t pid, uint64_t addr,
			uint64_t *start)
{
	struct hwt_func_namer n;
	return slot_namer(arg, &n) && n.parent(n.arg, pid, addr, start);
}

static const char *slot_unnamed(void *arg, int32_t pid, uint64_t addr)
{
	struct hwt_func_namer n;
	return slot_namer(arg, &n) ? n.unnamed(n.arg, pid, addr) : NULL;
}

static const char *slot_dso(void *arg, int32_t pid, uint64_t addr)
{
	struct hwt_func_namer n;
	return slot_namer(arg, &n) ? n.dso(n.arg, pid, addr) : NULL;
}

struct hwt_func_namer hwt_symbolizer_slot_namer(struct hwt_symbolizer *const *slot)
{
	struct hwt_func_namer namer = {slot_name, (void *)slot, slot_parent,
				       slot_unnamed, slot_dso};
	return namer;
}
