/* Function names for call stacks, reports and timelines, from a
 * symbolizer (hwt_symbolizer_namer). */
#include "hwtrace/symbols.h"

/* The function holding @addr in process @pid (-1: unknown), if named. */
static bool lookup_function(struct hwt_symbolizer *sym, int32_t pid,
			    uint64_t addr, struct hwt_symbol *out)
{
	return hwt_symbolizer_lookup(sym, pid < 0 ? HWT_PID_ANY : pid, addr,
				     out) == 1 && out->name;
}

static const char *namer_name(void *arg, int32_t pid, uint64_t addr,
			      uint64_t *start)
{
	struct hwt_symbol s;
	if (!lookup_function(arg, pid, addr, &s))
		return NULL;
	*start = s.start;
	return s.name;
}

static bool namer_parent(void *arg, int32_t pid, uint64_t addr,
			 uint64_t *start)
{
	struct hwt_symbol s;
	if (!lookup_function(arg, pid, addr, &s))
		return false;
	*start = s.parent_start;
	return true;
}

struct hwt_func_namer hwt_symbolizer_namer(struct hwt_symbolizer *sym)
{
	struct hwt_func_namer namer = {namer_name, sym, namer_parent};
	return namer;
}
