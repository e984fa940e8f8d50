/* A violation planted by test_link_rules, as if in backends/sw-branch/: it
 * names the x86-bts decoder's ops, as it once did. Built as an object and
 * never linked: the declaration stands in for the header the real code would
 * include. */
#include <stddef.h>

extern const int hwt_bts_decoder_ops;
int plant_backend_calls_backend(void);

int plant_backend_calls_backend(void)
{
	return hwt_bts_decoder_ops;
}
