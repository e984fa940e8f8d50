/* The intel_bts backend's entry in the core's table. */
#include "hwtrace/backend.h"

const struct hwt_backend hwt_backend_intel_bts = {
	.name = "intel_bts",
	.pmu_name = "intel_bts",
	.description = "Intel Branch Trace Store",
	.auxtrace_type = HWT_AUXTRACE_INTEL_BTS,
	.aux_sampling = false,
	.no_decoder_reason = "the BTS decoder is not written yet",
};
