/* The intel_pt backend's entry in the core's table. */
#include "hwtrace/backend.h"

extern const struct hwt_record_ops hwt_pt_record_ops;
#ifdef HWT_HAVE_LIBIPT
extern const struct hwt_decoder_ops hwt_pt_decoder_ops;
#endif

/* What its elements' time measures, for report's header. */
static const struct hwt_trace_clock pt_clock = {
	.unit = "ns",
	.meaning = "ns of perf time, from the trace's TSC packets "
		   "(converted through the capture's TIME_CONV)",
};

const struct hwt_backend hwt_backend_intel_pt = {
	.name = "intel_pt",
	.pmu_name = "intel_pt",
	.description = "Intel Processor Trace",
	.auxtrace_type = HWT_AUXTRACE_INTEL_PT,
	.aux_sampling = true,
	.record = &hwt_pt_record_ops,
#ifdef HWT_HAVE_LIBIPT
	.decoder = &hwt_pt_decoder_ops,
#endif
	.no_decoder_reason = "hwtrace was built without libipt "
			     "(rebuild with libipt-dev installed and HWT_WITH_LIBIPT=ON)",
	.clock = &pt_clock,
};
