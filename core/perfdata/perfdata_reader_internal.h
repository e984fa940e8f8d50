/* The perf.data reader's state, shared by its parts: opening
 * (perfdata_reader.c), the file-mode header sections
 * (perfdata_read_header.c), event names (perfdata_read_names.c), the
 * record stream (perfdata_read_stream.c) and pipe mode
 * (perfdata_read_pipe.c). */
#ifndef HWT_CORE_PERFDATA_READER_INTERNAL_H
#define HWT_CORE_PERFDATA_READER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/perfdata/perfdata_format.h"

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
	/* perf record -z: while in_z, the window and pos above are those of
	 * the decompressed stream (perfdata_read_zstd.c). */
	struct pd_zstream *z;
	bool in_z;
};

/* Header sections of a file-mode file, read in this order at open. */
int pd_reader_read_file_header(struct hwt_pd_reader *r, const uint8_t *first);
int pd_reader_read_attrs(struct hwt_pd_reader *r);
int pd_reader_read_features(struct hwt_pd_reader *r);

/* Takes @attr_len bytes of an on-disk attribute and @nids ids (copied). */
int pd_reader_add_attr(struct hwt_pd_reader *r, const uint8_t *attr_bytes,
		       size_t attr_len, const uint8_t *ids, size_t nids);
/* Rebuilds the sorted id -> attribute index after attributes changed. */
int pd_reader_index_ids(struct hwt_pd_reader *r);
/* Keeps @msg as the reader's warning unless one is already kept. */
void pd_reader_warn(struct hwt_pd_reader *r, const char *msg);
/* Reads a string as perf writes it: u32 length, then that many bytes
 * holding a NUL-terminated string; advances *p. -1 when malformed. */
int pd_get_string(const uint8_t **p, const uint8_t *end, const char **s);

/* Names the attributes from HEADER_EVENT_DESC, in file order. */
void pd_reader_name_attrs(struct hwt_pd_reader *r);
/* Names them from simpleperf's meta info feature, by event type. */
void pd_reader_name_attrs_simpleperf(struct hwt_pd_reader *r);

/* Makes @need bytes from pos available in the window, if the input has
 * them. Returns how many are available (at most @need) or an error. */
ssize_t pd_reader_fill(struct hwt_pd_reader *r, size_t need);

/* Takes in a pipe-mode ATTR, BUILD_ID or FEATURE record. Returns 0 or a
 * negative hwt_err with its message set. */
int pd_reader_pipe_record(struct hwt_pd_reader *r, const uint8_t *rec,
			  uint32_t type, uint16_t size);

/* Compressed records (perfdata_read_zstd.c). */
bool pd_is_compressed_type(uint32_t type);
/* Takes the compressed record @rec, whole at pos in the window, and
 * switches the reader to the stream it decompresses to. */
int pd_z_enter(struct hwt_pd_reader *r, const uint8_t *rec, uint32_t type,
	       uint16_t size);
/* Switches back to the file's window (a no-op outside compressed data). */
void pd_z_leave(struct hwt_pd_reader *r);
/* Reads decompressed bytes, taking the next compressed records of the file
 * as input while they follow each other; 0 when they end. */
ssize_t pd_z_read(struct hwt_pd_reader *r, void *buf, size_t len);
/* The byte offset of the compressed record decompressed offset @dpos came
 * from. */
uint64_t pd_z_file_offset(const struct hwt_pd_reader *r, uint64_t dpos);
void pd_z_free(struct hwt_pd_reader *r);

#endif
