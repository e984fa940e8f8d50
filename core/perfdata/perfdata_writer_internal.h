/* The perf.data writer's state, shared by the record stream
 * (perfdata_writer.c) and the feature sections (perfdata_write_features.c). */
#ifndef HWT_CORE_PERFDATA_WRITER_INTERNAL_H
#define HWT_CORE_PERFDATA_WRITER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/perfdata/perfdata_format.h"

#define NR_STRING_FEATURES 32

struct wattr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nids;
	char *name;
};

struct index_entry {
	uint64_t offset, size;
};

struct hwt_pd_writer {
	char *path;
	struct hwt_outfile *out; /* the temporary file, renamed at close */
	int fd;                  /* its descriptor */
	struct wattr *attrs;
	size_t nattrs;
	bool started;
	uint64_t data_offset;
	uint64_t data_size;      /* in the file and in the header */
	uint8_t *buf;            /* whole records not yet written */
	size_t buf_len;
	struct index_entry *index;
	size_t nindex, index_cap;
	struct pd_buf build_ids;
	char *strings[NR_STRING_FEATURES];
	char *cmdline;
	size_t cmdline_size;
	char *trigger;           /* HWT_PD_FEAT_HWTRACE_TRIGGER, or NULL */
	bool have_nr_cpus;
	uint32_t nr_avail, nr_online;
	/* Features given as they are (hwt_pd_writer_copy_feature): another
	 * capture's description of its machine, written unchanged; a copied
	 * feature with no bytes is left out of the file. */
	bool copied[NR_STRING_FEATURES];
	struct pd_buf copy[NR_STRING_FEATURES];
	int error;               /* sticky after a failed write */
	bool keep_partial;       /* a capture cut short may replace a file */
	struct pd_wzstd *z;      /* perf record -z; NULL when not compressing */
};

/* Records a failed write as the writer's sticky error and returns it:
 * HWT_ERR_NOSPC for a full disk (saying how much was kept), else
 * HWT_ERR_IO naming @what. */
int pd_writer_io_error(struct hwt_pd_writer *w, int err, const char *what);
/* pwrite of all @len bytes; returns how many were written (errno set when
 * fewer). */
size_t pd_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);
/* Fills the file header @h (PD_FILE_HEADER_SIZE bytes); @features is the
 * feature bitmap, NULL for none. */
void pd_writer_put_header(uint8_t *h, const struct hwt_pd_writer *w,
			  uint64_t attrs_offset, const uint64_t *features);
/* Where the attributes start: after the header and every attribute's ids. */
uint64_t pd_writer_attrs_offset(const struct hwt_pd_writer *w);

/* At close, after the last record: the feature table and sections, then
 * the final header. */
int pd_writer_write_features(struct hwt_pd_writer *w);

/* Compression (perfdata_write_zstd.c). Whether records of @type go into
 * COMPRESSED records. */
bool pd_writer_compresses(const struct hwt_pd_writer *w, uint32_t type);
/* The @len bytes of whole records in @buf as they go to the file: runs of
 * compressed types as COMPRESSED records, the others as they are. *out
 * stays the writer's until the next call. */
int pd_writer_compress_records(struct hwt_pd_writer *w, const uint8_t *buf,
			       size_t len, uint8_t **out, size_t *out_len);
/* @len bytes of one record's payload as COMPRESSED records. */
int pd_writer_compress_payload(struct hwt_pd_writer *w, const uint8_t *data,
			       size_t len, uint8_t **out, size_t *out_len);
/* A plain record of @type at @old_pos of the buffer goes to @new_pos of
 * what is written instead: moves its AUXTRACE index entry. */
void pd_writer_moved(struct hwt_pd_writer *w, uint32_t type, size_t old_pos,
		     size_t new_pos);
/* HEADER_COMPRESSED's section; false when not compressing. */
bool pd_writer_compression_feature(const struct hwt_pd_writer *w,
				   struct pd_buf *b);
void pd_writer_free_compression(struct hwt_pd_writer *w);

#endif
