/* sw_branch: where tracing starts and stops, from perf's address filter
 * syntax or --start/--stop, resolved to addresses in the process. */
#include <stdio.h>
#include <string.h>

#include "backends/sw-branch/swb_filter.h"
#include "backends/sw-branch/swb_maps.h"
#include "hwtrace/addrfilter.h"
#include "hwtrace/error.h"

int hwt_swb_resolve_spec(pid_t pid, const char *exe, const char *spec,
			 uint64_t *addr, bool quiet)
{
	struct hwt_swb_maps maps;
	int err = hwt_swb_maps_read(pid, &maps);
	if (err)
		return err;
	err = hwt_swb_resolve(&maps, exe, spec, addr);
	hwt_swb_maps_clear(&maps);
	if (err != HWT_ERR_NOENT || quiet)
		return err;
	/* The name alone (no +OFFSET, no @FILE), looked for in the program:
	 * the likely typo of one of its functions. */
	char name[256], near[256];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(spec, "+@"), spec);
	if (name[0] && hwt_addr_filter_nearest_symbol(exe, name, near,
						       sizeof(near)))
		return hwt_error(HWT_ERR_NOENT, "symbol '%s' is in neither %s "
				 "nor the libraries it has loaded; did you "
				 "mean '%s'?", spec, exe, near);
	return hwt_error(HWT_ERR_NOENT, "symbol '%s' is in neither %s "
			 "nor the libraries it has loaded (is the "
			 "program stripped?)", spec, exe);
}

int hwt_swb_parse_filter(const struct hwt_swb_opts *o,
			 struct hwt_swb_specs *spec)
{
	char copy[1024];
	int n = 0;

	memset(spec, 0, sizeof(*spec));
	spec->start = o->start;
	spec->stop = o->stop;
	if (!o->filter)
		return 0;
	if (o->start || o->stop)
		return hwt_error(HWT_ERR_CONFIG, "give either a filter or "
				 "--start/--stop, not both");
	if (strlen(o->filter) >= sizeof(copy))
		return hwt_error(HWT_ERR_CONFIG, "the filter is too long");
	strcpy(copy, o->filter);
	for (char *save = NULL, *c = strtok_r(copy, ",", &save); c;
	     c = strtok_r(NULL, ",", &save)) {
		while (*c == ' ')
			c++;
		const char *kw = c;
		size_t kwlen = strcspn(c, " ");
		const char *arg = c + kwlen + strspn(c + kwlen, " ");
		if (!*arg || strlen(arg) >= sizeof(spec->buf[0]) || n == 3)
			return hwt_error(HWT_ERR_CONFIG, "filter '%s': want filter, "
					 "start or stop, then SYMBOL or 0xADDR, "
					 "then optionally @ FILE", c);
		if (strchr(arg, '/'))
			return hwt_error(HWT_ERR_CONFIG, "filter '%s': address "
					 "ranges (/SIZE) are not supported by "
					 "sw_branch; use 'filter SYMBOL' for one "
					 "call of a function", c);
		char *dst = spec->buf[n++];
		strcpy(dst, arg);
		if (kwlen == 6 && !strncmp(kw, "filter", 6)) {
			spec->start = dst;
			spec->until_return = true;
		} else if (kwlen == 5 && !strncmp(kw, "start", 5)) {
			spec->start = dst;
		} else if (kwlen == 4 && !strncmp(kw, "stop", 4)) {
			spec->stop = dst;
		} else {
			return hwt_error(HWT_ERR_CONFIG, "filter '%s': '%.*s' is not "
					 "filter, start or stop", c, (int)kwlen, kw);
		}
	}
	if (spec->until_return && spec->stop)
		return hwt_error(HWT_ERR_CONFIG, "'filter' stops where the call "
				 "returns: it takes no 'stop'");
	return 0;
}
