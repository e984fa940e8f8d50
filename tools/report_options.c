#include "cli.h"
#include "hwtrace/report_request.h"
#include "report_options.h"

int cli_report_weight(const char *cmd, const char *text,
		      enum hwt_report_weight *weight)
{
	if (hwt_report_weight_parse(text, weight))
		return cli_usage_error(cmd, "--weight %s: use insns, time or "
				       "calls", text);
	return 0;
}

int cli_report_top(const char *cmd, const char *text, uint64_t *top)
{
	return cli_number_u64(&(struct cli_number){cmd, "--top", 0, 1000000000,
			"a count from 0 (all) to 1000000000"}, text, top);
}
