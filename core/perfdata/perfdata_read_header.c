/* perf.data reader: a file-mode file's header, attribute and feature
 * sections, read and bounds-checked at open. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/error.h"

static int id_cmp(const void *a, const void *b)
{
	const struct id_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int pd_reader_index_ids(struct hwt_pd_reader *r)
{
	size_t n = 0, k = 0;
	struct id_entry *ids;

	for (size_t i = 0; i < r->nattrs; i++)
		n += r->attrs[i]->nids;
	ids = calloc(n ? n : 1, sizeof(*ids));
	if (!ids)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory indexing %zu "
				 "sample ids", r->path, n);
	for (size_t i = 0; i < r->nattrs; i++)
		for (size_t j = 0; j < r->attrs[i]->nids; j++) {
			ids[k].id = r->attrs[i]->ids[j];
			ids[k++].attr = r->attrs[i];
		}
	qsort(ids, n, sizeof(*ids), id_cmp);
	free(r->ids);
	r->ids = ids;
	r->nids = n;
	return 0;
}

int pd_reader_add_attr(struct hwt_pd_reader *r, const uint8_t *attr_bytes,
		       size_t attr_len, const uint8_t *ids, size_t nids)
{
	struct hwt_pd_attr *a, **attrs;
	uint64_t *copy;

	if (r->nattrs >= MAX_ATTRS)
		return hwt_error(HWT_ERR_FORMAT, "%s: more than %d event "
				 "attributes", r->path, MAX_ATTRS);
	attrs = realloc(r->attrs, (r->nattrs + 1) * sizeof(*attrs));
	if (!attrs)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", r->path);
	r->attrs = attrs;
	a = calloc(1, sizeof(*a));
	copy = calloc(nids ? nids : 1, sizeof(uint64_t));
	if (!a || !copy) {
		free(a);
		free(copy);
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", r->path);
	}
	memcpy(&a->attr, attr_bytes,
	       attr_len < sizeof(a->attr) ? attr_len : sizeof(a->attr));
	if (nids)
		memcpy(copy, ids, nids * sizeof(uint64_t));
	a->ids = copy;
	a->nids = nids;
	r->attrs[r->nattrs++] = a;
	return 0;
}

int pd_reader_read_attrs(struct hwt_pd_reader *r)
{
	const struct hwt_pd_file_header *h = &r->hdr;
	uint64_t n, entry = h->attr_size, ids_total = 0;
	uint8_t *buf;
	int err = 0;

	if (entry < PD_SECTION_SIZE + PERF_ATTR_SIZE_VER0 ||
	    entry > MAX_ATTR_SIZE)
		return hwt_error(HWT_ERR_FORMAT, "%s: attribute size %" PRIu64
				 " at byte offset 16 is not plausible (%d..%d)",
				 r->path, entry, PD_SECTION_SIZE +
				 PERF_ATTR_SIZE_VER0, MAX_ATTR_SIZE);
	if (h->attrs_size % entry)
		return hwt_error(HWT_ERR_FORMAT, "%s: attribute section size %"
				 PRIu64 " (byte offset 32) is not a multiple of "
				 "the attribute size %" PRIu64, r->path,
				 h->attrs_size, entry);
	n = h->attrs_size / entry;
	if (n > MAX_ATTRS)
		return hwt_error(HWT_ERR_FORMAT, "%s: %" PRIu64 " attributes is "
				 "more than %d", r->path, n, MAX_ATTRS);
	if (h->attrs_offset + h->attrs_size > r->file_size ||
	    h->attrs_offset + h->attrs_size < h->attrs_offset)
		return hwt_error(HWT_ERR_TRUNCATED, "%s: the attribute section "
				 "(byte offset %" PRIu64 ", %" PRIu64 " bytes) "
				 "lies past the end of the file (%" PRIu64
				 " bytes)", r->path, h->attrs_offset,
				 h->attrs_size, r->file_size);
	buf = malloc(entry);
	if (!buf)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", r->path);
	for (uint64_t i = 0; i < n && !err; i++) {
		uint64_t off = h->attrs_offset + i * entry, ids_off, ids_size;
		uint8_t *ids = NULL;

		if (pd_pread_full(r->fd, buf, entry, off) != 1) {
			err = hwt_error(HWT_ERR_IO, "%s: cannot read attribute "
					"%" PRIu64 " at byte offset %" PRIu64,
					r->path, i, off);
			break;
		}
		ids_off = pd_u64(buf + entry - 16);
		ids_size = pd_u64(buf + entry - 8);
		/* Sections of a real file do not overlap, so all ids together
		 * fit in the file: a bound on what a corrupt header costs. */
		ids_total += ids_size;
		if (ids_size % 8 || ids_off + ids_size > r->file_size ||
		    ids_off + ids_size < ids_off || ids_total > r->file_size) {
			err = hwt_error(HWT_ERR_FORMAT, "%s: attribute %" PRIu64
					" (byte offset %" PRIu64 ") has an id "
					"section at %" PRIu64 " of %" PRIu64
					" bytes, outside the file or not whole "
					"u64s", r->path, i, off, ids_off,
					ids_size);
			break;
		}
		if (ids_size) {
			ids = malloc(ids_size);
			if (!ids) {
				err = hwt_error(HWT_ERR_NOMEM, "%s: out of memory",
						r->path);
				break;
			}
			if (pd_pread_full(r->fd, ids, ids_size, ids_off) != 1)
				err = hwt_error(HWT_ERR_IO, "%s: cannot read the "
						"ids at byte offset %" PRIu64,
						r->path, ids_off);
		}
		if (!err)
			err = pd_reader_add_attr(r, buf, entry - 16, ids, ids_size / 8);
		free(ids);
	}
	free(buf);
	return err ? err : pd_reader_index_ids(r);
}

void pd_reader_warn(struct hwt_pd_reader *r, const char *msg)
{
	if (!r->warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s", msg);
}

int pd_get_string(const uint8_t **p, const uint8_t *end, const char **s)
{
	uint32_t len;

	if (end - *p < 4)
		return -1;
	len = pd_u32(*p);
	if ((uint64_t)(end - *p) - 4 < len || len == 0 ||
	    !memchr(*p + 4, 0, len))
		return -1;
	*s = (const char *)*p + 4;
	*p += 4 + (size_t)len;
	return 0;
}

int pd_reader_read_features(struct hwt_pd_reader *r)
{
	uint64_t table = r->hdr.data_offset + r->hdr.data_size, total = 0;
	unsigned int nfeat = 0, k = 0;
	uint8_t *sections;

	for (unsigned int bit = 0; bit < PD_MAX_FEATURES; bit++)
		if (r->hdr.features[bit / 64] >> (bit % 64) & 1)
			nfeat++;
	if (!nfeat)
		return 0;
	sections = malloc((size_t)nfeat * PD_SECTION_SIZE);
	if (!sections)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", r->path);
	if (table + (uint64_t)nfeat * PD_SECTION_SIZE > r->file_size ||
	    pd_pread_full(r->fd, sections, (size_t)nfeat * PD_SECTION_SIZE,
			  table) != 1) {
		char msg[256];

		snprintf(msg, sizeof(msg), "the feature section table at byte "
			 "offset %" PRIu64 " is past the end of the file; the "
			 "capture was cut short, feature sections are missing",
			 table);
		pd_reader_warn(r, msg);
		free(sections);
		return 0;
	}
	for (unsigned int bit = 0; bit < PD_MAX_FEATURES; bit++) {
		struct feature *f = &r->features[bit];
		uint8_t *data;

		if (!(r->hdr.features[bit / 64] >> (bit % 64) & 1))
			continue;
		f->offset = pd_u64(sections + k * PD_SECTION_SIZE);
		f->size = pd_u64(sections + k * PD_SECTION_SIZE + 8);
		k++;
		total += f->size;
		if (f->size > MAX_FEATURE_SIZE ||
		    f->offset + f->size > r->file_size ||
		    f->offset + f->size < f->offset || total > r->file_size) {
			char msg[256];

			snprintf(msg, sizeof(msg), "feature %u (%s) at byte "
				 "offset %" PRIu64 " of %" PRIu64 " bytes lies "
				 "outside the file; ignored", bit,
				 hwt_pd_feature_name(bit) ?
				 hwt_pd_feature_name(bit) : "unknown",
				 f->offset, f->size);
			pd_reader_warn(r, msg);
			f->size = 0;
			continue;
		}
		/* One spare NUL so string sections are always terminated. */
		data = calloc(1, (size_t)f->size + 1);
		if (!data) {
			free(sections);
			return hwt_error(HWT_ERR_NOMEM, "%s: out of memory",
					 r->path);
		}
		if (pd_pread_full(r->fd, data, (size_t)f->size, f->offset) != 1) {
			free(data);
			free(sections);
			return hwt_error(HWT_ERR_IO, "%s: cannot read feature %u "
					 "at byte offset %" PRIu64, r->path, bit,
					 f->offset);
		}
		f->data = data;
	}
	free(sections);
	pd_reader_name_attrs(r);
	pd_reader_name_attrs_simpleperf(r);
	return 0;
}

int pd_reader_read_file_header(struct hwt_pd_reader *r, const uint8_t *first)
{
	uint8_t h[PD_FILE_HEADER_SIZE] = {0};
	uint64_t size = pd_u64(first + 8);
	struct hwt_pd_file_header *fh = &r->hdr;
	struct stat st;

	if (fstat(r->fd, &st) || !S_ISREG(st.st_mode))
		return hwt_error(HWT_ERR_FORMAT, "%s: a perf.data file in file "
				 "mode must be a regular file (pipe mode data "
				 "has a 16-byte header)", r->path);
	r->file_size = (uint64_t)st.st_size;
	/* Headers written before the feature bitmap existed end at 72. */
	if (size != PD_FILE_HEADER_SIZE && size != 72)
		return hwt_error(HWT_ERR_FORMAT, "%s: header size %" PRIu64 " at "
				 "byte offset 8 is neither 16 (pipe mode) nor "
				 "104 (file mode); not a perf.data file",
				 r->path, size);
	if (r->file_size < size ||
	    pd_pread_full(r->fd, h, (size_t)size, 0) != 1)
		return hwt_error(HWT_ERR_TRUNCATED, "%s: the file ends inside "
				 "its %" PRIu64 "-byte header", r->path, size);
	fh->size = size;
	fh->attr_size = pd_u64(h + 16);
	fh->attrs_offset = pd_u64(h + 24);
	fh->attrs_size = pd_u64(h + 32);
	fh->data_offset = pd_u64(h + 40);
	fh->data_size = pd_u64(h + 48);
	for (int i = 0; i < 4; i++)
		fh->features[i] = pd_u64(h + 72 + 8 * i);
	r->simpleperf = (fh->features[2] | fh->features[3]) != 0;
	if (fh->data_offset > r->file_size)
		return hwt_error(HWT_ERR_TRUNCATED, "%s: the data section starts "
				 "at byte offset %" PRIu64 ", past the end of the "
				 "file (%" PRIu64 " bytes)", r->path,
				 fh->data_offset, r->file_size);
	r->data_end = fh->data_offset + fh->data_size;
	if (fh->data_size == 0 || r->data_end < fh->data_offset) {
		/* perf leaves 0 when it was killed before finishing the
		 * header: the records run to the end of the file. */
		r->data_end = r->file_size;
		if (fh->data_size == 0 && r->file_size > fh->data_offset)
			pd_reader_warn(r, "the header's data size is 0 (the recording "
				       "was not ended properly); reading records to the "
				       "end of the file");
	}
	r->limit = r->data_end < r->file_size ? r->data_end : r->file_size;
	r->pos = r->src_off = fh->data_offset;
	return 0;
}
