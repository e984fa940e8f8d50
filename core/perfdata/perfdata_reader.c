/* perf.data reader: opening a file or a pipe, and what the reader tells
 * about the file once open. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

int pd_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got,
				  (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (int)(got == len);
}

int hwt_pd_reader_open(const char *path, struct hwt_pd_reader **out)
{
	struct hwt_pd_reader *r;
	uint8_t first[PD_PIPE_HEADER_SIZE];
	uint64_t magic;
	ssize_t n;
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return hwt_error(HWT_ERR_NOMEM, "out of memory opening %s", path);
	r->load_aux = true;
	r->path = strdup(strcmp(path, "-") ? path : "<stdin>");
	r->win = malloc(WINDOW_SIZE);
	if (!r->path || !r->win) {
		hwt_pd_reader_free(r);
		return hwt_error(HWT_ERR_NOMEM, "out of memory opening %s", path);
	}
	if (!strcmp(path, "-")) {
		r->fd = 0;
	} else {
		/* A capture may come through a FIFO (perf's pipe mode). */
		r->fd = hwt_infile_open(path, NULL, HWT_INFILE_PIPE);
		if (r->fd < 0) {
			err = r->fd;
			hwt_pd_reader_free(r);
			return err;
		}
		r->own_fd = true;
	}
	/* Pipe mode cannot seek, so the first bytes come through the stream
	 * reader, which is all the pipe header needs. */
	r->pipe = true;
	n = pd_reader_fill(r, PD_PIPE_HEADER_SIZE);
	if (n < 0) {
		hwt_pd_reader_free(r);
		return (int)n;
	}
	if (n < PD_PIPE_HEADER_SIZE) {
		err = hwt_error(n ? HWT_ERR_TRUNCATED : HWT_ERR_FORMAT,
				"%s: %zd bytes is too short for a perf.data "
				"header", r->path, n);
		hwt_pd_reader_free(r);
		return err;
	}
	memcpy(first, r->win, sizeof(first));
	magic = pd_u64(first);
	if (magic == PD_MAGIC2_SWAPPED)
		err = hwt_error(HWT_ERR_FORMAT, "%s: a big-endian perf.data file "
				"(written on a big-endian machine); hwtrace reads "
				"little-endian files only", r->path);
	else if (magic == PD_MAGIC1)
		err = hwt_error(HWT_ERR_FORMAT, "%s: a version 1 perf.data file "
				"(magic PERFFILE), which hwtrace does not read; "
				"re-record it with a perf newer than 2.6.37",
				r->path);
	else if (magic != PD_MAGIC2)
		err = hwt_error(HWT_ERR_FORMAT, "%s: not a perf.data file (byte "
				"offset 0 holds 0x%016" PRIx64 ", not the magic "
				"\"PERFILE2\")", r->path, magic);
	else
		err = 0;
	if (err) {
		hwt_pd_reader_free(r);
		return err;
	}
	r->hdr.size = pd_u64(first + 8);
	if (r->hdr.size == PD_PIPE_HEADER_SIZE) {
		r->win_pos = PD_PIPE_HEADER_SIZE;
		r->pos = PD_PIPE_HEADER_SIZE;
		r->data_end = r->limit = UINT64_MAX;
		*out = r;
		return 0;
	}
	r->pipe = false;
	r->win_pos = r->win_len = 0;
	err = pd_reader_read_file_header(r, first);
	if (!err)
		err = pd_reader_read_attrs(r);
	if (!err)
		err = pd_reader_read_features(r);
	if (err) {
		hwt_pd_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void hwt_pd_reader_free(struct hwt_pd_reader *r)
{
	if (!r)
		return;
	if (r->own_fd)
		close(r->fd);
	for (size_t i = 0; i < r->nattrs; i++) {
		free((void *)r->attrs[i]->ids);
		free(r->attrs[i]);
	}
	for (int i = 0; i < PD_MAX_FEATURES; i++)
		free(r->features[i].data);
	for (size_t i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->attrs);
	free(r->ids);
	pd_z_free(r);
	free(r->win);
	free(r->aux);
	free(r->path);
	free(r);
}

size_t hwt_pd_reader_nr_attrs(const struct hwt_pd_reader *r)
{
	return r->nattrs;
}

const struct hwt_pd_attr *hwt_pd_reader_attr(const struct hwt_pd_reader *r,
					     size_t index)
{
	return index < r->nattrs ? r->attrs[index] : NULL;
}

const struct hwt_pd_attr *
hwt_pd_reader_attr_by_id(const struct hwt_pd_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nids && r->ids[lo].id == id ? r->ids[lo].attr : NULL;
}

int hwt_pd_reader_feature_raw(const struct hwt_pd_reader *r, unsigned int bit,
			      uint64_t *offset, const void **data,
			      uint64_t *size)
{
	if (bit >= PD_MAX_FEATURES || !r->features[bit].data)
		return hwt_error(HWT_ERR_NOENT, "%s has no %s feature section",
				 r->path, hwt_pd_feature_name(bit) ?
				 hwt_pd_feature_name(bit) : "such");
	if (offset)
		*offset = r->features[bit].offset;
	*data = r->features[bit].data;
	*size = r->features[bit].size;
	return 0;
}

int hwt_pd_reader_feature(const struct hwt_pd_reader *r,
			  enum hwt_pd_feature feature, const void **data,
			  uint64_t *size)
{
	return hwt_pd_reader_feature_raw(r, (unsigned int)feature, NULL, data,
					 size);
}

int hwt_pd_reader_feature_string(const struct hwt_pd_reader *r,
				 enum hwt_pd_feature feature, char *buf,
				 size_t size)
{
	const void *data;
	const uint8_t *p;
	const char *s;
	uint64_t len;
	int err = hwt_pd_reader_feature(r, feature, &data, &len);

	if (err)
		return err;
	p = data;
	if (pd_get_string(&p, p + len, &s))
		return hwt_error(HWT_ERR_FORMAT, "%s: the %s feature section at "
				 "byte offset %" PRIu64 " is not a perf string",
				 r->path, hwt_pd_feature_name(feature),
				 r->features[feature].offset);
	snprintf(buf, size, "%s", s);
	return 0;
}

bool hwt_pd_reader_is_simpleperf(const struct hwt_pd_reader *r)
{
	return r->simpleperf;
}

bool hwt_pd_reader_is_pipe(const struct hwt_pd_reader *r)
{
	return r->pipe;
}

const char *hwt_pd_reader_path(const struct hwt_pd_reader *r)
{
	return r->path;
}

const struct hwt_pd_file_header *
hwt_pd_reader_header(const struct hwt_pd_reader *r)
{
	return &r->hdr;
}

bool hwt_pd_reader_cut_short(const struct hwt_pd_reader *r)
{
	return hwt_pd_reader_has_feature(r, HWT_PD_FEAT_HWTRACE_CUT_SHORT);
}

bool hwt_pd_reader_has_feature(const struct hwt_pd_reader *r, unsigned int bit)
{
	return bit < PD_MAX_FEATURES && (r->hdr.features[bit / 64] >> (bit % 64) & 1);
}

const char *hwt_pd_reader_warning(const struct hwt_pd_reader *r)
{
	return r->warning[0] ? r->warning : NULL;
}

void hwt_pd_reader_set_load_aux(struct hwt_pd_reader *r, bool load)
{
	r->load_aux = load;
}

int hwt_pd_reader_read_at(struct hwt_pd_reader *r, uint64_t offset, void *buf,
			  size_t len)
{
	int n;

	if (r->pipe)
		return hwt_error(HWT_ERR_NOSUP, "%s is in pipe mode: its bytes "
				 "cannot be read out of order", r->path);
	n = pd_pread_full(r->fd, buf, len, offset);
	if (n < 0)
		return hwt_error(HWT_ERR_IO, "%s: read failed at byte offset %"
				 PRIu64 ": %s", r->path, offset, strerror(-n));
	if (n == 0)
		return hwt_error(HWT_ERR_TRUNCATED, "%s: the file ends before "
				 "byte offset %" PRIu64 " + %zu", r->path, offset,
				 len);
	return 0;
}

const uint64_t *hwt_pd_reader_counts(const struct hwt_pd_reader *r)
{
	return r->counts;
}

uint64_t pd_reader_data_end(const struct hwt_pd_reader *r)
{
	return r->limit;
}

int pd_reader_fd(const struct hwt_pd_reader *r)
{
	return r->fd;
}
