/* A decode's input as `hwtrace decode` takes it, one of three kinds: a
 * perf.data capture (FILE), a snapshot directory (--snapshot DIR) or a
 * raw trace stream with its backend (--raw BACKEND[,OPTS]:TRACE), and
 * the one call that decodes whichever it is. A script that offers the
 * same inputs reads --raw's spelling with the same rule and message. */
#ifndef HWTRACE_DECODE_INPUT_H
#define HWTRACE_DECODE_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "hwtrace/capture.h"
#include "hwtrace/common.h"
#include "hwtrace/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_decode_input {
	size_t size;                 /* sizeof(struct hwt_decode_input) */
	enum hwt_capture_kind kind;
	/* The perf.data file ("-": a pipe), the snapshot directory or the
	 * raw trace. Borrowed. */
	const char *path;
	/* Raw: the backend's name ("intel_pt", "cs_etm", ...) and its
	 * options after the comma (NULL: none), as hwt_decode_raw takes
	 * them. Borrowed. */
	const char *backend, *backend_options;
};

/* Reads --raw's BACKEND[,OPTS]:TRACE: @spec is split in place (the
 * first ':' ends the backend part, whose first ',' starts its options)
 * and @in points into it, kind HWT_CAPTURE_RAW (its size set). Returns 0,
 * or HWT_ERR_CONFIG "--raw SPEC: expected BACKEND[,OPTS]:TRACE" (no ':',
 * nothing before it or after it; @spec then unchanged), HWT_ERR_INVAL for
 * NULL arguments. */
HWT_API int hwt_decode_raw_spec_parse(char *spec, struct hwt_decode_input *in);

/* Reads --map FILE@ADDR (@elf false) or --elf FILE[@BIAS] (@elf true):
 * the last '@' splits @spec in place and *out points into it. An --elf
 * whose '@' is the first byte or is not followed by a number names a file holding an '@', with
 * bias 0; a --map has to have both. The number is read by
 * hwt_value_parse_u64 (decimal, 0x hexadecimal, octal with a leading 0). Returns 0, or HWT_ERR_CONFIG "--map
 * SPEC: expected FILE@ADDR" (@spec then unchanged), HWT_ERR_INVAL for
 * NULL arguments. */
HWT_API int hwt_decode_map_spec_parse(char *spec, bool elf,
				      struct hwt_map_spec *out);

/* Refuses an input that cannot be what its kind says before anything
 * is opened: a perf.data FILE that is a directory, told to decode it
 * with --snapshot DIR when it holds an OpenCSD snapshot.ini. Returns 0
 * (also for a path that is not there: the decode says so), or
 * HWT_ERR_CONFIG "PATH is a directory, ..." naming the option to use,
 * HWT_ERR_INVAL for a NULL or short @in. */
HWT_API int hwt_decode_input_check(const struct hwt_decode_input *in);

/* Refuses options that name a path that is not there, or not of its
 * kind, before anything is opened: --symfs, --buildid-dir and --kcore
 * (@opts->lookup.symfs, .buildid_dir, @opts->kcore) must be directories,
 * --vmlinux (@opts->lookup.vmlinux) a file; a path not given is not
 * checked. Returns 0, or HWT_ERR_CONFIG "OPTION PATH: the directory does
 * not exist" (or "...: not a file", "...: not a directory", "...: " and
 * the system's reason), in the order above; HWT_ERR_INVAL for NULL. */
HWT_API int hwt_decode_opts_paths_check(const struct hwt_decode_opts *opts);

/* Decodes @in into @sink with @opts: hwt_decode_file, hwt_decode_raw or
 * hwt_decode_snapshot_dir, whose errors it returns; HWT_ERR_INVAL for a
 * NULL or short @in, no path, or a raw input without a backend. */
HWT_API int hwt_decode_input(const struct hwt_decode_input *in,
			     const struct hwt_decode_opts *opts,
			     const struct hwt_elem_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
