/* intel_bts configure: per-thread only. */
#include "backends/x86-bts/bts_record.h"
#include "backends/x86-bts/bts_meta.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"

int hwt_bts_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
		      const struct hwt_profile *profile,
		      struct perf_event_attr *attr)
{
	const char *o = hwt_profile_origin(profile, "session:cpus");

	(void)os;
	(void)pmu;
	(void)attr;
	/* The kernel refuses intel_bts events bound to a CPU: BTS buffers
	 * follow a task. */
	if (!hwt_profile_per_thread(profile))
		return hwt_error(HWT_ERR_CONFIG,
				 "%s%sintel_bts traces per thread only (the kernel "
				 "refuses per-CPU BTS events); set [session] "
				 "per_thread = yes%s",
				 o ? o : "", o ? ": " : "",
				 o ? " and remove [session] cpus" : "");
	return 0;
}

const struct hwt_record_ops hwt_bts_record_ops = {
	.configure = hwt_bts_configure,
	.info = hwt_bts_info,
	.find_snapshot = hwt_bts_find_snapshot,
	.alignment = HWT_BTS_RECORD_SIZE,
};
