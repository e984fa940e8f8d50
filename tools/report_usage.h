/* hwtrace report --help, apart from the command's run. */
#ifndef HWT_TOOLS_REPORT_USAGE_H
#define HWT_TOOLS_REPORT_USAGE_H

#include <stdio.h>

void report_usage(FILE *out);

#endif
