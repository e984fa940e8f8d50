/* perf.data: reading and writing the capture file (DESIGN.md §5).
 * The reader accepts perf's file and pipe modes and simpleperf's files; the
 * writer produces files Linux perf reads. */
#ifndef HWTRACE_PERFDATA_H
#define HWTRACE_PERFDATA_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Synthesized record types (perf's enum perf_user_event_type). */
enum hwt_pd_user_type {
	HWT_PD_RECORD_HEADER_ATTR = 64,
	HWT_PD_RECORD_HEADER_EVENT_TYPE = 65,
	HWT_PD_RECORD_HEADER_TRACING_DATA = 66,
	HWT_PD_RECORD_HEADER_BUILD_ID = 67,
	HWT_PD_RECORD_FINISHED_ROUND = 68,
	HWT_PD_RECORD_ID_INDEX = 69,
	HWT_PD_RECORD_AUXTRACE_INFO = 70,
	HWT_PD_RECORD_AUXTRACE = 71,
	HWT_PD_RECORD_AUXTRACE_ERROR = 72,
	HWT_PD_RECORD_THREAD_MAP = 73,
	HWT_PD_RECORD_CPU_MAP = 74,
	HWT_PD_RECORD_STAT_CONFIG = 75,
	HWT_PD_RECORD_STAT = 76,
	HWT_PD_RECORD_STAT_ROUND = 77,
	HWT_PD_RECORD_EVENT_UPDATE = 78,
	HWT_PD_RECORD_TIME_CONV = 79,
	HWT_PD_RECORD_HEADER_FEATURE = 80,
	HWT_PD_RECORD_COMPRESSED = 81,
	HWT_PD_RECORD_FINISHED_INIT = 82,
};

/* Header feature bits (perf's HEADER_* enum). */
enum hwt_pd_feature {
	HWT_PD_FEAT_TRACING_DATA = 1,
	HWT_PD_FEAT_BUILD_ID = 2,
	HWT_PD_FEAT_HOSTNAME = 3,
	HWT_PD_FEAT_OSRELEASE = 4,
	HWT_PD_FEAT_VERSION = 5,
	HWT_PD_FEAT_ARCH = 6,
	HWT_PD_FEAT_NRCPUS = 7,
	HWT_PD_FEAT_CPUDESC = 8,
	HWT_PD_FEAT_CPUID = 9,
	HWT_PD_FEAT_TOTAL_MEM = 10,
	HWT_PD_FEAT_CMDLINE = 11,
	HWT_PD_FEAT_EVENT_DESC = 12,
	HWT_PD_FEAT_CPU_TOPOLOGY = 13,
	HWT_PD_FEAT_NUMA_TOPOLOGY = 14,
	HWT_PD_FEAT_BRANCH_STACK = 15,
	HWT_PD_FEAT_PMU_MAPPINGS = 16,
	HWT_PD_FEAT_GROUP_DESC = 17,
	HWT_PD_FEAT_AUXTRACE = 18,
	HWT_PD_FEAT_STAT = 19,
	HWT_PD_FEAT_CACHE = 20,
	HWT_PD_FEAT_SAMPLE_TIME = 21,
	HWT_PD_FEAT_MEM_TOPOLOGY = 22,
	HWT_PD_FEAT_CLOCKID = 23,
	HWT_PD_FEAT_DIR_FORMAT = 24,
	HWT_PD_FEAT_BPF_PROG_INFO = 25,
	HWT_PD_FEAT_BPF_BTF = 26,
	HWT_PD_FEAT_COMPRESSED = 27,
	HWT_PD_FEAT_CPU_PMU_CAPS = 28,
	HWT_PD_FEAT_CLOCK_DATA = 29,
	HWT_PD_FEAT_HYBRID_TOPOLOGY = 30,
	HWT_PD_FEAT_PMU_CAPS = 31,
};

/* The sample_id fields found in a record (PERF_SAMPLE_* bits that were
 * present). */
struct hwt_pd_sample_id {
	uint64_t present; /* PERF_SAMPLE_TID | _TIME | _ID | _CPU | ... */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

/* One event attribute of the file and the sample ids that belong to it. */
struct hwt_pd_attr {
	struct perf_event_attr attr; /* as read, zero-extended to our size */
	const uint64_t *ids;
	size_t nids;
	const char *name;            /* from EVENT_DESC, or NULL */
};

/* The header of an AUXTRACE record (type 71). */
struct hwt_pd_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
};

/* One record as read. Pointers are valid until the next call on the
 * reader. */
struct hwt_pd_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;               /* of the record, header included */
	uint64_t file_offset;        /* where the record starts */
	const void *data;            /* the whole record, header included */
	struct hwt_pd_sample_id sid; /* for kernel records with sample_id_all */
	/* AUXTRACE only: its header and payload. */
	struct hwt_pd_auxtrace aux;
	const uint8_t *aux_data;
};

struct hwt_pd_reader;

/* Opens @path ("-" for standard input, pipe mode). Reads the header, the
 * attributes and the feature sections. Errors: HWT_ERR_NOENT, HWT_ERR_PERM,
 * HWT_ERR_FORMAT (not a perf.data file; big-endian files are named as
 * such), HWT_ERR_TRUNCATED; each message names the file and byte offset. */
HWT_API int hwt_pd_reader_open(const char *path, struct hwt_pd_reader **out);

/* Closes the file; NULL is a no-op. */
HWT_API void hwt_pd_reader_free(struct hwt_pd_reader *reader);

/* Reads the next record. Returns 1 with *rec filled, 0 at the end of the
 * data, or a negative error (HWT_ERR_TRUNCATED, HWT_ERR_FORMAT) naming the
 * file, offset and record type; records before it were valid. */
HWT_API int hwt_pd_reader_next(struct hwt_pd_reader *reader,
			       struct hwt_pd_record *rec);

HWT_API size_t hwt_pd_reader_nr_attrs(const struct hwt_pd_reader *reader);
HWT_API const struct hwt_pd_attr *
hwt_pd_reader_attr(const struct hwt_pd_reader *reader, size_t index);

/* The attribute a sample id belongs to, or NULL. */
HWT_API const struct hwt_pd_attr *
hwt_pd_reader_attr_by_id(const struct hwt_pd_reader *reader, uint64_t id);

/* A feature section's bytes; HWT_ERR_NOENT when the file has none. */
HWT_API int hwt_pd_reader_feature(const struct hwt_pd_reader *reader,
				  enum hwt_pd_feature feature,
				  const void **data, uint64_t *size);

/* Whether the file was written by simpleperf / is in pipe mode. */
HWT_API bool hwt_pd_reader_is_simpleperf(const struct hwt_pd_reader *reader);
HWT_API bool hwt_pd_reader_is_pipe(const struct hwt_pd_reader *reader);

/* The file's path, for messages. */
HWT_API const char *hwt_pd_reader_path(const struct hwt_pd_reader *reader);

struct hwt_pd_writer;

/* Creates @path (truncating it). The header is kept valid as data is
 * written, so a capture cut short still reads. Errors: HWT_ERR_IO,
 * HWT_ERR_PERM, HWT_ERR_NOMEM; the message names the file. */
HWT_API int hwt_pd_writer_open(const char *path, struct hwt_pd_writer **out);

/* Declares an event; must come before the first record. @attr, @ids and
 * @name are copied. */
HWT_API int hwt_pd_writer_add_attr(struct hwt_pd_writer *writer,
				   const struct perf_event_attr *attr,
				   const uint64_t *ids, size_t nids,
				   const char *name);

/* Appends a record (header included, size from its header). ENOSPC gives
 * HWT_ERR_NOSPC naming the file and how many bytes were kept. */
HWT_API int hwt_pd_writer_record(struct hwt_pd_writer *writer,
				 const void *record);

/* Appends an AUXTRACE record and its payload, padded to 8 bytes, and
 * indexes it for the auxtrace feature section. */
HWT_API int hwt_pd_writer_auxtrace(struct hwt_pd_writer *writer,
				   const struct hwt_pd_auxtrace *aux,
				   const void *data);

/* Sets a string feature (hostname, osrelease, arch, cpudesc, cpuid,
 * version) or, for HWT_PD_FEAT_CMDLINE, the command line joined by NULs. */
HWT_API int hwt_pd_writer_set_feature(struct hwt_pd_writer *writer,
				      enum hwt_pd_feature feature,
				      const void *data, size_t size);

/* Writes the feature sections and the final header, then closes the file.
 * Frees the writer even on error. */
HWT_API int hwt_pd_writer_close(struct hwt_pd_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
