/* The cs_etm decoder's snapshot_dir op: decode every usable trace buffer
 * of an OpenCSD snapshot directory, as OpenCSD's trc_pkt_lister does. The
 * core (core/decode/decode_snapshot.c) filters and disassembles. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HWT_HAVE_OPENCSD
#include "backends/arm-cs/cs_snapshot.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f;
	int err = hwt_infile_fopen(path, "trace buffer", 0, &f);
	if (err < 0)
		return err == HWT_ERR_CONFIG ? HWT_ERR_FORMAT : err;
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

/* One buffer's decode, its file already read: what params->run_buffer
 * may run in a sandboxed worker, which has no file to open. */
struct buffer_job {
	const struct hwt_cs_ss_buffer *b;
	struct hwt_image *image;
	const struct hwt_packet_sink *packets;
	const uint8_t *data;
	size_t size;
};

static int decode_read_buffer(void *ctx, const struct hwt_elem_sink *sink)
{
	const struct buffer_job *job = ctx;
	struct hwt_cs_tree *tree;
	int err = hwt_cs_tree_new(job->b->frame_flags, job->image, sink,
				  job->packets, &tree);
	if (err)
		return err;
	for (size_t i = 0; i < job->b->nsources && !err; i++)
		err = hwt_cs_tree_add_source(tree, &job->b->sources[i]);
	if (!err)
		err = hwt_cs_tree_feed(tree, job->data, job->size, 0);
	if (!err)
		err = hwt_cs_tree_eot(tree);
	hwt_cs_tree_free(tree);
	return err;
}

static int decode_buffer(const struct hwt_cs_ss_buffer *b,
			 const struct hwt_decode_params *params,
			 const struct hwt_packet_sink *packets)
{
	uint8_t *data = NULL;
	size_t size = 0;
	int err = read_file(b->path, &data, &size);
	if (err)
		return err;
	struct buffer_job job = {b, params->image, packets, data, size};
	if (!packets &&
	    params->size > offsetof(struct hwt_decode_params, run_buffer) &&
	    params->run_buffer) {
		char what[1024];
		snprintf(what, sizeof(what), "the snapshot's buffer %s (%s), "
			 "bytes 0x0-0x%zx", b->name, b->path, size);
		err = params->run_buffer(params->run_buffer_arg, what,
					 decode_read_buffer, &job);
	} else {
		err = decode_read_buffer(&job, params->sink);
	}
	free(data);
	return err;
}

int hwt_cs_decode_snapshot_dir(const char *dir,
			       const struct hwt_decode_params *params,
			       const struct hwt_packet_sink *packets)
{
	struct hwt_cs_snapshot *ss;
	int err = hwt_cs_snapshot_load(dir, &ss);
	if (err)
		return err;
	/* The CPUs the sources trace, for the core's --cpu warning. */
	if (params->size > offsetof(struct hwt_decode_params, on_source_cpu) &&
	    params->on_source_cpu)
		for (size_t i = 0; i < ss->nbuffers; i++)
			for (size_t j = 0; j < ss->buffers[i].nsources; j++)
				params->on_source_cpu(params->on_source_cpu_arg,
						      ss->buffers[i].sources[j].cpu);
	err = hwt_cs_snapshot_add_dumps(ss, params->image);
	if (!err && params->size > offsetof(struct hwt_decode_params, on_image) &&
	    params->on_image)
		params->on_image(params->on_image_arg, params->image);
	for (size_t i = 0; i < ss->nbuffers && !err; i++)
		err = decode_buffer(&ss->buffers[i], params, packets);
	hwt_cs_snapshot_free(ss);
	return err;
}
#endif
