/* The sw_branch backend's entry in the core's table. It writes Intel BTS
 * records, so its captures are decoded by the intel_bts decoder, which
 * swb_decoder.c reaches through the backend table. */
#include "hwtrace/backend.h"

extern const struct hwt_record_ops hwt_swb_record_ops;
extern const struct hwt_decoder_ops hwt_swb_decoder_ops;

/* What its elements' time measures, for report's header. */
static const struct hwt_trace_clock swb_clock = {
	.unit = "ns",
	.meaning = "ns of the tracer's clock while it single-steps "
		   "the program (sw_branch): it measures the stepping, "
		   "thousands of times slower than the program runs, not "
		   "the program's own speed",
};

const struct hwt_backend hwt_backend_sw_branch = {
	.name = "sw_branch",
	.pmu_name = NULL,
	/* The rate: swb_demo 3000 traced from main to exit (265,563
	 * instructions) on a 2-core AMD EPYC VM; see docs/sw-branch.md. */
#if defined(__x86_64__)
	.description = "software branch tracer (ptrace single-step, Intel "
		       "BTS records); slow: every instruction traps, "
		       "80,000 to 145,000 instructions/s measured",
#else
	/* Its captures still decode here; recording is refused. */
	.description = "software branch tracer: not supported on this "
		       "architecture (it steps x86-64 programs only); its "
		       "captures decode here",
#endif
	.auxtrace_type = HWT_AUXTRACE_INTEL_BTS,
	.aux_sampling = false,
	.record = &hwt_swb_record_ops,
	.decoder = &hwt_swb_decoder_ops,
	.clock = &swb_clock,
};
