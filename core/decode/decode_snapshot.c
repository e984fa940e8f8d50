/* hwt_decode_snapshot_dir: the core's half of `decode --snapshot DIR`.
 * The directory's format belongs to a backend (its decoder's snapshot_dir
 * op); the filters and --disasm are the core's, as for every input. */
#include <stdlib.h>

#include "core/decode/decode_internal.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/insn.h"

/* The backend that reads snapshot directories. Only CoreSight defines the
 * format today; when its decoder is missing, its reason is the answer. */
static int find_snapshot_backend(const char *dir,
				 const struct hwt_backend **out)
{
	const struct hwt_backend *b;
	for (size_t i = 0; (b = hwt_backend_at(i)); i++)
		if (b->decoder && b->decoder->snapshot_dir) {
			*out = b;
			return 0;
		}
	const struct hwt_backend *cs = hwt_backend_find("cs_etm");
	return hwt_error(HWT_ERR_NOSUP,
			 "%s: no decoder in this build reads snapshot "
			 "directories: %s", dir,
			 cs && cs->no_decoder_reason ? cs->no_decoder_reason
						     : "none registered");
}

int hwt_decode_snapshot_dir(const char *dir,
			    const struct hwt_decode_opts *opts_in,
			    const struct hwt_elem_sink *user_sink)
{
	struct hwt_decode_opts opts;
	if (!dir || (!user_sink && !hwt_decode_opts_list_packets(opts_in)))
		return hwt_error(HWT_ERR_INVAL,
				 "hwt_decode_snapshot_dir: no directory or sink");
	int err = hwt_decode_opts_copy(opts_in, &opts);
	if (err)
		return err;
	const struct hwt_backend *backend = NULL;
	err = find_snapshot_backend(dir, &backend);
	if (err)
		return err;
	/* --cpu, --tid and --time apply as to any other input. */
	struct hwt_decode_filter filter = {.opts = &opts, .next = user_sink};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	const struct hwt_elem_sink *sink =
		hwt_decode_has_filter(&opts) ? &fsink : user_sink;
	struct hwt_image *image = hwt_image_new();
	if (!image)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	/* --disasm: ranges as instructions with their text. The disasm sink
	 * reads the image when elements pass, after the backend has loaded
	 * the directory's memory dumps into it. */
	struct hwt_disasm *dis = NULL;
	struct hwt_elem_sink dsink;
	if (opts.disasm && !opts.packet_sink.packet && sink &&
	    !(err = hwt_disasm_new(image, sink, &dis))) {
		dsink = hwt_disasm_sink(dis);
		sink = &dsink;
	}
	struct hwt_decode_params params = {
		.size = sizeof(params),
		.image = image,
		.sink = sink,
		.cpu_model = opts.cpu_model,
		.disasm = opts.disasm,
		.on_image = opts.on_image,
		.on_image_arg = opts.on_image_arg,
	};
	if (!err)
		err = backend->decoder->snapshot_dir(
			dir, &params, opts.packet_sink.packet ? &opts.packet_sink : NULL);
	hwt_disasm_free(dis);
	hwt_image_free(image);
	return err;
}
