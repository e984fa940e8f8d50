/* The cs_etm backend's entry in the core's table. */
#include "hwtrace/backend.h"

extern const struct hwt_record_ops hwt_cs_record_ops;
#ifdef HWT_HAVE_OPENCSD
extern const struct hwt_decoder_ops hwt_cs_decoder_ops;
#endif

/* What its elements' time measures, for report's header. */
static const struct hwt_trace_clock cs_clock = {
	.unit = "ticks",
	.meaning = "CoreSight timestamps as the trace carries them "
		   "(the system's timestamp counter, not converted to ns)",
};

const struct hwt_backend hwt_backend_cs_etm = {
	.name = "cs_etm",
	.pmu_name = "cs_etm",
	.description = "Arm CoreSight ETM/ETE (ETR/ETF sinks, TRBE)",
	.auxtrace_type = HWT_AUXTRACE_CS_ETM,
	.aux_sampling = false,
	.record = &hwt_cs_record_ops,
#ifdef HWT_HAVE_OPENCSD
	.decoder = &hwt_cs_decoder_ops,
#endif
	.no_decoder_reason = "hwtrace was built without OpenCSD "
			     "(rebuild with libopencsd-dev installed and HWT_WITH_OPENCSD=ON)",
	.clock = &cs_clock,
};
