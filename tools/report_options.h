/* The table and folded-stack options that `report` and `merge` share. */
#ifndef HWT_TOOLS_REPORT_OPTIONS_H
#define HWT_TOOLS_REPORT_OPTIONS_H

#include <stdint.h>

#include "hwtrace/report.h"

/* --weight insns|time|calls of command @cmd: 0, or EXIT_USAGE after
 * printing why @text is none of them. */
int cli_report_weight(const char *cmd, const char *text,
		      enum hwt_report_weight *weight);

/* --top N (0: all): 0, or EXIT_USAGE after printing why @text is wrong. */
int cli_report_top(const char *cmd, const char *text, uint64_t *top);

#endif
