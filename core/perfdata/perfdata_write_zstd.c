/* perf.data writer: zstd compression (perf record -z). Kernel records are
 * compressed as perf compresses its data rings: one zstd stream for the
 * whole file, flushed at the end of each run of records and cut into
 * COMPRESSED records of at most 64 KiB. Records hwtrace adds itself
 * (AUXTRACE_INFO, TIME_CONV, FINISHED_ROUND, ...) stay as they are, in
 * their place, and so do AUX records (see pd_writer_compresses). AUXTRACE records and their payloads stay uncompressed
 * unless asked: perf reads AUX data by file offset and cannot find it
 * inside compressed records, so such a file is for hwtrace only. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/perfdata/perfdata_writer_internal.h"
#include "hwtrace/error.h"

/* Input per flush: what one COMPRESSED record decompresses to at most, so
 * that perf's decompression buffer (HEADER_COMPRESSED's mmap_len) holds it. */
#define CHUNK_IN (64 * 1024)
#define MMAP_LEN (256 * 1024)
/* perf's bound: a record's size is 16 bits. */
#define MAX_PAYLOAD (UINT16_MAX - PD_EVENT_HEADER_SIZE)

struct pd_wzstd {
	ZSTD_CStream *cs;
	int level;
	bool aux;
	uint64_t bytes_in, bytes_out;
	uint8_t rec[UINT16_MAX];
	size_t rec_len;   /* header included; 0 when no record is open */
	struct pd_buf out;
};

int hwt_pd_writer_set_compression(struct hwt_pd_writer *w, int level,
				  unsigned flags)
{
	struct pd_wzstd *z;

	if (w->started)
		return hwt_error(HWT_ERR_INVAL, "%s: compression must be set "
				 "before the first record", w->path);
	if (level < 1 || level > ZSTD_maxCLevel())
		return hwt_error(HWT_ERR_INVAL, "%s: compression level %d; "
				 "zstd levels are 1-%d", w->path, level,
				 ZSTD_maxCLevel());
	if (w->z) {
		ZSTD_freeCStream(w->z->cs);
		pd_buf_free(&w->z->out);
		free(w->z);
	}
	z = calloc(1, sizeof(*z));
	if (!z || !(z->cs = ZSTD_createCStream())) {
		free(z);
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory for the zstd "
				 "compressor", w->path);
	}
	ZSTD_initCStream(z->cs, level);
	z->level = level;
	z->aux = flags & HWT_PD_COMPRESS_AUX;
	w->z = z;
	return 0;
}

bool pd_writer_compresses(const struct hwt_pd_writer *w, uint32_t type)
{
	if (!w->z)
		return false;
	if (type == HWT_PD_RECORD_AUXTRACE)
		return w->z->aux;
	/* perf's CoreSight decoder finds AUX records by walking the file's
	 * records without decompressing them (perf_session__peek_events);
	 * kept plain, they let it queue the trace as for an uncompressed
	 * file. They are few: one per AUX write. */
	if (type == PERF_RECORD_AUX)
		return false;
	return type < PD_USER_TYPE_START;
}

static void close_record(struct pd_wzstd *z)
{
	if (z->rec_len <= PD_EVENT_HEADER_SIZE)
		return;
	pd_put32(z->rec, HWT_PD_RECORD_COMPRESSED);
	pd_put16(z->rec + 4, 0);
	pd_put16(z->rec + 6, (uint16_t)z->rec_len);
	pd_buf_put(&z->out, z->rec, z->rec_len);
	z->bytes_out += z->rec_len;
	z->rec_len = 0;
}

/* Compresses @len bytes of records (or of a record's payload) into
 * COMPRESSED records in z->out, flushing the stream at the end. */
static int compress(struct hwt_pd_writer *w, const uint8_t *data, size_t len)
{
	struct pd_wzstd *z = w->z;

	while (len > 0) {
		size_t take = len < CHUNK_IN ? len : CHUNK_IN;
		ZSTD_inBuffer in = {data, take, 0};
		size_t left;

		z->rec_len = PD_EVENT_HEADER_SIZE;
		do {
			ZSTD_outBuffer out = {z->rec + z->rec_len,
					      PD_EVENT_HEADER_SIZE + MAX_PAYLOAD -
					      z->rec_len, 0};

			left = ZSTD_compressStream2(z->cs, &out, &in, ZSTD_e_flush);
			if (ZSTD_isError(left))
				return hwt_error(HWT_ERR_INVAL, "%s: zstd: %s",
						 w->path, ZSTD_getErrorName(left));
			z->rec_len += out.pos;
			if (z->rec_len == PD_EVENT_HEADER_SIZE + MAX_PAYLOAD) {
				close_record(z);
				z->rec_len = PD_EVENT_HEADER_SIZE;
			}
		} while (left > 0 || in.pos < in.size);
		close_record(z);
		z->bytes_in += take;
		data += take;
		len -= take;
	}
	return 0;
}

/* Hands out what was put in z->out, unless memory ran out on the way. */
static int output(struct hwt_pd_writer *w, uint8_t **out, size_t *out_len)
{
	if (w->z->out.oom)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory compressing",
				 w->path);
	*out = w->z->out.p;
	*out_len = w->z->out.len;
	return 0;
}

int pd_writer_compress_records(struct hwt_pd_writer *w, const uint8_t *buf,
			       size_t len, uint8_t **out, size_t *out_len)
{
	struct pd_wzstd *z = w->z;
	size_t pos = 0, run = 0;
	bool in_run = false;
	int err;

	z->out.len = 0;
	while (pos + PD_EVENT_HEADER_SIZE <= len) {
		uint32_t type = pd_u32(buf + pos);
		uint16_t size = pd_u16(buf + pos + 6);
		size_t next = pos + size +
			      (size_t)pd_trailing_bytes(buf + pos, type, size);
		bool comp = pd_writer_compresses(w, type);

		if (comp && !in_run) {
			run = pos;
			in_run = true;
		} else if (!comp) {
			if (in_run && (err = compress(w, buf + run, pos - run)))
				return err;
			in_run = false;
			/* Plain records, and where AUXTRACE records now sit. */
			pd_writer_moved(w, type, pos, z->out.len);
			pd_buf_put(&z->out, buf + pos, next - pos);
		}
		pos = next;
	}
	if (in_run && (err = compress(w, buf + run, pos - run)))
		return err;
	return output(w, out, out_len);
}

int pd_writer_compress_payload(struct hwt_pd_writer *w, const uint8_t *data,
			       size_t len, uint8_t **out, size_t *out_len)
{
	int err;

	w->z->out.len = 0;
	if ((err = compress(w, data, len)))
		return err;
	return output(w, out, out_len);
}

bool pd_writer_compression_feature(const struct hwt_pd_writer *w,
				   struct pd_buf *b)
{
	const struct pd_wzstd *z = w->z;
	uint64_t ratio;

	if (!z)
		return false;
	ratio = z->bytes_out ? z->bytes_in / z->bytes_out : 0;
	pd_buf_put_u32(b, 1);       /* version */
	pd_buf_put_u32(b, 1);       /* type: zstd */
	pd_buf_put_u32(b, (uint32_t)z->level);
	pd_buf_put_u32(b, (uint32_t)(ratio > UINT32_MAX ? UINT32_MAX : ratio));
	pd_buf_put_u32(b, MMAP_LEN);
	return true;
}

void hwt_pd_writer_compression_stats(const struct hwt_pd_writer *w,
				     uint64_t *in, uint64_t *out)
{
	*in = w->z ? w->z->bytes_in : 0;
	*out = w->z ? w->z->bytes_out : 0;
}

void pd_writer_free_compression(struct hwt_pd_writer *w)
{
	if (!w->z)
		return;
	ZSTD_freeCStream(w->z->cs);
	pd_buf_free(&w->z->out);
	free(w->z);
	w->z = NULL;
}
