/* perf.data reader: the records inside COMPRESSED and COMPRESSED2 records
 * (perf record -z). perf compresses the data ring's bytes as one zstd
 * stream, flushed after each chunk and cut into records of at most 64 KiB,
 * so a record of the inner stream may start in one compressed record and
 * end in the next. The reader keeps a second window for the decompressed
 * bytes and switches to it while consecutive compressed records last;
 * memory stays bounded by the two windows, one compressed payload and
 * zstd's own window. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/error.h"

#define PD_COMP_ZSTD 1   /* HEADER_COMPRESSED's type for zstd */
#define NR_SEGMENTS 8

/* Where a stretch of the decompressed stream came from. */
struct segment {
	uint64_t dstart;   /* first decompressed byte offset */
	uint64_t file_off; /* of the compressed record */
	uint32_t type;     /* COMPRESSED or COMPRESSED2 */
};

struct pd_zstream {
	ZSTD_DStream *ds;
	uint8_t in[UINT16_MAX];
	size_t in_len, in_pos;
	uint64_t produced;
	struct segment seg[NR_SEGMENTS];
	unsigned nseg;     /* segments ever started */
	/* The other level's window while this one is read. */
	uint8_t *win;
	size_t win_pos, win_len;
	uint64_t pos, src_off;
};

static void swap_windows(struct hwt_pd_reader *r)
{
	struct pd_zstream *z = r->z;
	uint8_t *win = r->win;
	size_t win_pos = r->win_pos, win_len = r->win_len;
	uint64_t pos = r->pos, src_off = r->src_off;

	r->win = z->win;
	r->win_pos = z->win_pos;
	r->win_len = z->win_len;
	r->pos = z->pos;
	r->src_off = z->src_off;
	z->win = win;
	z->win_pos = win_pos;
	z->win_len = win_len;
	z->pos = pos;
	z->src_off = src_off;
	r->in_z = !r->in_z;
}

bool pd_is_compressed_type(uint32_t type)
{
	return type == HWT_PD_RECORD_COMPRESSED ||
	       type == HWT_PD_RECORD_COMPRESSED2;
}

uint64_t pd_z_file_offset(const struct hwt_pd_reader *r, uint64_t dpos)
{
	const struct pd_zstream *z = r->z;
	unsigned first = z->nseg > NR_SEGMENTS ? z->nseg - NR_SEGMENTS : 0;

	for (unsigned i = z->nseg; i-- > first;)
		if (z->seg[i % NR_SEGMENTS].dstart <= dpos)
			return z->seg[i % NR_SEGMENTS].file_off;
	return z->nseg ? z->seg[first % NR_SEGMENTS].file_off : 0;
}

/* Takes the payload of the compressed record @rec (whole in the outer
 * window, at the outer pos) as the decompressor's next input. */
static int take_payload(struct hwt_pd_reader *r, const uint8_t *rec,
			uint32_t type, uint16_t size, uint64_t file_off)
{
	struct pd_zstream *z = r->z;
	const uint8_t *data = rec + PD_EVENT_HEADER_SIZE;
	size_t len = size - PD_EVENT_HEADER_SIZE;

	if (type == HWT_PD_RECORD_COMPRESSED2) {
		uint64_t dsize = size >= 16 ? pd_u64(rec + 8) : UINT64_MAX;

		if (dsize > (uint64_t)size - 16)
			return hwt_error(HWT_ERR_FORMAT, "%s: record COMPRESSED2 (83) at "
					 "byte offset %" PRIu64 " says it holds %"
					 PRIu64 " bytes of data, more than its "
					 "size %u allows", r->path, file_off,
					 dsize, size);
		data = rec + 16;
		len = (size_t)dsize;
	}
	memcpy(z->in, data, len);
	z->in_len = len;
	z->in_pos = 0;
	z->seg[z->nseg % NR_SEGMENTS].dstart = z->produced;
	z->seg[z->nseg % NR_SEGMENTS].file_off = file_off;
	z->seg[z->nseg % NR_SEGMENTS].type = type;
	z->nseg++;
	r->counts[type]++;
	return 0;
}

static int check_method(struct hwt_pd_reader *r, uint64_t file_off)
{
	const struct feature *f = &r->features[HWT_PD_FEAT_COMPRESSED];
	uint32_t method;

	/* Without the feature (older pipe streams) perf assumes zstd. */
	if (!f->data || f->size < 8)
		return 0;
	method = pd_u32(f->data + 4);
	if (method == PD_COMP_ZSTD)
		return 0;
	return hwt_error(HWT_ERR_NOSUP, "%s: record COMPRESSED (81) at byte "
			 "offset %" PRIu64 " uses compression type %u (the compressed "
			 "feature); hwtrace reads zstd (type 1) only", r->path,
			 file_off, method);
}

int pd_z_enter(struct hwt_pd_reader *r, const uint8_t *rec, uint32_t type,
	       uint16_t size)
{
	uint64_t file_off = r->pos;
	int err;

	if ((err = check_method(r, file_off)))
		return err;
	if (!r->z) {
		r->z = calloc(1, sizeof(*r->z));
		if (r->z)
			r->z->win = malloc(WINDOW_SIZE);
		if (r->z && r->z->win)
			r->z->ds = ZSTD_createDStream();
		if (!r->z || !r->z->ds)
			return hwt_error(HWT_ERR_NOMEM, "%s: out of memory for "
					 "the zstd decompressor", r->path);
		ZSTD_initDStream(r->z->ds);
	}
	if ((err = take_payload(r, rec, type, size, file_off)))
		return err;
	/* The compressed record is consumed from the file's window. */
	r->win_pos += size;
	r->pos += size;
	swap_windows(r);
	r->win_pos = r->win_len = 0;
	r->src_off = r->pos = r->z->produced;
	return 0;
}

void pd_z_leave(struct hwt_pd_reader *r)
{
	if (r->in_z)
		swap_windows(r);
}

/* Takes the next record of the file as input when it is a compressed one
 * too. Returns 1 when it did, 0 when the file goes on with something else
 * (or ends), or an error. */
static int next_payload(struct hwt_pd_reader *r)
{
	const uint8_t *p;
	uint32_t type;
	uint16_t size;
	ssize_t n;
	int ret = 0;

	swap_windows(r);
	n = pd_reader_fill(r, PD_EVENT_HEADER_SIZE);
	if (n < 0) {
		ret = (int)n;
		goto out;
	}
	if (n < PD_EVENT_HEADER_SIZE)
		goto out;
	p = r->win + r->win_pos;
	type = pd_u32(p);
	size = pd_u16(p + 6);
	if (!pd_is_compressed_type(type) || size < PD_EVENT_HEADER_SIZE)
		goto out;
	n = pd_reader_fill(r, size);
	if (n < 0) {
		ret = (int)n;
		goto out;
	}
	if (n < size) {
		ret = hwt_error(HWT_ERR_TRUNCATED, "%s: record %s (%u) at byte "
				"offset %" PRIu64 " is cut short: %zd of its %u "
				"bytes are in the file", r->path,
				hwt_pd_record_type_name(type), type, r->pos, n,
				size);
		goto out;
	}
	p = r->win + r->win_pos;
	ret = take_payload(r, p, type, size, r->pos);
	if (!ret) {
		r->win_pos += size;
		r->pos += size;
		ret = 1;
	}
out:
	swap_windows(r);
	return ret;
}

ssize_t pd_z_read(struct hwt_pd_reader *r, void *buf, size_t len)
{
	struct pd_zstream *z = r->z;

	for (;;) {
		ZSTD_outBuffer out = {buf, len, 0};
		ZSTD_inBuffer in = {z->in, z->in_len, z->in_pos};
		size_t ret = ZSTD_decompressStream(z->ds, &out, &in);
		int more;

		z->in_pos = in.pos;
		if (ZSTD_isError(ret)) {
			const struct segment *sg = &z->seg[(z->nseg - 1) % NR_SEGMENTS];

			return hwt_error(HWT_ERR_FORMAT, "%s: record %s (%u) at "
					 "byte offset %" PRIu64 ": its zstd data "
					 "is corrupt (%s); the records before it "
					 "are intact", r->path,
					 hwt_pd_record_type_name(sg->type), sg->type,
					 sg->file_off, ZSTD_getErrorName(ret));
		}
		z->produced += out.pos;
		if (out.pos > 0)
			return (ssize_t)out.pos;
		if (z->in_pos < z->in_len)
			continue;
		more = next_payload(r);
		if (more <= 0)
			return more;
	}
}

void pd_z_free(struct hwt_pd_reader *r)
{
	if (!r->z)
		return;
	pd_z_leave(r);
	ZSTD_freeDStream(r->z->ds);
	free(r->z->win);
	free(r->z);
	r->z = NULL;
}
