/* A decode's input by kind, and --raw's spelling of one
 * (hwtrace/decode_input.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwtrace/decode_input.h"
#include "hwtrace/error.h"
#include "hwtrace/value.h"

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

int hwt_decode_map_spec_parse(char *spec, bool elf, struct hwt_map_spec *out)
{
	if (!spec || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_map_spec_parse: "
				 "no spec or no map to fill");
	char *at = strrchr(spec, '@');
	uint64_t addr = 0;
	bool split = at && at != spec &&
		     hwt_value_parse_u64(at + 1, &addr) == HWT_VALUE_OK;
	if (!split && !elf)
		return hwt_error(HWT_ERR_CONFIG, "--map %s: expected FILE@ADDR",
				 spec);
	if (split)
		*at = 0;
	else
		addr = 0; /* --elf FILE: no bias (an '@' of the file's name) */
	*out = (struct hwt_map_spec){spec, addr};
	return 0;
}

int hwt_decode_input_check(const struct hwt_decode_input *in)
{
	if (!in || in->size < sizeof(*in))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_input_check: no "
				 "input or its size not set");
	struct stat st;
	if (in->kind != HWT_CAPTURE_PERF_DATA || !in->path ||
	    stat(in->path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	/* A directory is a snapshot given without --snapshot, or a
	 * mistake: either way no decode could read it as perf.data. */
	char ini[4096];
	snprintf(ini, sizeof(ini), "%s/snapshot.ini", in->path);
	if (!access(ini, F_OK))
		return hwt_error(HWT_ERR_CONFIG, "%s is a directory, an OpenCSD "
				 "snapshot (it holds snapshot.ini): decode it "
				 "with --snapshot %s", in->path, in->path);
	return hwt_error(HWT_ERR_CONFIG, "%s is a directory, not a perf.data "
			 "capture (a snapshot directory is given with "
			 "--snapshot DIR)", in->path);
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
