/* The intel_pt backend's entry in the core's table. */
#include "hwtrace/backend.h"

const struct hwt_backend hwt_backend_intel_pt = {
	.name = "intel_pt",
	.pmu_name = "intel_pt",
	.description = "Intel Processor Trace",
	.auxtrace_type = HWT_AUXTRACE_INTEL_PT,
	.aux_sampling = true,
	.no_decoder_reason = "the Intel PT decoder is not written yet",
};
