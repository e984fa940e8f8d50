/* hwt_decode_snapshot_dir: decode every usable trace buffer of an OpenCSD
 * snapshot directory, as OpenCSD's trc_pkt_lister does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/decode.h"
#include "hwtrace/error.h"

#ifdef HWT_HAVE_OPENCSD
#include "backends/arm-cs/cs_snapshot.h"
#include "core/decode/decode_internal.h"
#include "core/decode/insn.h"

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return hwt_error(HWT_ERR_NOENT,
				 "%s: trace buffer named by the snapshot "
				 "cannot be opened (%s)", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		uint8_t *p = realloc(buf, cap * 2);
		if (!p) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		cap *= 2;
	}
	int io = ferror(f);
	fclose(f);
	if (!buf)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", path);
	if (io) {
		free(buf);
		return hwt_error(HWT_ERR_IO, "%s: read failed", path);
	}
	*data = buf;
	*size = n;
	return 0;
}

static int decode_buffer(const struct hwt_cs_ss_buffer *b,
			 struct hwt_image *image,
			 const struct hwt_decode_opts *opts,
			 const struct hwt_elem_sink *sink)
{
	struct hwt_cs_tree *tree;
	uint8_t *data = NULL;
	size_t size = 0;
	int err = read_file(b->path, &data, &size);
	if (err)
		return err;
	err = hwt_cs_tree_new(b->frame_flags, image, sink, opts->packets,
			      &tree);
	if (err) {
		free(data);
		return err;
	}
	for (size_t i = 0; i < b->nsources && !err; i++)
		err = hwt_cs_tree_add_source(tree, &b->sources[i]);
	if (!err)
		err = hwt_cs_tree_feed(tree, data, size, 0);
	if (!err)
		err = hwt_cs_tree_eot(tree);
	hwt_cs_tree_free(tree);
	free(data);
	return err;
}

int hwt_decode_snapshot_dir(const char *dir,
			    const struct hwt_decode_opts *opts_in,
			    const struct hwt_elem_sink *user_sink)
{
	struct hwt_cs_snapshot *ss;
	struct hwt_decode_opts o;
	const struct hwt_decode_opts *opts = &o;
	if (!dir || (!user_sink && !(opts_in && opts_in->packets)))
		return hwt_error(HWT_ERR_INVAL,
				 "hwt_decode_snapshot_dir: no directory or sink");
	int err = hwt_decode_opts_copy(opts_in, &o);
	if (err)
		return err;
	/* --cpu, --tid and --time apply as to any other input. */
	struct hwt_decode_filter filter = {.opts = opts, .next = user_sink};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	const struct hwt_elem_sink *sink =
		hwt_decode_has_filter(opts) ? &fsink : user_sink;
	err = hwt_cs_snapshot_load(dir, &ss);
	if (err)
		return err;
	struct hwt_image *image = hwt_image_new();
	if (!image) {
		hwt_cs_snapshot_free(ss);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	err = hwt_cs_snapshot_add_dumps(ss, image);
	/* --disasm: ranges as instructions with their text. */
	struct hwt_disasm *dis = NULL;
	struct hwt_elem_sink dsink;
	if (!err && opts->disasm && !opts->packets && sink &&
	    !(err = hwt_disasm_new(image, sink, &dis))) {
		dsink = hwt_disasm_sink(dis);
		sink = &dsink;
	}
	for (size_t i = 0; i < ss->nbuffers && !err; i++)
		err = decode_buffer(&ss->buffers[i], image, opts, sink);
	hwt_disasm_free(dis);
	hwt_image_free(image);
	hwt_cs_snapshot_free(ss);
	return err;
}
#else
int hwt_decode_snapshot_dir(const char *dir, const struct hwt_decode_opts *opts,
			    const struct hwt_elem_sink *sink)
{
	(void)opts;
	(void)sink;
	return hwt_error(HWT_ERR_NOSUP,
			 "%s: hwtrace was built without OpenCSD, which "
			 "snapshot decoding needs (install libopencsd-dev and "
			 "rebuild with HWT_WITH_OPENCSD=ON)", dir);
}
#endif
