/* The intel_pt backend's entry in the core's table. */
#include "hwtrace/backend.h"

extern const struct hwt_record_ops hwt_pt_record_ops;
#ifdef HWT_HAVE_LIBIPT
extern const struct hwt_decoder_ops hwt_pt_decoder_ops;
#endif

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
};
