/* perf-style event strings (-e intel_pt/cyc,mtc_period=2/u) as profile
 * entries: the backend, its terms, its sink and the u/k modifiers. */
#include <stdio.h>
#include <string.h>

#include "core/config/config_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"

int hwt_profile_parse_event(struct hwt_profile *p, const char *event)
{
	char pmu[64], terms[1024];
	const char *slash = strchr(event, '/');
	const char *close, *mods;
	int ret;

	if (!slash || slash == event || (size_t)(slash - event) >= sizeof(pmu))
		return hwt_error(HWT_ERR_CONFIG,
				 "-e %s: expected PMU/terms/modifiers, e.g. "
				 "intel_pt/cyc,mtc_period=2/u", event);
	close = strchr(slash + 1, '/');
	if (!close || (size_t)(close - slash - 1) >= sizeof(terms))
		return hwt_error(HWT_ERR_CONFIG,
				 "-e %s: the terms need a closing '/', e.g. "
				 "%.*s//u", event, (int)(slash - event), event);
	memcpy(pmu, event, (size_t)(slash - event));
	pmu[slash - event] = '\0';
	memcpy(terms, slash + 1, (size_t)(close - slash - 1));
	terms[close - slash - 1] = '\0';
	mods = close + 1;
	if (*mods == ':')
		mods++;
	for (const char *m = mods; *m; m++)
		if (*m != 'u' && *m != 'k')
			return hwt_error(HWT_ERR_CONFIG,
					 "-e %s: unknown modifier '%c' (hwtrace "
					 "knows u and k)", event, *m);
	ret = hwt_profile_set_from(p, "session:backend", pmu, "-e");
	/* The terms belong to the PMU's section, also when the event names
	 * the backend (riscv_ntrace//, whose PMU is rvtrace). */
	const struct hwt_backend *b = hwt_backend_find(pmu);
	if (b && b->pmu_name && strcmp(b->pmu_name, pmu) &&
	    strlen(b->pmu_name) < sizeof(pmu))
		snprintf(pmu, sizeof(pmu), "%s", b->pmu_name);
	for (char *save = NULL, *t = strtok_r(terms, ",", &save); !ret && t;
	     t = strtok_r(NULL, ",", &save)) {
		char key[160], *eq;

		while (*t == ' ')
			t++;
		if (!*t)
			continue;
		if (*t == '@') {
			if (!t[1])
				return hwt_error(HWT_ERR_CONFIG,
						 "-e %s: '@' needs a sink name, "
						 "e.g. @tmc_etr0", event);
			snprintf(key, sizeof(key), "%s:sink", pmu);
			ret = hwt_profile_set_from(p, key, t + 1, "-e");
			continue;
		}
		eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		if (!*t)
			return hwt_error(HWT_ERR_CONFIG,
					 "-e %s: a term needs a name before '='",
					 event);
		snprintf(key, sizeof(key), "%s:%s", pmu, t);
		ret = hwt_profile_set_from(p, key, eq ? eq + 1 : "1", "-e");
	}
	if (!ret && *mods) {
		bool u = strchr(mods, 'u'), k = strchr(mods, 'k');

		ret = hwt_profile_set_from(p, "session:user", u ? "yes" : "no", "-e");
		if (!ret)
			ret = hwt_profile_set_from(p, "session:kernel",
						   k ? "yes" : "no", "-e");
	}
	return ret;
}
