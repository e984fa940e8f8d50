/* The help texts of hwtrace report and hwtrace export, apart from the
 * commands' runs. */
#ifndef HWT_TOOLS_STACK_USAGE_H
#define HWT_TOOLS_STACK_USAGE_H

#include <stdio.h>

void report_usage(FILE *out);
void export_usage(FILE *out);

#endif
