/* What the filters match (name_lists.h), and the syntax of their lists
 * (hwt_filter_list_check, hwtrace/filter.h). */
#include <string.h>

#include "analysis/filter/name_lists.h"
#include "hwtrace/error.h"

bool hwt_filter_comm_passes(const struct hwt_elem_filter_opts *o,
			    const char *comm)
{
	return !o->comms ||
	       (comm && hwt_name_listed(o->comms, comm, strlen(comm)));
}

bool hwt_filter_code_passes(const struct hwt_elem_filter_opts *o, int32_t pid,
			    uint64_t addr, uint64_t time)
{
	if (!o->dsos && !o->syms)
		return true;
	struct hwt_symbol s;
	if (hwt_symbolizer_lookup_at(o->sym, pid, addr, time, &s) != 1)
		return false;
	if (o->dsos && !hwt_dso_listed(o->dsos, s.dso))
		return false;
	return !o->syms ||
	       (s.name && hwt_name_listed(o->syms, s.name, strlen(s.name)));
}

int hwt_filter_lists_check(const struct hwt_elem_filter_opts *o,
			   const char *what)
{
	if (!o || o->size < sizeof(*o) || ((o->dsos || o->syms) && !o->sym) ||
	    (o->comms && !o->comm))
		return hwt_error(HWT_ERR_INVAL, "%s: size, or the symbolizer "
				 "or thread names a list needs, not set", what);
	return 0;
}

int hwt_filter_list_check(const char *option, const char *list)
{
	size_t n = list ? strlen(list) : 0;
	if (!n || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,"))
		return hwt_error(HWT_ERR_CONFIG, "%s '%s': expected "
				 "NAME[,NAME...] without empty names", option,
				 list ? list : "");
	return 0;
}

int hwt_filter_symbols_check(bool no_symbols, const char *dsos,
			     const char *syms)
{
	if (no_symbols && (dsos || syms))
		return hwt_error(HWT_ERR_CONFIG, "--dso and --sym need symbols: "
				 "not with --no-symbols");
	return 0;
}

bool hwt_name_listed(const char *list, const char *name, size_t len)
{
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == len && !strncmp(p, name, len))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

bool hwt_dso_listed(const char *list, const char *dso)
{
	if (!dso)
		return false;
	const char *base = strrchr(dso, '/');
	return hwt_name_listed(list, dso, strlen(dso)) ||
	       (base && hwt_name_listed(list, base + 1, strlen(base + 1)));
}
