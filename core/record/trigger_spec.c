/* The call triggers' syntax (hwtrace/trigger.h), one parser for
 * sw_branch's flight recorder and hwt_recorder. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/trigger.h"

int hwt_trigger_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
	char *end;

	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			double total = v * (double)units[i].ns;
			if (total >= 1.8e19)
				return -1;
			*ns = (uint64_t)total;
			return 0;
		}
	}
	return -1;
}

int hwt_trigger_duration_check(const char *text, uint64_t *ns)
{
	if (!text || hwt_trigger_parse_duration(text, ns))
		return hwt_error(HWT_ERR_CONFIG, "'%s' is not a duration: want a "
				 "number with a unit (ns, us, ms or s), e.g. "
				 "500ms", text ? text : "");
	return 0;
}

static int copy_func(const char *kind, const char *func, size_t len,
		     char *out, size_t size)
{
	if (!len || len >= size || func[0] == '@')
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s:%.*s: want a "
				 "function, optionally with its file "
				 "(FUNC@BINARY)", kind, (int)len, func);
	memcpy(out, func, len);
	out[len] = 0;
	return 1;
}

int hwt_trigger_parse_call(const char *spec, char *func, size_t size,
			   bool *latency, uint64_t *threshold_ns)
{
	*latency = false;
	if (!strncmp(spec, "symbol:", 7))
		return copy_func("symbol", spec + 7, strlen(spec + 7), func, size);
	if (strncmp(spec, "latency:", 8))
		return 0;
	const char *f = spec + 8, *gt = strchr(f, '>');
	*latency = true;
	if (!gt || hwt_trigger_parse_duration(gt + 1, threshold_ns))
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s: want "
				 "latency:FUNC>DURATION with a unit (ns, us, ms "
				 "or s), e.g. latency:parse>5ms", spec);
	return copy_func("latency", f, (size_t)(gt - f), func, size);
}
