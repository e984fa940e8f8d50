#include "analysis/export/export_internal.h"
#include "hwtrace/error.h"
const struct export_format hwt_export_pprof_format;
int hwt_export_pprof_open(struct hwt_export *ex)
{
	(void)ex;
	return hwt_error(HWT_ERR_NOSUP, "pprof export: not yet");
}
