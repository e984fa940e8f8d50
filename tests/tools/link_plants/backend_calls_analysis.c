/* A violation planted by test_link_rules, as if in backends/x86-pt/: it
 * calls analysis/'s output writer. Built as an object and never linked: the
 * declaration stands in for the header the real code would include. */
#include <stddef.h>

#include <stdio.h>

void *hwt_output_new(FILE *out, int format);
int plant_backend_calls_analysis(void);

int plant_backend_calls_analysis(void)
{
	return hwt_output_new(stdout, 0) != NULL;
}
