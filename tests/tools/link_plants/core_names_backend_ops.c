/* A violation planted by test_link_rules, as if in core/: it names a
 * backend's decoder ops instead of its table. Built as an object and never
 * linked: the declaration stands in for the header the real code would
 * include. */
#include <stddef.h>

extern const int hwt_bts_decoder_ops;
int plant_core_names_backend_ops(void);

int plant_core_names_backend_ops(void)
{
	return hwt_bts_decoder_ops;
}
