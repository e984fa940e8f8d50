/* hwt_trace_hw_scan (hwtrace/trace_hw.h): the trace PMUs and the branch
 * records of one sysfs tree, read once for `hwtrace list`. */
#include <stdio.h>
#include <stdlib.h>

#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/trace_hw.h"

int hwt_trace_hw_scan(const struct hwt_os *os, struct hwt_trace_hw **out)
{
	struct hwt_trace_hw *hw = calloc(1, sizeof(*hw));
	int err;

	*out = NULL;
	if (!hw)
		return hwt_error(HWT_ERR_NOMEM, "no memory for the PMU list");
	err = hwt_pmu_scan(os, &hw->pmus);
	if (err) {
		free(hw);
		return err;
	}
	hw->branch_status = hwt_branch_hw_probe(os, &hw->branch);
	if (hw->branch_status < 0 && hw->branch_status != HWT_ERR_NOENT) {
		/* Kept as text: the next library call replaces the message. */
		snprintf(hw->branch_error, sizeof(hw->branch_error), "%s",
			 hwt_errmsg());
		hwt_error_clear();
	}
	*out = hw;
	return 0;
}

void hwt_trace_hw_free(struct hwt_trace_hw *hw)
{
	if (!hw)
		return;
	hwt_pmu_list_free(hw->pmus);
	free(hw);
}
