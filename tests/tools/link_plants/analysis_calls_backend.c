/* A violation planted by test_link_rules, as if in analysis/: it calls the
 * sw-branch backend's recorder. Built as an object and never linked: the
 * declaration stands in for the header the real code would include. */
#include <stddef.h>

int hwt_swb_record(const void *opts, void *result);
int plant_analysis_calls_backend(void);

int plant_analysis_calls_backend(void)
{
	return hwt_swb_record(NULL, NULL);
}
