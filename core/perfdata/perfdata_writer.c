/* perf.data writer (file mode). Layout: header, sample ids, attributes,
 * data, feature section table, feature sections. The header is rewritten
 * at every flush so that a file cut short by a crash or a full disk reads
 * up to the last flush. Feature sections: perfdata_write_features.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/perfdata/perfdata_writer_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/outfile.h"

#define BUFFER_SIZE (256 * 1024)

int pd_writer_io_error(struct hwt_pd_writer *w, int err, const char *what)
{
	if (err == ENOSPC || err == EDQUOT)
		w->error = hwt_error(HWT_ERR_NOSPC, "%s: no space left on the "
				     "device; the capture ends here with %" PRIu64
				     " bytes of records kept (closing it says "
				     "whether they are)", w->path, w->data_size);
	else
		w->error = hwt_error(HWT_ERR_IO, "%s: %s failed after %" PRIu64
				     " bytes of records: %s", w->path, what,
				     w->data_size, strerror(err));
	return w->error;
}

/* Writes all of @len or returns how much was written and sets errno. */
size_t pd_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const uint8_t *)buf + done, len - done,
				   (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	return done;
}

int hwt_pd_writer_open(const char *path, struct hwt_pd_writer **out)
{
	struct hwt_pd_writer *w;
	int err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return hwt_error(HWT_ERR_NOMEM, "out of memory creating %s", path);
	w->path = strdup(path);
	w->buf = malloc(BUFFER_SIZE);
	if (!w->path || !w->buf) {
		free(w->path);
		free(w->buf);
		free(w);
		return hwt_error(HWT_ERR_NOMEM, "out of memory creating %s", path);
	}
	/* Written beside @path and renamed over it at close: a capture that
	 * fails leaves what was at @path untouched. */
	if ((err = hwt_outfile_open(path, NULL, 0, 0600, &w->out))) {
		free(w->path);
		free(w->buf);
		free(w);
		return err;
	}
	w->fd = hwt_outfile_fd(w->out);
	*out = w;
	return 0;
}

size_t hwt_pd_writer_nr_attrs(const struct hwt_pd_writer *w)
{
	return w->nattrs;
}

int hwt_pd_writer_add_attr(struct hwt_pd_writer *w,
			   const struct perf_event_attr *attr,
			   const uint64_t *ids, size_t nids, const char *name)
{
	struct wattr *attrs, *a;

	if (w->started)
		return hwt_error(HWT_ERR_INVAL, "%s: events must be declared "
				 "before the first record", w->path);
	attrs = realloc(w->attrs, (w->nattrs + 1) * sizeof(*attrs));
	if (!attrs)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	w->attrs = attrs;
	a = &attrs[w->nattrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(a->attr);
	a->ids = malloc((nids ? nids : 1) * sizeof(uint64_t));
	a->name = name ? strdup(name) : NULL;
	if (!a->ids || (name && !a->name)) {
		free(a->ids);
		free(a->name);
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	}
	if (nids)
		memcpy(a->ids, ids, nids * sizeof(uint64_t));
	a->nids = nids;
	w->nattrs++;
	return 0;
}

void pd_writer_put_header(uint8_t *h, const struct hwt_pd_writer *w,
			  uint64_t attrs_offset, const uint64_t *features)
{
	memset(h, 0, PD_FILE_HEADER_SIZE);
	pd_put64(h, PD_MAGIC2);
	pd_put64(h + 8, PD_FILE_HEADER_SIZE);
	pd_put64(h + 16, sizeof(struct perf_event_attr) + PD_SECTION_SIZE);
	pd_put64(h + 24, attrs_offset);
	pd_put64(h + 32, w->nattrs * (sizeof(struct perf_event_attr) +
				      PD_SECTION_SIZE));
	pd_put64(h + 40, w->data_offset);
	pd_put64(h + 48, w->data_size);
	for (int i = 0; i < 4; i++)
		pd_put64(h + 72 + 8 * i, features ? features[i] : 0);
}

/* The attributes follow the ids, which follow the header. */
uint64_t pd_writer_attrs_offset(const struct hwt_pd_writer *w)
{
	uint64_t off = PD_FILE_HEADER_SIZE;

	for (size_t i = 0; i < w->nattrs; i++)
		off += w->attrs[i].nids * 8;
	return off;
}

/* Writes the ids, the attributes and a header describing an empty data
 * section: from here on the file is a valid perf.data file. */
static int start(struct hwt_pd_writer *w)
{
	struct pd_buf b = {0};
	uint8_t h[PD_FILE_HEADER_SIZE];
	size_t n;

	if (w->error)
		return w->error;
	pd_buf_put(&b, NULL, PD_FILE_HEADER_SIZE);
	for (size_t i = 0; i < w->nattrs; i++)
		pd_buf_put(&b, w->attrs[i].ids, w->attrs[i].nids * 8);
	for (size_t i = 0, off = PD_FILE_HEADER_SIZE; i < w->nattrs; i++) {
		pd_buf_put(&b, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
		pd_buf_put_u64(&b, w->attrs[i].nids ? off : 0);
		pd_buf_put_u64(&b, w->attrs[i].nids * 8);
		off += w->attrs[i].nids * 8;
	}
	pd_buf_pad8(&b);
	if (b.oom) {
		pd_buf_free(&b);
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	}
	w->data_offset = b.len;
	w->data_size = 0;
	pd_writer_put_header(h, w, pd_writer_attrs_offset(w), NULL);
	memcpy(b.p, h, sizeof(h));
	n = pd_pwrite_all(w->fd, b.p, b.len, 0);
	pd_buf_free(&b);
	if (n < w->data_offset)
		return pd_writer_io_error(w, errno, "writing the header");
	w->started = true;
	return 0;
}

static int update_header_size(struct hwt_pd_writer *w)
{
	uint8_t v[8];

	pd_put64(v, w->data_size);
	if (pd_pwrite_all(w->fd, v, sizeof(v), 48) != sizeof(v))
		return pd_writer_io_error(w, errno, "updating the header");
	return 0;
}

/* The end of the last whole record within the first @len bytes of
 * @records (AUXTRACE payloads belong to their record). */
static size_t whole_records(const uint8_t *records, size_t total, size_t len)
{
	size_t pos = 0;

	while (pos + PD_EVENT_HEADER_SIZE <= total) {
		uint32_t type = pd_u32(records + pos);
		uint16_t size = pd_u16(records + pos + 6);
		uint64_t next = pos + size +
				pd_trailing_bytes(records + pos, type, size);

		if (next > len)
			break;
		pos = (size_t)next;
	}
	return pos;
}

/* Appends @len bytes of whole records at the end of the data section;
 * on a short write keeps the whole records that made it. */
static int append(struct hwt_pd_writer *w, const uint8_t *records, size_t len)
{
	size_t n = pd_pwrite_all(w->fd, records, len, w->data_offset + w->data_size);
	int err = errno;

	if (n == len) {
		w->data_size += len;
		return update_header_size(w);
	}
	w->data_size += whole_records(records, len, n);
	update_header_size(w);
	/* Give the partial record's blocks back to the full disk. */
	if (ftruncate(w->fd, (off_t)(w->data_offset + w->data_size)))
		err = err ? err : errno;
	return pd_writer_io_error(w, err, "writing records");
}

int hwt_pd_writer_flush(struct hwt_pd_writer *w)
{
	int err;

	if (w->error)
		return w->error;
	if (!w->started && (err = start(w)))
		return err;
	if (!w->buf_len)
		return 0;
	if (w->z) {
		uint8_t *out;
		size_t out_len;

		err = pd_writer_compress_records(w, w->buf, w->buf_len, &out,
						 &out_len);
		if (!err)
			err = append(w, out, out_len);
	} else {
		err = append(w, w->buf, w->buf_len);
	}
	w->buf_len = 0;
	return err;
}

void pd_writer_moved(struct hwt_pd_writer *w, uint32_t type, size_t old_pos,
		     size_t new_pos)
{
	uint64_t base = w->data_offset + w->data_size;

	if (type != HWT_PD_RECORD_AUXTRACE)
		return;
	for (size_t i = w->nindex; i-- > 0 && w->index[i].offset >= base;)
		if (w->index[i].offset == base + old_pos) {
			w->index[i].offset = base + new_pos;
			return;
		}
}

/* A payload too big for the buffer, through the compressor. */
static int append_compressed(struct hwt_pd_writer *w, const void *data,
			     size_t len)
{
	uint8_t *out;
	size_t out_len;
	int err = pd_writer_compress_payload(w, data, len, &out, &out_len);

	return err ? err : append(w, out, out_len);
}

static int buffer(struct hwt_pd_writer *w, const void *data, size_t len)
{
	int err;

	if (w->buf_len + len > BUFFER_SIZE && (err = hwt_pd_writer_flush(w)))
		return err;
	memcpy(w->buf + w->buf_len, data, len);
	w->buf_len += len;
	return 0;
}

int hwt_pd_writer_record(struct hwt_pd_writer *w, const void *record)
{
	const uint8_t *rec = record;
	uint32_t type = pd_u32(rec);
	uint16_t size = pd_u16(rec + 6);
	int err;

	if (w->error)
		return w->error;
	/* Kernel records are whole u64s; perf's pipe-mode FEATURE records
	 * are not, and perf reads them anywhere. */
	if (size < PD_EVENT_HEADER_SIZE)
		return hwt_error(HWT_ERR_INVAL, "%s: record of type %u has size "
				 "%u, less than its 8-byte header", w->path, type,
				 size);
	if (type == HWT_PD_RECORD_AUXTRACE ||
	    type == HWT_PD_RECORD_HEADER_TRACING_DATA)
		return hwt_error(HWT_ERR_INVAL, "%s: a record of type %u carries "
				 "a payload; write AUXTRACE records with "
				 "hwt_pd_writer_auxtrace", w->path, type);
	if (!w->started && (err = start(w)))
		return err;
	err = buffer(w, rec, size);
	/* perf writes a round marker after each pass over the rings: a good
	 * point to make the file readable up to here. */
	if (!err && type == HWT_PD_RECORD_FINISHED_ROUND)
		err = hwt_pd_writer_flush(w);
	return err;
}

int hwt_pd_writer_auxtrace(struct hwt_pd_writer *w,
			   const struct hwt_pd_auxtrace *aux, const void *data)
{
	uint8_t h[PD_AUXTRACE_HEADER_SIZE] = {0};
	static const uint8_t zeros[8];
	uint64_t padded = pd_align8(aux->size), offset;
	size_t pad = (size_t)(padded - aux->size);
	bool indexed;
	int err;

	if (w->error)
		return w->error;
	if (!w->started && (err = start(w)))
		return err;
	/* Compressed AUXTRACE records have no file offset to index. */
	indexed = !pd_writer_compresses(w, HWT_PD_RECORD_AUXTRACE);
	if (indexed && w->nindex == w->index_cap) {
		size_t cap = w->index_cap ? w->index_cap * 2 : 64;
		struct index_entry *p = realloc(w->index, cap * sizeof(*p));

		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "%s: out of memory",
					 w->path);
		w->index = p;
		w->index_cap = cap;
	}
	pd_put32(h, HWT_PD_RECORD_AUXTRACE);
	pd_put16(h + 6, PD_AUXTRACE_HEADER_SIZE);
	pd_put64(h + 8, padded);
	pd_put64(h + 16, aux->offset);
	pd_put64(h + 24, aux->reference);
	pd_put32(h + 32, aux->idx);
	pd_put32(h + 36, aux->tid);
	pd_put32(h + 40, aux->cpu);
	offset = w->data_offset + w->data_size + w->buf_len;
	if (PD_AUXTRACE_HEADER_SIZE + padded <= BUFFER_SIZE) {
		if (w->buf_len + PD_AUXTRACE_HEADER_SIZE + padded > BUFFER_SIZE &&
		    (err = hwt_pd_writer_flush(w)))
			return err;
		offset = w->data_offset + w->data_size + w->buf_len;
		memcpy(w->buf + w->buf_len, h, sizeof(h));
		memcpy(w->buf + w->buf_len + sizeof(h), data, (size_t)aux->size);
		memcpy(w->buf + w->buf_len + sizeof(h) + aux->size, zeros, pad);
		w->buf_len += sizeof(h) + (size_t)padded;
	} else if (!indexed) {
		if ((err = hwt_pd_writer_flush(w)) ||
		    (err = append_compressed(w, h, sizeof(h))) ||
		    (err = append_compressed(w, data, (size_t)aux->size)) ||
		    (pad && (err = append_compressed(w, zeros, pad))))
			return err;
	} else {
		uint64_t at;
		size_t n;

		if ((err = hwt_pd_writer_flush(w)))
			return err;
		offset = at = w->data_offset + w->data_size;
		n = pd_pwrite_all(w->fd, h, sizeof(h), at);
		if (n == sizeof(h))
			n += pd_pwrite_all(w->fd, data, (size_t)aux->size, at + n);
		if (n == sizeof(h) + aux->size)
			n += pd_pwrite_all(w->fd, zeros, pad, at + n);
		if (n != sizeof(h) + padded) {
			err = errno;
			if (ftruncate(w->fd, (off_t)at))
				err = err ? err : errno;
			return pd_writer_io_error(w, err, "writing an AUXTRACE payload");
		}
		w->data_size += n;
		if ((err = update_header_size(w)))
			return err;
	}
	if (indexed) {
		w->index[w->nindex].offset = offset;
		w->index[w->nindex++].size = PD_AUXTRACE_HEADER_SIZE;
	}
	return 0;
}

int hwt_pd_writer_auxtrace_info(struct hwt_pd_writer *w, uint32_t type,
				const uint64_t *priv, size_t npriv)
{
	uint8_t *rec;
	size_t size = 16 + npriv * 8;
	int err;

	if (size > UINT16_MAX)
		return hwt_error(HWT_ERR_INVAL, "%s: %zu AUXTRACE_INFO words do "
				 "not fit a record", w->path, npriv);
	rec = calloc(1, size);
	if (!rec)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	pd_put32(rec, HWT_PD_RECORD_AUXTRACE_INFO);
	pd_put16(rec + 6, (uint16_t)size);
	pd_put32(rec + 8, type);
	if (npriv)
		memcpy(rec + 16, priv, npriv * 8);
	err = hwt_pd_writer_record(w, rec);
	free(rec);
	return err;
}

int hwt_pd_writer_time_conv(struct hwt_pd_writer *w,
			    const struct hwt_pd_time_conv *tc)
{
	uint8_t rec[56] = {0};

	pd_put32(rec, HWT_PD_RECORD_TIME_CONV);
	pd_put16(rec + 6, sizeof(rec));
	pd_put64(rec + 8, tc->time_shift);
	pd_put64(rec + 16, tc->time_mult);
	pd_put64(rec + 24, tc->time_zero);
	pd_put64(rec + 32, tc->time_cycles);
	pd_put64(rec + 40, tc->time_mask);
	rec[48] = tc->cap_user_time_zero;
	rec[49] = tc->cap_user_time_short;
	return hwt_pd_writer_record(w, rec);
}

int hwt_pd_writer_finished_round(struct hwt_pd_writer *w)
{
	uint8_t rec[8] = {0};

	pd_put32(rec, HWT_PD_RECORD_FINISHED_ROUND);
	pd_put16(rec + 6, sizeof(rec));
	return hwt_pd_writer_record(w, rec);
}

uint64_t hwt_pd_writer_data_size(const struct hwt_pd_writer *w)
{
	return w->data_size + w->buf_len;
}

static void writer_free(struct hwt_pd_writer *w)
{
	for (size_t i = 0; i < w->nattrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	for (int i = 0; i < NR_STRING_FEATURES; i++) {
		free(w->strings[i]);
		pd_buf_free(&w->copy[i]);
	}
	free(w->attrs);
	free(w->index);
	free(w->cmdline);
	free(w->trigger);
	free(w->buf);
	free(w->path);
	pd_buf_free(&w->build_ids);
	pd_writer_free_compression(w);
	free(w);
}

void hwt_pd_writer_keep_partial(struct hwt_pd_writer *w, bool keep)
{
	w->keep_partial = keep;
}

/* Sets the cut-short bit in the header, which is rewritten in place and
 * so needs no new space, then tries the feature table's one entry (an
 * empty section) after the records; a table that did not fit is left
 * out, which readers take as a file cut short anyway. */
static void mark_cut_short(struct hwt_pd_writer *w)
{
	uint64_t features[4] = {0};
	uint8_t h[PD_FILE_HEADER_SIZE], entry[PD_SECTION_SIZE];
	uint64_t table = w->data_offset + w->data_size;

	features[HWT_PD_FEAT_HWTRACE_CUT_SHORT / 64] =
		1ULL << (HWT_PD_FEAT_HWTRACE_CUT_SHORT % 64);
	pd_writer_put_header(h, w, pd_writer_attrs_offset(w), features);
	pd_pwrite_all(w->fd, h, sizeof(h), 0);
	pd_put64(entry, table + PD_SECTION_SIZE);
	pd_put64(entry + 8, 0);
	if (pd_pwrite_all(w->fd, entry, sizeof(entry), table) != sizeof(entry) &&
	    ftruncate(w->fd, (off_t)table))
		return; /* a part of the entry stays: readers find it short */
}

/* The end of a capture the disk cut short: kept, marked, when nothing
 * is lost by keeping it; else removed, and the file that was there
 * stays. */
static int close_cut_short(struct hwt_pd_writer *w)
{
	bool replaces = hwt_outfile_replaces(w->out);

	if (!w->started || (replaces && !w->keep_partial)) {
		hwt_outfile_discard(w->out);
		if (!w->started)
			return hwt_error(HWT_ERR_NOSPC, "%s: no space left on "
					 "the device for the capture's header; "
					 "nothing was written%s", w->path,
					 replaces ? ", and the file that was "
					 "there is kept as it was" : "");
		return hwt_error(HWT_ERR_NOSPC, "%s: no space left on the "
				 "device after %" PRIu64 " bytes of records; the "
				 "file that was there is kept as it was, and "
				 "this capture, cut short, is not kept",
				 w->path, w->data_size);
	}
	mark_cut_short(w);
	int err = hwt_outfile_commit(w->out);
	if (err)
		return err;
	return hwt_error(HWT_ERR_NOSPC, "%s: no space left on the device: the "
			 "capture ends after %" PRIu64 " bytes of records, and "
			 "the file is marked as cut short (hwtrace info and "
			 "decode say so)", w->path, w->data_size);
}

int hwt_pd_writer_close(struct hwt_pd_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = hwt_pd_writer_flush(w);
	if (!err)
		err = pd_writer_write_features(w);
	if (!err)
		err = hwt_outfile_commit(w->out);
	else if (err == HWT_ERR_NOSPC)
		err = close_cut_short(w);
	else
		hwt_outfile_discard(w->out);
	writer_free(w);
	return err;
}

void hwt_pd_writer_discard(struct hwt_pd_writer *w)
{
	if (!w)
		return;
	hwt_outfile_discard(w->out);
	writer_free(w);
}
