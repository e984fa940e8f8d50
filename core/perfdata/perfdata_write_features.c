/* perf.data writer: the feature sections, set during the session and
 * encoded after the data at close. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/perfdata/perfdata_writer_internal.h"
#include "hwtrace/error.h"

int hwt_pd_writer_set_feature(struct hwt_pd_writer *w,
			      enum hwt_pd_feature feature, const void *data,
			      size_t size)
{
	char *copy;

	if (feature != HWT_PD_FEAT_CMDLINE &&
	    feature != HWT_PD_FEAT_HOSTNAME && feature != HWT_PD_FEAT_OSRELEASE &&
	    feature != HWT_PD_FEAT_VERSION && feature != HWT_PD_FEAT_ARCH &&
	    feature != HWT_PD_FEAT_CPUDESC && feature != HWT_PD_FEAT_CPUID &&
	    (unsigned int)feature != HWT_PD_FEAT_HWTRACE_TRIGGER)
		return hwt_error(HWT_ERR_INVAL, "%s: feature %d is not a string "
				 "feature", w->path, feature);
	copy = malloc(size + 1);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	memcpy(copy, data, size);
	copy[size] = '\0';
	if ((unsigned int)feature == HWT_PD_FEAT_HWTRACE_TRIGGER) {
		free(w->trigger);
		w->trigger = copy;
	} else if (feature == HWT_PD_FEAT_CMDLINE) {
		free(w->cmdline);
		w->cmdline = copy;
		w->cmdline_size = size;
	} else {
		free(w->strings[feature]);
		w->strings[feature] = copy;
	}
	return 0;
}

int hwt_pd_writer_add_build_id(struct hwt_pd_writer *w, int32_t pid,
			       uint16_t misc, const uint8_t *build_id,
			       size_t size, const char *filename)
{
	size_t len = strlen(filename) + 1;
	size_t padded = (len + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
	uint8_t rec[8 + 4 + 24] = {0};

	if (size > 20)
		return hwt_error(HWT_ERR_INVAL, "%s: build id of %zu bytes; at "
				 "most 20", w->path, size);
	pd_put32(rec, HWT_PD_RECORD_HEADER_BUILD_ID);
	pd_put16(rec + 4, misc | PD_MISC_BUILD_ID_SIZE);
	pd_put16(rec + 6, (uint16_t)(sizeof(rec) + padded));
	pd_put32(rec + 8, (uint32_t)pid);
	memcpy(rec + 12, build_id, size);
	rec[12 + 20] = (uint8_t)size;
	pd_buf_put(&w->build_ids, rec, sizeof(rec));
	pd_buf_put(&w->build_ids, filename, len);
	pd_buf_put(&w->build_ids, NULL, padded - len);
	if (w->build_ids.oom)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	return 0;
}

int hwt_pd_writer_copy_feature(struct hwt_pd_writer *w, unsigned int feature,
			       const void *data, size_t size)
{
	if (feature >= NR_STRING_FEATURES || feature == HWT_PD_FEAT_EVENT_DESC ||
	    feature == HWT_PD_FEAT_AUXTRACE || feature == HWT_PD_FEAT_DIR_FORMAT ||
	    feature == HWT_PD_FEAT_COMPRESSED)
		return hwt_error(HWT_ERR_INVAL, "%s: feature %u describes the "
				 "file itself and cannot be copied", w->path,
				 feature);
	pd_buf_free(&w->copy[feature]);
	memset(&w->copy[feature], 0, sizeof(w->copy[feature]));
	w->copied[feature] = true;
	if (data && size)
		pd_buf_put(&w->copy[feature], data, size);
	if (w->copy[feature].oom)
		return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", w->path);
	return 0;
}

int hwt_pd_writer_set_nr_cpus(struct hwt_pd_writer *w, uint32_t nr_avail,
			      uint32_t nr_online)
{
	w->have_nr_cpus = true;
	w->nr_avail = nr_avail;
	w->nr_online = nr_online;
	return 0;
}

/* Encodes feature @bit into @b; returns false when the file gets none. */
static bool encode_feature(struct hwt_pd_writer *w, unsigned int bit,
			   struct pd_buf *b)
{
	char *s;

	if (bit < NR_STRING_FEATURES && w->copied[bit]) {
		pd_buf_put(b, w->copy[bit].p, w->copy[bit].len);
		return w->copy[bit].len > 0;
	}
	switch (bit) {
	case HWT_PD_FEAT_BUILD_ID:
		pd_buf_put(b, w->build_ids.p, w->build_ids.len);
		return true;
	case HWT_PD_FEAT_HOSTNAME:
	case HWT_PD_FEAT_OSRELEASE:
	case HWT_PD_FEAT_VERSION:
	case HWT_PD_FEAT_ARCH:
	case HWT_PD_FEAT_CPUDESC:
	case HWT_PD_FEAT_CPUID:
		s = w->strings[bit] ? strdup(w->strings[bit])
				    : pd_host_feature((enum hwt_pd_feature)bit);
		if (!s)
			return false;
		pd_buf_put_string(b, s);
		free(s);
		return true;
	case HWT_PD_FEAT_NRCPUS:
		if (!w->have_nr_cpus) {
			long conf = sysconf(_SC_NPROCESSORS_CONF);
			long onln = sysconf(_SC_NPROCESSORS_ONLN);

			w->nr_avail = conf > 0 ? (uint32_t)conf : 1;
			w->nr_online = onln > 0 ? (uint32_t)onln : w->nr_avail;
		}
		pd_buf_put_u32(b, w->nr_avail);
		pd_buf_put_u32(b, w->nr_online);
		return true;
	case HWT_PD_FEAT_CMDLINE: {
		size_t size = w->cmdline_size, nr = 0;
		char *args = w->cmdline, *host = NULL;

		if (!args)
			args = host = pd_host_cmdline(&size);
		if (!args)
			return false;
		for (size_t i = 0; i < size; i++)
			nr += args[i] == '\0';
		if (size && args[size - 1] != '\0')
			nr++;
		pd_buf_put_u32(b, (uint32_t)nr);
		for (size_t i = 0; i < size; i += strlen(args + i) + 1)
			pd_buf_put_string(b, args + i);
		free(host);
		return true;
	}
	case HWT_PD_FEAT_EVENT_DESC:
		pd_buf_put_u32(b, (uint32_t)w->nattrs);
		pd_buf_put_u32(b, sizeof(struct perf_event_attr));
		for (size_t i = 0; i < w->nattrs; i++) {
			pd_buf_put(b, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
			pd_buf_put_u32(b, (uint32_t)w->attrs[i].nids);
			pd_buf_put_string(b, w->attrs[i].name ? w->attrs[i].name
							      : "unknown");
			pd_buf_put(b, w->attrs[i].ids, w->attrs[i].nids * 8);
		}
		return true;
	case HWT_PD_FEAT_AUXTRACE:
		if (!w->nindex)
			return false;
		pd_buf_put_u64(b, w->nindex);
		for (size_t i = 0; i < w->nindex; i++) {
			pd_buf_put_u64(b, w->index[i].offset);
			pd_buf_put_u64(b, w->index[i].size);
		}
		return true;
	case HWT_PD_FEAT_COMPRESSED:
		return pd_writer_compression_feature(w, b);
	case HWT_PD_FEAT_HWTRACE_TRIGGER:
		if (!w->trigger)
			return false;
		pd_buf_put_string(b, w->trigger);
		return true;
	}
	return false;
}

/* Every feature bit a file can get, in the ascending order perf reads
 * the section table in (perf's, then hwtrace's own above them); those
 * neither encoded below nor copied are left out. */
static const unsigned int written_bits[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	HWT_PD_FEAT_HWTRACE_TRIGGER,
};
#define NR_WRITTEN (sizeof(written_bits) / sizeof(written_bits[0]))

int pd_writer_write_features(struct hwt_pd_writer *w)
{
	struct pd_buf sections[NR_WRITTEN] = {{0}};
	struct pd_buf table = {0}, body = {0};
	uint64_t features[4] = {0}, table_off, off;
	uint8_t h[PD_FILE_HEADER_SIZE];
	size_t nfeat = 0, n;
	bool have[NR_WRITTEN];
	int err = 0;

	for (unsigned int i = 0; i < NR_WRITTEN; i++) {
		unsigned int bit = written_bits[i];
		have[i] = encode_feature(w, bit, &sections[i]);
		if (have[i]) {
			features[bit / 64] |= 1ULL << (bit % 64);
			nfeat++;
		}
	}
	table_off = w->data_offset + w->data_size;
	off = table_off + nfeat * PD_SECTION_SIZE;
	for (size_t i = 0; i < NR_WRITTEN; i++) {
		if (!have[i])
			continue;
		pd_buf_put_u64(&table, off);
		pd_buf_put_u64(&table, sections[i].len);
		pd_buf_put(&body, sections[i].p, sections[i].len);
		off += sections[i].len;
		if (sections[i].oom)
			table.oom = true;
	}
	if (table.oom || body.oom) {
		err = hwt_error(HWT_ERR_NOMEM, "%s: out of memory writing the "
				"feature sections", w->path);
		goto out;
	}
	n = pd_pwrite_all(w->fd, table.p, table.len, table_off);
	if (n == table.len)
		n += pd_pwrite_all(w->fd, body.p, body.len, table_off + n);
	if (n != table.len + body.len) {
		err = pd_writer_io_error(w, errno, "writing the feature sections");
		if (ftruncate(w->fd, (off_t)table_off))
			err = pd_writer_io_error(w, errno, "truncating");
		goto out;
	}
	pd_writer_put_header(h, w, pd_writer_attrs_offset(w), features);
	if (pd_pwrite_all(w->fd, h, sizeof(h), 0) != sizeof(h))
		err = pd_writer_io_error(w, errno, "writing the final header");
out:
	for (size_t i = 0; i < NR_WRITTEN; i++)
		pd_buf_free(&sections[i]);
	pd_buf_free(&table);
	pd_buf_free(&body);
	return err;
}
