/* Source lines for `report --srcline` over a symbolizer
 * (hwt_symbolizer_lines, hwtrace/symbols.h). */
#include "analysis/symbols/symbols_internal.h"

static bool symbolizer_line(void *arg, int32_t pid, uint64_t addr,
			    const char **file, uint32_t *line,
			    const char *const **inlined, size_t *ninlined)
{
	struct hwt_symbolizer *sym = arg;
	struct hwt_symbol s;
	if (!sym || hwt_symbolizer_lookup(sym, pid < 0 ? HWT_PID_ANY : pid,
					  addr, &s) != 1 || !s.name || !s.file)
		return false;
	*file = s.file;
	*line = s.line;
	/* s.inlines is innermost first, the holding function last; the
	 * report wants the inlined ones outermost first. */
	size_t n = s.ninlines ? s.ninlines - 1 : 0;
	if (n > SYM_MAX_INLINED)
		n = SYM_MAX_INLINED;
	const char **names = sym_inlined_names(sym);
	for (size_t i = 0; i < n; i++) {
		const char *name = s.inlines[n - 1 - i].name;
		names[i] = name ? name : "??";
	}
	*inlined = names;
	*ninlined = n;
	return true;
}

struct hwt_report_lines hwt_symbolizer_lines(struct hwt_symbolizer *sym)
{
	struct hwt_report_lines lines = {symbolizer_line, sym};
	return lines;
}
