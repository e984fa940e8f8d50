/* The "decoders:" line of `hwtrace list` and `hwtrace info`: which
 * backends' decoders this build has, so a user on a board (an arm64 build
 * has no libipt) sees before decoding what it can decode. */
#include <stdio.h>

#include "cli.h"
#include "hwtrace/backend.h"

void cli_print_decoders(const char *label)
{
	const struct hwt_backend *b;
	size_t i;
	int n = 0;

	printf("%s", label);
	for (i = 0; (b = hwt_backend_at(i)); i++)
		if (b->decoder)
			printf("%s%s", n++ ? ", " : " ", b->name);
	if (!n)
		printf(" none");
	printf("\n");
	for (i = 0; (b = hwt_backend_at(i)); i++)
		if (!b->decoder)
			printf("  %s: no decoder: %s\n", b->name,
			       b->no_decoder_reason ? b->no_decoder_reason :
						      "unknown reason");
}
