#include "hwtrace/decode.h"
#include "hwtrace/error.h"
int hwt_decode_snapshot_dir(const char *dir, const struct hwt_decode_opts *opts,
			    const struct hwt_elem_sink *sink)
{
	return hwt_error(HWT_ERR_NOSUP, "%s: snapshot decoding is not available yet", dir);
}
