/* Function names for call stacks, reports and timelines, from a
 * symbolizer (hwt_symbolizer_namer). */
#include <string.h>

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

/* Code in a known binary that no symbol covers: "FILE+0xOFF". The name
 * is valid until the next call on the same thread (a cursor's decode
 * thread and the caller's each have theirs). */
static const char *namer_unnamed(void *arg, int32_t pid, uint64_t addr)
{
	static _Thread_local char name[512];
	struct hwt_symbol s;
	if (hwt_symbolizer_lookup(arg, pid < 0 ? HWT_PID_ANY : pid, addr,
				  &s) != 1 ||
	    !hwt_symbol_dso_name(&s, name, sizeof(name)))
		return NULL;
	return name;
}

/* The binary holding the code, as perf names it: the file's basename,
 * or the map's own name ("[kernel.kallsyms]", "[vdso]"). */
static const char *namer_dso(void *arg, int32_t pid, uint64_t addr)
{
	struct hwt_symbol s;
	if (hwt_symbolizer_lookup(arg, pid < 0 ? HWT_PID_ANY : pid, addr,
				  &s) != 1 || !s.dso || !*s.dso)
		return NULL;
	const char *slash = strrchr(s.dso, '/');
	return slash ? (slash[1] ? slash + 1 : NULL) : s.dso;
}

struct hwt_func_namer hwt_symbolizer_namer(struct hwt_symbolizer *sym)
{
	struct hwt_func_namer namer = {namer_name, sym, namer_parent,
				       namer_unnamed, namer_dso};
	return namer;
}
