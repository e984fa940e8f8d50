/* perf.data on-disk layout (tools/perf/Documentation/perf.data-file-format.txt)
 * and helpers shared by the reader, the writer and the AUXTRACE queues. */
#ifndef HWT_CORE_PERFDATA_FORMAT_H
#define HWT_CORE_PERFDATA_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/perfdata.h"

/* "PERFILE2" read as a little-endian u64; a big-endian file shows it
 * byte-swapped. */
#define PD_MAGIC2 0x32454c4946524550ULL
#define PD_MAGIC2_SWAPPED 0x50455246494c4532ULL
/* Version 1 files ("PERFFILE"), long obsolete. */
#define PD_MAGIC1 0x454c494646524550ULL

#define PD_FILE_HEADER_SIZE 104
#define PD_PIPE_HEADER_SIZE 16
#define PD_SECTION_SIZE 16
#define PD_EVENT_HEADER_SIZE 8
#define PD_AUXTRACE_HEADER_SIZE 48
/* Strings in feature sections are padded to this (perf's NAME_ALIGN). */
#define PD_NAME_ALIGN 64
/* The first feature bit of simpleperf's own sections (FEAT_FILE). */
#define PD_SIMPLEPERF_FEAT_START 128
#define PD_MAX_FEATURES 256
/* perf's PERF_RECORD_MISC_BUILD_ID_SIZE: the size byte is valid. */
#define PD_MISC_BUILD_ID_SIZE (1 << 15)
/* Records of these types are synthesized by perf, not the kernel. */
#define PD_USER_TYPE_START 64
/* simpleperf's own record types start here. */
#define PD_SIMPLEPERF_TYPE_START 32768

static inline uint16_t pd_u16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t pd_u32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t pd_u64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void pd_put16(void *p, uint16_t v) { memcpy(p, &v, sizeof(v)); }
static inline void pd_put32(void *p, uint32_t v) { memcpy(p, &v, sizeof(v)); }
static inline void pd_put64(void *p, uint64_t v) { memcpy(p, &v, sizeof(v)); }

static inline uint64_t pd_align8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* Fills @aux from the 48-byte AUXTRACE header at @rec. */
static inline void pd_parse_auxtrace(const uint8_t *rec,
				     struct hwt_pd_auxtrace *aux)
{
	aux->size = pd_u64(rec + 8);
	aux->offset = pd_u64(rec + 16);
	aux->reference = pd_u64(rec + 24);
	aux->idx = pd_u32(rec + 32);
	aux->tid = pd_u32(rec + 36);
	aux->cpu = pd_u32(rec + 40);
}

/* Bytes that follow a record of @type in the file beyond its header.size:
 * AUXTRACE's payload and pipe-mode tracing data. @rec holds at least
 * @size bytes. */
static inline uint64_t pd_trailing_bytes(const uint8_t *rec, uint32_t type,
					 uint16_t size)
{
	if (type == HWT_PD_RECORD_AUXTRACE && size >= PD_AUXTRACE_HEADER_SIZE)
		return pd_u64(rec + 8);
	if (type == HWT_PD_RECORD_HEADER_TRACING_DATA && size >= 12)
		return pd_u32(rec + 8);
	return 0;
}

/* pread of exactly @len bytes: 1 when read, 0 when the file is shorter,
 * -errno on failure. */
int pd_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* Where the readable data section of a file-mode reader ends, and its
 * descriptor (for the AUXTRACE queues' scan). */
uint64_t pd_reader_data_end(const struct hwt_pd_reader *r);
int pd_reader_fd(const struct hwt_pd_reader *r);

/* A growable byte buffer for building feature sections. A failed
 * allocation sets oom and later appends do nothing. */
struct pd_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

void pd_buf_put(struct pd_buf *b, const void *data, size_t len);
void pd_buf_put_u32(struct pd_buf *b, uint32_t v);
void pd_buf_put_u64(struct pd_buf *b, uint64_t v);
/* perf's do_write_string: u32 length (padded to 64 with the NUL), then
 * the string and zeros. */
void pd_buf_put_string(struct pd_buf *b, const char *s);
void pd_buf_pad8(struct pd_buf *b);
void pd_buf_free(struct pd_buf *b);

/* This machine's value for a string feature (hostname, osrelease, arch,
 * cpudesc, cpuid, version) or NULL when unknown; the result is malloced. */
char *pd_host_feature(enum hwt_pd_feature feature);

/* This machine's command line as NUL-separated arguments. */
char *pd_host_cmdline(size_t *size);

/* A printable record type for error messages: "AUXTRACE (71)". */
const char *pd_type_label(uint32_t type, char *buf, size_t size);

#endif
