/* The "decoders:" line that `hwtrace list` and `hwtrace info` print
 * (hwtrace/backend.h): which registered backends can decode in this
 * build, and why the others cannot. */
#include <stdio.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"

int hwt_backends_print_decoders(FILE *out, const char *label)
{
	const struct hwt_backend *b;
	size_t i;
	int n = 0;

	fprintf(out, "%s", label);
	for (i = 0; (b = hwt_backend_at(i)); i++)
		if (b->decoder)
			fprintf(out, "%s%s", n++ ? ", " : " ", b->name);
	if (!n)
		fprintf(out, " none");
	fprintf(out, "\n");
	for (i = 0; (b = hwt_backend_at(i)); i++)
		if (!b->decoder)
			fprintf(out, "  %s: no decoder: %s\n", b->name,
				b->no_decoder_reason ? b->no_decoder_reason :
						       "unknown reason");
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the list of decoders failed");
	return 0;
}
