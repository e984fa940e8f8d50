/* The intel_bts backend's entry in the core's table. */
#include "hwtrace/backend.h"

extern const struct hwt_record_ops hwt_bts_record_ops;
extern const struct hwt_decoder_ops hwt_bts_decoder_ops;

/* What its elements' time measures, for report's header. */
static const struct hwt_trace_clock bts_clock = {
	.unit = "ns",
	.meaning = "ns of perf time at which each buffer of branch "
		   "records reached perf (BTS records carry no time of their own)",
};

const struct hwt_backend hwt_backend_intel_bts = {
	.name = "intel_bts",
	.pmu_name = "intel_bts",
	.description = "Intel Branch Trace Store",
	.auxtrace_type = HWT_AUXTRACE_INTEL_BTS,
	.aux_sampling = false,
	.record = &hwt_bts_record_ops,
	.decoder = &hwt_bts_decoder_ops,
	.clock = &bts_clock,
};
