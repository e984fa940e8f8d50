/* A decode's input by kind, and --raw's spelling of one
 * (hwtrace/decode_input.h). */
#include <string.h>

#include "hwtrace/decode_input.h"
#include "hwtrace/error.h"

int hwt_decode_raw_spec_parse(char *spec, struct hwt_decode_input *in)
{
	if (!spec || !in)
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_raw_spec_parse: "
				 "no spec or no input to fill");
	char *colon = strchr(spec, ':');
	if (!colon || colon == spec || !colon[1])
		return hwt_error(HWT_ERR_CONFIG, "--raw %s: expected "
				 "BACKEND[,OPTS]:TRACE", spec);
	/* A trace's path may hold commas and colons; a backend's name
	 * holds neither. */
	*colon = 0;
	char *options = strchr(spec, ',');
	if (options)
		*options++ = 0;
	*in = (struct hwt_decode_input){
		.size = sizeof(*in),
		.kind = HWT_CAPTURE_RAW,
		.path = colon + 1,
		.backend = spec,
		.backend_options = options,
	};
	return 0;
}

int hwt_decode_input(const struct hwt_decode_input *in,
		     const struct hwt_decode_opts *opts,
		     const struct hwt_elem_sink *sink)
{
	if (!in || in->size < sizeof(*in) || !in->path ||
	    (in->kind == HWT_CAPTURE_RAW && !in->backend))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_input: no input, "
				 "its size not set, no path, or a raw trace "
				 "without its backend");
	switch (in->kind) {
	case HWT_CAPTURE_SNAPSHOT_DIR:
		return hwt_decode_snapshot_dir(in->path, opts, sink);
	case HWT_CAPTURE_RAW:
		return hwt_decode_raw(in->backend, in->backend_options,
				      in->path, opts, sink);
	case HWT_CAPTURE_PERF_DATA:
		break;
	}
	return hwt_decode_file(in->path, opts, sink);
}
