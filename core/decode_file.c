/* perf.data captures: placeholder until the pipeline lands. */
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

int hwt_decode_file(const char *path, const struct hwt_decode_opts *opts,
		    const struct hwt_elem_sink *sink)
{
	(void)opts;
	(void)sink;
	return hwt_error(HWT_ERR_NOSUP, "%s: decoding is not available yet", path);
}
