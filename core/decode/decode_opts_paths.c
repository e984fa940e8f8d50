/* The paths a decode's options name, checked before anything is opened
 * (hwt_decode_opts_paths_check, hwtrace/decode_input.h): a --symfs that
 * is not there would decode as if it were not given, silently. */
#include "hwtrace/decode_input.h"
#include "hwtrace/error.h"
#include "hwtrace/value.h"

int hwt_decode_opts_paths_check(const struct hwt_decode_opts *opts)
{
	if (!opts)
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_opts_paths_check: "
				 "no options");
	const struct { const char *opt, *path; bool dir; } paths[] = {
		{"--symfs", opts->lookup.symfs, true},
		{"--buildid-dir", opts->lookup.buildid_dir, true},
		{"--kcore", opts->kcore, true},
		{"--vmlinux", opts->lookup.vmlinux, false},
	};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int err = paths[i].path ? hwt_value_check_path(paths[i].opt,
							       paths[i].path, paths[i].dir) : 0;
		if (err)
			return err;
	}
	return 0;
}
