/* The cs_etm backend's entry in the core's table. */
#include "hwtrace/backend.h"

const struct hwt_backend hwt_backend_cs_etm = {
	.name = "cs_etm",
	.pmu_name = "cs_etm",
	.description = "Arm CoreSight ETM/ETE (ETR/ETF sinks, TRBE)",
	.auxtrace_type = HWT_AUXTRACE_CS_ETM,
	.aux_sampling = false,
	.no_decoder_reason = "the CoreSight decoder is not written yet",
};
