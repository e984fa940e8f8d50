#include "hwtrace/decode.h"
#include "hwtrace/error.h"
int hwt_decode_file(const char *path, const struct hwt_decode_opts *opts,
		    const struct hwt_elem_sink *sink)
{
	return hwt_error(HWT_ERR_NOSUP, "%s: decoding is not available yet", path);
}
int hwt_decode_raw(const char *backend, const char *backend_options,
		   const char *trace_path, const struct hwt_decode_opts *opts,
		   const struct hwt_elem_sink *sink)
{
	return hwt_error(HWT_ERR_NOSUP, "%s: decoding is not available yet", trace_path);
}
