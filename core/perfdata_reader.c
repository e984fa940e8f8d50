/* perf.data reader: header, attributes and features at open, then records
 * streamed through a window so memory does not grow with the file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/perfdata_format.h"
#include "hwtrace/error.h"

/* Any record (header.size is 16 bits) fits, with room for many more. */
#define WINDOW_SIZE (256 * 1024)
/* Bounds on header-declared sizes, so a corrupt header cannot make us
 * allocate without limit before reading a byte. */
#define MAX_ATTRS 65536
#define MAX_ATTR_SIZE 4096
#define MAX_FEATURE_SIZE (256u << 20)

struct id_entry {
	uint64_t id;
	const struct hwt_pd_attr *attr;
};

struct feature {
	uint64_t offset, size;
	uint8_t *data;
};

struct hwt_pd_reader {
	char *path;
	int fd;
	bool own_fd, pipe, simpleperf, load_aux;
	struct hwt_pd_file_header hdr;
	uint64_t file_size; /* 0 when unknown (a pipe) */

	struct hwt_pd_attr **attrs;
	size_t nattrs;
	struct id_entry *ids;
	size_t nids;
	struct feature features[PD_MAX_FEATURES];
	char warning[512];

	/* The record stream: win[win_pos..win_len) holds the bytes from file
	 * offset pos on; src_off is where the next read from the file goes. */
	uint8_t *win;
	size_t win_pos, win_len;
	uint64_t pos, src_off;
	uint64_t data_end;  /* where the data section ends per the header */
	uint64_t limit;     /* where the readable data ends */
	bool done;
	int error;          /* sticky: the stream cannot go on after it */
	char error_msg[512];
	uint8_t *aux;
	size_t aux_cap;
	uint64_t counts[HWT_PD_NR_COUNTED_TYPES];
	bool select, select_other;
	char *owned[16];    /* event names the reader made */
	size_t nowned;
	uint64_t select_mask[2];
};

static int open_error(const char *path, int err)
{
	if (err == ENOENT || err == ENOTDIR)
		return hwt_error(HWT_ERR_NOENT, "%s does not exist", path);
	if (err == EACCES || err == EPERM)
		return hwt_error(HWT_ERR_PERM, "%s: permission denied", path);
	return hwt_error(HWT_ERR_IO, "%s: %s", path, strerror(err));
}

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

/* Reads from the source at src_off; returns bytes read, 0 at the end. */
static ssize_t src_read(struct hwt_pd_reader *r, void *buf, size_t len)
{
	ssize_t n;

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

/* Makes @need bytes from pos available in the window, if the input has
 * them. Returns how many are available (at most @need) or an error. */
static ssize_t fill(struct hwt_pd_reader *r, size_t need)
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

static int id_cmp(const void *a, const void *b)
{
	const struct id_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int index_ids(struct hwt_pd_reader *r)
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

/* Takes @attr_bytes of an on-disk attribute and @nids ids (copied). */
static int add_attr(struct hwt_pd_reader *r, const uint8_t *attr_bytes,
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

static int read_attrs(struct hwt_pd_reader *r)
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
			err = add_attr(r, buf, entry - 16, ids, ids_size / 8);
		free(ids);
	}
	free(buf);
	return err ? err : index_ids(r);
}

static void warn(struct hwt_pd_reader *r, const char *msg)
{
	if (!r->warning[0])
		snprintf(r->warning, sizeof(r->warning), "%s", msg);
}

/* Reads a string as perf writes it: u32 length, then that many bytes
 * holding a NUL-terminated string. */
static int get_string(const uint8_t **p, const uint8_t *end, const char **s)
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

/* Names the attributes from HEADER_EVENT_DESC, in file order. */
static void name_attrs(struct hwt_pd_reader *r)
{
	const struct feature *f = &r->features[HWT_PD_FEAT_EVENT_DESC];
	const uint8_t *p, *end;
	uint32_t nr, asz;

	if (!f->data || f->size < 8)
		return;
	p = f->data;
	end = p + f->size;
	nr = pd_u32(p);
	asz = pd_u32(p + 4);
	p += 8;
	for (uint32_t i = 0; i < nr; i++) {
		const char *name;
		uint32_t nids;

		if ((uint64_t)(end - p) < (uint64_t)asz + 4)
			goto bad;
		p += asz;
		nids = pd_u32(p);
		p += 4;
		if (get_string(&p, end, &name) ||
		    (uint64_t)(end - p) < (uint64_t)nids * 8)
			goto bad;
		p += (size_t)nids * 8;
		if (i < r->nattrs)
			r->attrs[i]->name = name;
	}
	return;
bad:
	warn(r, "the event_desc feature section is malformed; event names "
	     "are missing");
}

/* simpleperf names its events in the meta info feature: a key
 * "event_type_info" whose value has lines "name,type,config". */
static void name_attrs_simpleperf(struct hwt_pd_reader *r)
{
	const struct feature *f = &r->features[PD_SIMPLEPERF_FEAT_START + 1];
	const char *p, *end, *v = NULL;

	if (!f->data)
		return;
	p = (const char *)f->data;
	end = p + f->size;
	while (p < end) {
		const char *val = memchr(p, 0, (size_t)(end - p));

		if (!val || ++val >= end || !memchr(val, 0, (size_t)(end - val)))
			return;
		if (!strcmp(p, "event_type_info")) {
			v = val;
			break;
		}
		p = val + strlen(val) + 1;
	}
	while (v && *v) {
		size_t len = strcspn(v, "\n");
		char line[256], *c1, *c2;

		snprintf(line, sizeof(line), "%.*s", (int)len, v);
		c1 = strchr(line, ',');
		c2 = c1 ? strchr(c1 + 1, ',') : NULL;
		if (c2) {
			/* The config there is the one asked for, before the
			 * PMU driver's defaults: match on the type. */
			unsigned long long type = strtoull(c1 + 1, NULL, 0);

			*c1 = '\0';
			for (size_t i = 0; i < r->nattrs; i++) {
				struct hwt_pd_attr *a = r->attrs[i];

				if (a->name || a->attr.type != type ||
				    r->nowned == sizeof(r->owned) / sizeof(r->owned[0]))
					continue;
				r->owned[r->nowned] = strdup(line);
				a->name = r->owned[r->nowned];
				if (a->name)
					r->nowned++;
				break;
			}
		}
		v += len;
		if (*v == '\n')
			v++;
	}
}

static int read_features(struct hwt_pd_reader *r)
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
		warn(r, msg);
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
			warn(r, msg);
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
	name_attrs(r);
	name_attrs_simpleperf(r);
	return 0;
}

static int read_file_header(struct hwt_pd_reader *r, const uint8_t *first)
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
			warn(r, "the header's data size is 0 (the recording "
			     "was not ended properly); reading records to the "
			     "end of the file");
	}
	r->limit = r->data_end < r->file_size ? r->data_end : r->file_size;
	r->pos = r->src_off = fh->data_offset;
	return 0;
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
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			err = open_error(path, errno);
			hwt_pd_reader_free(r);
			return err;
		}
		r->own_fd = true;
	}
	/* Pipe mode cannot seek, so the first bytes come through the stream
	 * reader, which is all the pipe header needs. */
	r->pipe = true;
	n = fill(r, PD_PIPE_HEADER_SIZE);
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
	err = read_file_header(r, first);
	if (!err)
		err = read_attrs(r);
	if (!err)
		err = read_features(r);
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
	free(r->win);
	free(r->aux);
	free(r->path);
	free(r);
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
	if (!r->pipe && trailing > r->data_end - r->pos - size)
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
	if (keep)
		memcpy(r->aux, r->win + r->win_pos + size, in_win);
	have = in_win;
	/* The rest bypasses the window; the record itself stays in it. */
	r->win_len = r->win_pos + size;
	if (!keep && !r->pipe) {
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

/* Pipe mode carries attributes and features as records. */
static int pipe_user_record(struct hwt_pd_reader *r, const uint8_t *rec,
			    uint32_t type, uint16_t size)
{
	if (type == HWT_PD_RECORD_HEADER_ATTR) {
		uint32_t asz = size >= 8 + 8 ? pd_u32(rec + 8 + 4) : 0;

		if (asz == 0)
			asz = PERF_ATTR_SIZE_VER0;
		if (size < 8 + 8 || asz > (uint32_t)size - 8 || (size - 8 - asz) % 8)
			return stream_error(r, HWT_ERR_FORMAT, "%s: ATTR record at "
					    "byte offset %" PRIu64 " has attr.size "
					    "%u, which does not fit its %u bytes",
					    r->path, r->pos, asz, size);
		if (add_attr(r, rec + 8, asz, rec + 8 + asz, (size - 8 - asz) / 8) ||
		    index_ids(r))
			return stream_error(r, HWT_ERR_NOMEM, "%s", hwt_errmsg());
	} else if (type == HWT_PD_RECORD_HEADER_BUILD_ID) {
		/* Collected into the build id feature, whose entries have the
		 * same layout. */
		struct feature *f = &r->features[HWT_PD_FEAT_BUILD_ID];
		uint8_t *data = realloc(f->data, (size_t)f->size + size + 1);

		if (!data)
			return stream_error(r, HWT_ERR_NOMEM, "%s: out of memory",
					    r->path);
		memcpy(data + f->size, rec, size);
		data[f->size + size] = 0;
		f->data = data;
		f->size += size;
		r->hdr.features[0] |= 1ULL << HWT_PD_FEAT_BUILD_ID;
	} else if (type == HWT_PD_RECORD_HEADER_FEATURE && size >= 16) {
		uint64_t bit = pd_u64(rec + 8);
		struct feature *f;

		if (bit >= PD_MAX_FEATURES)
			return 0;
		f = &r->features[bit];
		free(f->data);
		f->data = calloc(1, (size_t)size - 16 + 1);
		if (!f->data)
			return stream_error(r, HWT_ERR_NOMEM, "%s: out of memory",
					    r->path);
		memcpy(f->data, rec + 16, (size_t)size - 16);
		f->size = size - 16;
		f->offset = 0;
		r->hdr.features[bit / 64] |= 1ULL << (bit % 64);
		if (bit == HWT_PD_FEAT_EVENT_DESC)
			name_attrs(r);
	}
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
	n = fill(r, PD_EVENT_HEADER_SIZE);
	if (n < 0)
		return stream_error(r, (int)n, "%s", hwt_errmsg());
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
	pd_type_label(type, label, sizeof(label));
	if (size < PD_EVENT_HEADER_SIZE)
		return stream_error(r, HWT_ERR_FORMAT, "%s: record %s at byte "
				    "offset %" PRIu64 " has size %u, less than "
				    "its 8-byte header; the file is corrupt from "
				    "here", r->path, label, r->pos, size);
	n = fill(r, size);
	if (n < 0)
		return stream_error(r, (int)n, "%s", hwt_errmsg());
	if (n < size)
		return stream_error(r, HWT_ERR_TRUNCATED, "%s: record %s at byte "
				    "offset %" PRIu64 " is cut short: %zd of its "
				    "%u bytes are in the file", r->path, label,
				    r->pos, n, size);
	p = r->win + r->win_pos;
	if ((type == HWT_PD_RECORD_AUXTRACE && size < PD_AUXTRACE_HEADER_SIZE) ||
	    (type == HWT_PD_RECORD_HEADER_TRACING_DATA && size < 12))
		return stream_error(r, HWT_ERR_FORMAT, "%s: record %s at byte "
				    "offset %" PRIu64 " has size %u, too small "
				    "for its fields", r->path, label, r->pos,
				    size);
	if (type == HWT_PD_RECORD_COMPRESSED)
		return stream_error(r, HWT_ERR_NOSUP, "%s: record %s at byte "
				    "offset %" PRIu64 " holds zstd-compressed "
				    "records (perf record -z), which hwtrace does "
				    "not read; write an uncompressed copy with "
				    "`perf inject -i FILE -o COPY`", r->path, label,
				    r->pos);
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
			err = take_trailing(r, size, trailing, keep, label);
			if (err)
				return err;
			if (keep)
				rec->aux_data = r->aux;
		}
	}
	rec->type = type;
	rec->misc = pd_u16(p + 4);
	rec->size = size;
	rec->file_offset = r->pos;
	rec->data = p;
	if (r->pipe && type >= PD_USER_TYPE_START) {
		err = pipe_user_record(r, p, type, size);
		if (err)
			return err;
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
	if (get_string(&p, p + len, &s))
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
