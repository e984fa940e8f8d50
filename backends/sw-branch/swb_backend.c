/* The sw_branch backend's entry in the core's table. */
#include "hwtrace/backend.h"

const struct hwt_backend hwt_backend_sw_branch = {
	.name = "sw_branch",
	.pmu_name = NULL,
	.description = "software branch tracer (ptrace single-step), BTS format",
	.auxtrace_type = HWT_AUXTRACE_INTEL_BTS,
	.aux_sampling = false,
	.no_decoder_reason = "decoded by the intel_bts decoder",
};
