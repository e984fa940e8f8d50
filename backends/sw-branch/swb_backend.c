/* The sw_branch backend's entry in the core's table. It writes Intel BTS
 * records, so its captures are decoded by the intel_bts decoder, which
 * swb_decoder.c reaches through the backend table. */
#include <string.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/swbranch.h"

extern const struct hwt_decoder_ops hwt_swb_decoder_ops;

/* "sw_branch", "sw_branch//", "sw_branch//u" and "sw_branch/u": it has
 * no hardware to configure, and traces user code only. */
static int swb_check_event(const char *event)
{
	if (!strcmp(event, "sw_branch") || !strcmp(event, "sw_branch//") ||
	    !strcmp(event, "sw_branch//u") || !strcmp(event, "sw_branch/u"))
		return 0;
	return hwt_error(HWT_ERR_CONFIG, "-e %s: sw_branch takes no terms and "
			 "only the u modifier (sw_branch, sw_branch//u): it "
			 "traces user code by stepping it, with no hardware to "
			 "configure", event);
}

static const struct hwt_program_ops swb_program_ops = {
	.check_event = swb_check_event,
	.check_trigger = hwt_swb_trigger_check,
	.record = hwt_swb_record,
};

/* The recording half as the core sees it: no PMU to configure, no
 * AUXTRACE_INFO op (the stepper writes its own); hwt_recorder drives it
 * as a trace source of its own. */
static const struct hwt_record_ops hwt_swb_record_ops = {
	.program = &swb_program_ops,
};

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
