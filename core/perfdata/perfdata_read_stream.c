/* perf.data reader: the record stream, read through a window so memory
 * does not grow with the file; payloads are kept or skipped. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/error.h"

/* Reads from the source at src_off; returns bytes read, 0 at the end. */
static ssize_t src_read(struct hwt_pd_reader *r, void *buf, size_t len)
{
	ssize_t n;

	if (r->in_z)
		return pd_z_read(r, buf, len);
	if (!r->pipe) {
		if (r->src_off >= r->limit)
			return 0;
		if (len > r->limit - r->src_off)
			len = (size_t)(r->limit - r->src_off);
	}
	do {
		if (r->pipe)
			n = read(r->fd, buf, len);
		else
			n = pread(r->fd, buf, len, (off_t)r->src_off);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return hwt_error(HWT_ERR_IO, "%s: read failed at byte offset %" PRIu64
				 ": %s", r->path, r->src_off, strerror(errno));
	r->src_off += (uint64_t)n;
	return n;
}

ssize_t pd_reader_fill(struct hwt_pd_reader *r, size_t need)
{
	while (r->win_len - r->win_pos < need) {
		ssize_t n;

		if (r->win_pos + need > WINDOW_SIZE) {
			memmove(r->win, r->win + r->win_pos,
				r->win_len - r->win_pos);
			r->win_len -= r->win_pos;
			r->win_pos = 0;
		}
		n = src_read(r, r->win + r->win_len, WINDOW_SIZE - r->win_len);
		if (n < 0)
			return n;
		if (n == 0)
			break;
		r->win_len += (size_t)n;
	}
	return (ssize_t)(r->win_len - r->win_pos < need ? r->win_len - r->win_pos
							 : need);
}

static int stream_error(struct hwt_pd_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Remembers the error: the record stream cannot be resynchronised after a
 * bad size, so later calls return the same error. */
static int stream_error(struct hwt_pd_reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error_msg, sizeof(r->error_msg), fmt, ap);
	va_end(ap);
	/* A record of the decompressed stream: say which compressed record
	 * holds it (errors of the compressed records themselves name it). */
	if (r->in_z && !strstr(r->error_msg, "COMPRESSED")) {
		size_t len = strlen(r->error_msg);

		snprintf(r->error_msg + len, sizeof(r->error_msg) - len,
			 " (offsets count decompressed bytes of the COMPRESSED "
			 "record at byte offset %" PRIu64 ")",
			 pd_z_file_offset(r, r->pos));
	}
	r->error = err;
	return hwt_error(err, "%s", r->error_msg);
}

/* The attribute a record belongs to, found through its sample id when the
 * file has several. */
static const struct hwt_pd_attr *record_attr(const struct hwt_pd_reader *r,
					     const uint8_t *rec, uint32_t type,
					     uint16_t size)
{
	const struct hwt_pd_attr *a;
	uint64_t st, off = 0;

	if (r->nattrs == 0)
		return NULL;
	if (r->nattrs == 1)
		return r->attrs[0];
	st = r->attrs[0]->attr.sample_type;
	if (type == PERF_RECORD_SAMPLE) {
		if (st & PERF_SAMPLE_IDENTIFIER)
			off = 8;
		else if (st & PERF_SAMPLE_ID)
			off = 8 + 8 * (!!(st & PERF_SAMPLE_IP) +
				       !!(st & PERF_SAMPLE_TID) +
				       !!(st & PERF_SAMPLE_TIME) +
				       !!(st & PERF_SAMPLE_ADDR));
	} else if (r->attrs[0]->attr.sample_id_all) {
		uint64_t back = 0;

		if (st & PERF_SAMPLE_IDENTIFIER)
			back = 8;
		else if (st & PERF_SAMPLE_ID)
			back = 8 * (1 + !!(st & PERF_SAMPLE_STREAM_ID) +
				    !!(st & PERF_SAMPLE_CPU));
		if (back && back + 8 <= size)
			off = size - back;
	}
	if (off && off + 8 <= size) {
		a = hwt_pd_reader_attr_by_id(r, pd_u64(rec + off));
		if (a)
			return a;
	}
	return r->attrs[0];
}

/* Takes the trailing bytes of the record at pos: AUXTRACE's payload is
 * kept when wanted, everything else is skipped. */
static int take_trailing(struct hwt_pd_reader *r, uint16_t size,
			 uint64_t trailing, bool keep, const char *label)
{
	size_t in_win = r->win_len - r->win_pos - size, have;

	/* pos + size is within the data: the record was read whole. */
	if (!r->pipe && !r->in_z && trailing > r->data_end - r->pos - size)
		return stream_error(r, HWT_ERR_FORMAT, "%s: record %s at byte "
				    "offset %" PRIu64 " claims %" PRIu64 " bytes "
				    "of payload, past the end of the data "
				    "section at %" PRIu64, r->path, label,
				    r->pos, trailing, r->data_end);
	if (in_win > trailing)
		in_win = (size_t)trailing;
	if (keep && r->aux_cap < in_win) {
		uint8_t *p = realloc(r->aux, in_win);
		if (!p)
			return stream_error(r, HWT_ERR_NOMEM, "%s: out of memory "
					    "for a %" PRIu64 "-byte payload",
					    r->path, trailing);
		r->aux = p;
		r->aux_cap = in_win;
	}
	/* Nothing of the payload may be in the window yet (decompressed data
	 * comes in pieces), and then there may be no buffer yet either. */
	if (keep && in_win)
		memcpy(r->aux, r->win + r->win_pos + size, in_win);
	have = in_win;
	/* The rest bypasses the window; the record itself stays in it. */
	r->win_len = r->win_pos + size;
	if (!keep && !r->pipe && !r->in_z) {
		uint64_t skip = trailing - have;
		uint64_t left = r->limit - r->src_off;

		r->src_off += skip < left ? skip : left;
		have += skip < left ? skip : left;
	}
	while (have < trailing) {
		size_t want = trailing - have > (1 << 20) ? (1 << 20)
							 : (size_t)(trailing - have);
		uint8_t scratch[4096], *dst;
		ssize_t n;

		if (keep) {
			if (r->aux_cap < have + want) {
				size_t cap = r->aux_cap * 2;
				uint8_t *p;

				if (cap < have + want)
					cap = have + want;
				p = realloc(r->aux, cap);
				if (!p)
					return stream_error(r, HWT_ERR_NOMEM,
							    "%s: out of memory for a %"
							    PRIu64 "-byte payload",
							    r->path, trailing);
				r->aux = p;
				r->aux_cap = cap;
			}
			dst = r->aux + have;
		} else {
			dst = scratch;
			if (want > sizeof(scratch))
				want = sizeof(scratch);
		}
		n = src_read(r, dst, want);
		if (n < 0)
			return stream_error(r, (int)n, "%s", hwt_errmsg());
		if (n == 0)
			break;
		have += (size_t)n;
	}
	if (have < trailing)
		return stream_error(r, HWT_ERR_TRUNCATED, "%s: record %s at byte "
				    "offset %" PRIu64 " is cut short: its %" PRIu64
				    "-byte payload ends after %zu bytes at the "
				    "end of the file", r->path, label, r->pos,
				    trailing, have);
	return 0;
}

static int next_any(struct hwt_pd_reader *r, struct hwt_pd_record *rec)
{
	const struct hwt_pd_attr *attr;
	char label[48];
	const uint8_t *p;
	uint64_t trailing;
	uint32_t type;
	uint16_t size;
	size_t consumed;
	ssize_t n;
	int err;

	if (r->error)
		return hwt_error(r->error, "%s", r->error_msg);
	if (r->done)
		return 0;
again:
	n = pd_reader_fill(r, PD_EVENT_HEADER_SIZE);
	if (n < 0)
		return stream_error(r, (int)n, "%s", hwt_errmsg());
	if (n == 0 && r->in_z) {
		/* The compressed records ended; the file goes on. */
		pd_z_leave(r);
		goto again;
	}
	if (n == 0) {
		if (!r->pipe && r->limit < r->data_end)
			return stream_error(r, HWT_ERR_TRUNCATED, "%s: the file "
					    "ends at byte offset %" PRIu64 " but "
					    "its header says the data runs to %"
					    PRIu64 "; the capture was cut short "
					    "(the records before are intact)",
					    r->path, r->limit, r->data_end);
		r->done = true;
		return 0;
	}
	if (n < PD_EVENT_HEADER_SIZE)
		return stream_error(r, HWT_ERR_TRUNCATED, "%s: the file ends "
				    "inside a record header at byte offset %"
				    PRIu64 " (%zd of 8 bytes)", r->path, r->pos,
				    n);
	p = r->win + r->win_pos;
	type = pd_u32(p);
	size = pd_u16(p + 6);
	/* The record's label is made only for a message: formatting it
	 * for every record cost more than reading most of them. */
	if (size < PD_EVENT_HEADER_SIZE)
		return stream_error(r, HWT_ERR_FORMAT, "%s: record %s at byte "
				    "offset %" PRIu64 " has size %u, less than "
				    "its 8-byte header; the file is corrupt from "
				    "here", r->path,
				    pd_type_label(type, label, sizeof(label)),
				    r->pos, size);
	n = pd_reader_fill(r, size);
	if (n < 0)
		return stream_error(r, (int)n, "%s", hwt_errmsg());
	if (n < size)
		return stream_error(r, HWT_ERR_TRUNCATED, "%s: record %s at byte "
				    "offset %" PRIu64 " is cut short: %zd of its "
				    "%u bytes are in the file", r->path,
				    pd_type_label(type, label, sizeof(label)),
				    r->pos, n, size);
	p = r->win + r->win_pos;
	if ((type == HWT_PD_RECORD_AUXTRACE && size < PD_AUXTRACE_HEADER_SIZE) ||
	    (type == HWT_PD_RECORD_HEADER_TRACING_DATA && size < 12))
		return stream_error(r, HWT_ERR_FORMAT, "%s: record %s at byte "
				    "offset %" PRIu64 " has size %u, too small "
				    "for its fields", r->path,
				    pd_type_label(type, label, sizeof(label)),
				    r->pos, size);
	if (pd_is_compressed_type(type)) {
		if (r->in_z)
			return stream_error(r, HWT_ERR_FORMAT, "%s: the data "
					    "decompressed from the COMPRESSED "
					    "record at byte offset %" PRIu64
					    " holds a compressed record (%s) "
					    "itself, at decompressed byte %" PRIu64,
					    r->path, pd_z_file_offset(r, r->pos),
					    pd_type_label(type, label, sizeof(label)),
					    r->pos);
		err = pd_z_enter(r, p, type, size);
		if (err)
			return stream_error(r, err, "%s", hwt_errmsg());
		goto again;
	}
	trailing = pd_trailing_bytes(p, type, size);
	memset(rec, 0, sizeof(*rec));
	if (type == HWT_PD_RECORD_AUXTRACE)
		pd_parse_auxtrace(p, &rec->aux);
	consumed = size;
	if (trailing) {
		bool keep = type == HWT_PD_RECORD_AUXTRACE && r->load_aux;

		if (trailing <= r->win_len - r->win_pos - size) {
			/* Small payloads are read in place. */
			if (keep)
				rec->aux_data = p + size;
			consumed += (size_t)trailing;
		} else {
			err = take_trailing(r, size, trailing, keep,
					   pd_type_label(type, label,
							 sizeof(label)));
			if (err)
				return err;
			if (keep)
				rec->aux_data = r->aux;
		}
	}
	rec->type = type;
	rec->misc = pd_u16(p + 4);
	rec->size = size;
	rec->file_offset = r->in_z ? pd_z_file_offset(r, r->pos) : r->pos;
	rec->data = p;
	if (r->pipe && type >= PD_USER_TYPE_START) {
		err = pd_reader_pipe_record(r, p, type, size);
		if (err)
			return stream_error(r, err, "%s", hwt_errmsg());
	}
	attr = type < PD_USER_TYPE_START ? record_attr(r, p, type, size) : NULL;
	if (attr && hwt_pd_parse_sample_id(p, attr->attr.sample_type,
					   attr->attr.sample_id_all, &rec->sid))
		memset(&rec->sid, 0, sizeof(rec->sid));
	r->counts[type < HWT_PD_NR_COUNTED_TYPES - 1 ? type
						      : HWT_PD_NR_COUNTED_TYPES - 1]++;
	r->win_pos += consumed;
	r->pos += size + trailing;
	return 1;
}

static bool selected(const struct hwt_pd_reader *r, uint32_t type)
{
	if (!r->select)
		return true;
	if (type < 128)
		return r->select_mask[type / 64] >> (type % 64) & 1;
	return r->select_other;
}

int hwt_pd_reader_next(struct hwt_pd_reader *r, struct hwt_pd_record *rec)
{
	int n;

	while ((n = next_any(r, rec)) > 0 && !selected(r, rec->type))
		;
	return n;
}

void hwt_pd_reader_select_types(struct hwt_pd_reader *r, const uint32_t *types,
				size_t ntypes)
{
	r->select = ntypes > 0;
	r->select_mask[0] = r->select_mask[1] = 0;
	r->select_other = false;
	for (size_t i = 0; i < ntypes; i++) {
		if (types[i] < 128)
			r->select_mask[types[i] / 64] |= 1ULL << (types[i] % 64);
		else
			r->select_other = true;
	}
}
