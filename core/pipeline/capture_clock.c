/* What a perf.data file's time measures: the clock its backend states
 * (hwt_backend.clock), found by the name of the file's trace event. */
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/backend.h"
#include "hwtrace/capture.h"
#include "hwtrace/perfdata.h"

/* True when event @name is @pmu's: "intel_pt", "intel_pt//",
 * "cs_etm/@tmc_etr0/", "intel_pt:u". */
static bool event_of(const char *name, const char *pmu)
{
	size_t n = pmu ? strlen(pmu) : 0;
	return n && !strncmp(name, pmu, n) &&
	       (name[n] == '/' || name[n] == ':' || !name[n]);
}

static const struct hwt_trace_clock *clock_of_event(const char *name)
{
	const struct hwt_backend *b;
	for (size_t i = 0; name && (b = hwt_backend_at(i)); i++)
		if (b->clock &&
		    (event_of(name, b->name) || event_of(name, b->pmu_name)))
			return b->clock;
	return NULL;
}

const struct hwt_trace_clock *hwt_capture_file_clock(const char *path)
{
	struct stat st;
	struct hwt_pd_reader *r;
	if (!path || stat(path, &st) || !S_ISREG(st.st_mode) ||
	    hwt_pd_reader_open(path, &r))
		return NULL;
	const struct hwt_trace_clock *clock = NULL;
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r) && !clock; i++)
		clock = clock_of_event(hwt_pd_reader_attr(r, i)->name);
	hwt_pd_reader_free(r);
	return clock;
}
