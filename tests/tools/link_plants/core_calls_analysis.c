/* A violation planted by test_link_rules, as if in core/: it calls
 * analysis/'s edges writer. Built as an object and never linked: the
 * declaration stands in for the header the real code would include. */
#include <stddef.h>

#include <stdio.h>

int hwt_edges_write(const void *edges, FILE *out, int format);
int plant_core_calls_analysis(void);

int plant_core_calls_analysis(void)
{
	return hwt_edges_write(NULL, stdout, 0);
}
