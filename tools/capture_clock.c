/* What the time of a capture's elements measures, by the trace that made
 * it (its AUX event's name), for `hwtrace report`'s header. */
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hwtrace/perfdata.h"

static const struct {
	const char *pmu, *unit, *meaning;
} clocks[] = {
	{"sw_branch", "ns", "ns of the tracer's clock while it single-steps "
	 "the program (sw_branch): it measures the stepping, thousands of "
	 "times slower than the program runs, not the program's own speed"},
	{"intel_pt", "ns", "ns of perf time, from the trace's TSC packets "
	 "(converted through the capture's TIME_CONV)"},
	{"intel_bts", "ns", "ns of perf time at which each buffer of branch "
	 "records reached perf (BTS records carry no time of their own)"},
	{"cs_etm", "ticks", "CoreSight timestamps as the trace carries them "
	 "(the system's timestamp counter, not converted to ns)"},
};

bool cli_capture_clock(const char *file, const char **unit,
		       const char **meaning)
{
	/* A pipe is read once, by the decode itself. */
	struct stat st;
	struct hwt_pd_reader *r;
	if (!file || stat(file, &st) || !S_ISREG(st.st_mode) ||
	    hwt_pd_reader_open(file, &r))
		return false;
	bool found = false;
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r) && !found; i++) {
		const char *name = hwt_pd_reader_attr(r, i)->name;
		for (size_t c = 0; name && c < sizeof(clocks) / sizeof(clocks[0]);
		     c++) {
			size_t n = strlen(clocks[c].pmu);
			if (!strncmp(name, clocks[c].pmu, n) &&
			    (name[n] == '/' || name[n] == ':' || !name[n])) {
				*unit = clocks[c].unit;
				*meaning = clocks[c].meaning;
				found = true;
				break;
			}
		}
	}
	hwt_pd_reader_free(r);
	return found;
}
