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
	HWT_PD_RECORD_COMPRESSED2 = 83, /* perf 6.15+: 8-byte aligned */
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

/* hwtrace's own feature bit: the capture was cut short while it was
 * recorded (the disk filled up), so its records end early and it has no
 * other feature sections. Set in the header only (the section, when
 * there was room for its table entry, is empty); above perf's bits and
 * below simpleperf's (128 on), and perf skips bits it does not know. */
#define HWT_PD_FEAT_HWTRACE_CUT_SHORT 100
/* hwtrace's own feature: why this capture was written, for a flight
 * recorder's window (which trigger, when, which thread), as a perf string
 * of "key: value" lines. Set with hwt_pd_writer_set_feature, read with
 * hwt_pd_reader_feature_string; perf skips the bit. */
#define HWT_PD_FEAT_HWTRACE_TRIGGER 101

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

/* Opens @path ("-" for standard input, pipe mode; a FIFO or a file holding
 * pipe-mode data works too). Reads the header, the attributes and the
 * feature sections; records are then streamed through a fixed window, so
 * memory does not grow with the file. @path is copied. Errors:
 * HWT_ERR_NOENT, HWT_ERR_PERM, HWT_ERR_IO, HWT_ERR_NOMEM, HWT_ERR_FORMAT
 * (not a perf.data file; big-endian files are named as such),
 * HWT_ERR_TRUNCATED; each message names the file and byte offset. Missing
 * or damaged feature sections do not fail the open: see
 * hwt_pd_reader_warning. */
HWT_API int hwt_pd_reader_open(const char *path, struct hwt_pd_reader **out);

/* Closes the file; NULL is a no-op. */
HWT_API void hwt_pd_reader_free(struct hwt_pd_reader *reader);

/* Reads the next record. Returns 1 with *rec filled, 0 at the end of the
 * data, or a negative error (HWT_ERR_TRUNCATED, HWT_ERR_FORMAT, HWT_ERR_IO,
 * HWT_ERR_NOMEM, HWT_ERR_NOSUP for a compression other than zstd) naming
 * the file, byte offset and record type; records before it were valid, and
 * the same error is returned from then on. The records held in
 * COMPRESSED and COMPRESSED2 records (perf record -z) are decompressed as
 * they are read and returned in their place (the compressed records
 * themselves are counted, not returned); such a record's file_offset is
 * the byte offset of the compressed record its bytes start in. In pipe mode ATTR and FEATURE
 * records also add events and features to the reader. */
HWT_API int hwt_pd_reader_next(struct hwt_pd_reader *reader,
			       struct hwt_pd_record *rec);

/* The events of the file (in pipe mode: of the ATTR records read so far)
 * and the @index-th of them, NULL past the end. The attributes belong to
 * the reader and live until hwt_pd_reader_free. */
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

/* The file header as read (pipe mode: only magic and size are set). */
struct hwt_pd_file_header {
	uint64_t size;          /* of the header */
	uint64_t attr_size;     /* of one attribute entry, ids section included */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t features[4];   /* bitmap; bits 128 and up are simpleperf's */
};

/* The file header as read (in pipe mode: only size and the features met
 * so far are set); owned by the reader. */
HWT_API const struct hwt_pd_file_header *
hwt_pd_reader_header(const struct hwt_pd_reader *reader);

/* Something the reader worked around at open (feature sections cut off, a
 * data size of 0), for the user to see; NULL when none. */
HWT_API const char *hwt_pd_reader_warning(const struct hwt_pd_reader *reader);

/* Whether the capture says it was cut short while it was recorded
 * (HWT_PD_FEAT_HWTRACE_CUT_SHORT): its trace ends early. */
HWT_API bool hwt_pd_reader_cut_short(const struct hwt_pd_reader *reader);

/* Whether the header's feature bitmap has bit @bit (0..255). */
HWT_API bool hwt_pd_reader_has_feature(const struct hwt_pd_reader *reader,
				       unsigned int bit);

/* A feature section's file offset (0 in pipe mode) and raw bytes, for any
 * bit including simpleperf's (128 and up). HWT_ERR_NOENT when absent. */
HWT_API int hwt_pd_reader_feature_raw(const struct hwt_pd_reader *reader,
				      unsigned int bit, uint64_t *offset,
				      const void **data, uint64_t *size);

/* Decodes a string feature (hostname, osrelease, version, arch, cpudesc,
 * cpuid) into @buf. HWT_ERR_NOENT when the file has none, HWT_ERR_FORMAT
 * when the section is malformed. */
HWT_API int hwt_pd_reader_feature_string(const struct hwt_pd_reader *reader,
					 enum hwt_pd_feature feature,
					 char *buf, size_t size);

/* One entry of the build id feature. */
struct hwt_pd_build_id {
	int32_t pid;
	uint16_t misc;          /* PERF_RECORD_MISC_KERNEL, _USER, ... */
	uint8_t size;           /* of id, 20 when the file does not say */
	uint8_t id[20];
	const char *filename;   /* valid as long as the reader */
};

/* The @index-th build id. Returns 1 with *out filled, 0 past the last one,
 * HWT_ERR_FORMAT when the section is malformed there. */
HWT_API int hwt_pd_reader_build_id(const struct hwt_pd_reader *reader,
				   size_t index, struct hwt_pd_build_id *out);

/* The nrcpus feature: CPUs available and online. HWT_ERR_NOENT without. */
HWT_API int hwt_pd_reader_nr_cpus(const struct hwt_pd_reader *reader,
				  uint32_t *nr_avail, uint32_t *nr_online);

/* Pair @index of simpleperf's meta info feature (NUL-terminated key and
 * value, pointing into the reader): 1 with the pair, 0 past the last one,
 * without the feature, or at a pair the section cuts short. */
HWT_API int hwt_pd_reader_meta_info(const struct hwt_pd_reader *reader,
				    size_t index, const char **key,
				    const char **value);

/* The entry count perf writes at the start of the auxtrace index feature
 * into *@entries. HWT_ERR_NOENT without the feature, when it is shorter
 * than the count, or in a simpleperf file (whose index has no count). */
HWT_API int hwt_pd_reader_auxtrace_index_count(const struct hwt_pd_reader *reader,
					       uint64_t *entries);

/* The cmdline feature joined by spaces into @buf. */
HWT_API int hwt_pd_reader_cmdline(const struct hwt_pd_reader *reader,
				  char *buf, size_t size);

/* When @load is false, AUXTRACE payloads are skipped rather than read and
 * rec->aux_data is NULL (the default is to load them). Saves reading the
 * trace when only sideband is wanted. */
HWT_API void hwt_pd_reader_set_load_aux(struct hwt_pd_reader *reader,
					bool load);

/* From now on hwt_pd_reader_next returns only records of the @ntypes
 * types in @types (any type of 128 or more selects all such types); the
 * others are read, counted and skipped. @ntypes 0 selects every type
 * again. With only sideband types selected and payload loading off, the
 * trace is never read. */
HWT_API void hwt_pd_reader_select_types(struct hwt_pd_reader *reader,
					const uint32_t *types, size_t ntypes);

/* Reads @len bytes at file offset @offset without moving the record stream
 * (file mode only; HWT_ERR_NOSUP in pipe mode). HWT_ERR_TRUNCATED when the
 * file is shorter. */
HWT_API int hwt_pd_reader_read_at(struct hwt_pd_reader *reader,
				  uint64_t offset, void *buf, size_t len);

/* How many records of each type hwt_pd_reader_next returned so far, and
 * how many COMPRESSED and COMPRESSED2 records it decompressed them from
 * (as perf report -D counts them); types 0..127 are counted, others in the
 * last slot (simpleperf's own types). Owned by the reader. */
#define HWT_PD_NR_COUNTED_TYPES 129
HWT_API const uint64_t *
hwt_pd_reader_counts(const struct hwt_pd_reader *reader);

/* perf's name of a record type ("MMAP2", "AUXTRACE", ...) or NULL. */
HWT_API const char *hwt_pd_record_type_name(uint32_t type);

/* perf's name of a feature bit ("hostname", "auxtrace", ...) or NULL. */
HWT_API const char *hwt_pd_feature_name(unsigned int bit);

/* Parses the sample_id fields of a record given the sample_type of its
 * event (kernel records with sample_id_all: the trailer; PERF_RECORD_SAMPLE:
 * the leading fields). Returns 0, or HWT_ERR_FORMAT when the record is too
 * short for them. */
HWT_API int hwt_pd_parse_sample_id(const void *record, uint64_t sample_type,
				   bool sample_id_all,
				   struct hwt_pd_sample_id *sid);

/* AUXTRACE queues: per idx (one per CPU in per-CPU mode, one per thread in
 * per-thread mode), the AUXTRACE buffers of the file in file order, with
 * where their payload lies, so a decoder fetches the bytes when it needs
 * them (hwt_pd_reader_read_at). */
struct hwt_pd_aux_buffer {
	struct hwt_pd_auxtrace aux;
	uint64_t file_offset;   /* of the AUXTRACE record */
	uint64_t data_offset;   /* of its payload (file_offset + record size) */
};

struct hwt_pd_aux_queue {
	uint32_t idx;
	uint32_t cpu, tid;      /* of its first buffer */
	size_t nbuffers;
	const struct hwt_pd_aux_buffer *buffers;
	uint64_t bytes;         /* payload bytes in all buffers */
};

struct hwt_pd_aux_queues;

/* Builds the queues of a file-mode reader from the auxtrace index feature
 * when it is present and consistent, else by scanning the data section.
 * Does not move the record stream of @reader, which must outlive the
 * result. Errors: HWT_ERR_NOSUP (pipe mode: take the AUXTRACE records from
 * hwt_pd_reader_next instead), HWT_ERR_NOMEM, and the reader's errors for a
 * corrupt data section (the buffers before the corruption are kept when
 * @out is set: *out is then non-NULL). */
HWT_API int hwt_pd_aux_queues_build(struct hwt_pd_reader *reader,
				    struct hwt_pd_aux_queues **out);

/* Whether the queues came from the auxtrace index feature. */
HWT_API bool hwt_pd_aux_queues_from_index(const struct hwt_pd_aux_queues *q);

/* How many queues there are (one per mmap index). */
HWT_API size_t hwt_pd_aux_queues_count(const struct hwt_pd_aux_queues *q);

/* Queues in increasing idx order; NULL past the end. */
HWT_API const struct hwt_pd_aux_queue *
hwt_pd_aux_queues_get(const struct hwt_pd_aux_queues *q, size_t index);

/* Reads the payload of @buffer into @dst (buffer->aux.size bytes). */
HWT_API int hwt_pd_aux_buffer_read(struct hwt_pd_reader *reader,
				   const struct hwt_pd_aux_buffer *buffer,
				   void *dst);

/* NULL is a no-op. */
HWT_API void hwt_pd_aux_queues_free(struct hwt_pd_aux_queues *q);

/* The task a per-CPU capture follows: the thread its first AUXTRACE
 * record names, when that record is of a CPU's buffer (its cpu is not
 * -1) and names a thread (its tid is above 0; perf writes -1, and
 * simpleperf 0, for a capture of whole CPUs). A replay of such a capture
 * keeps naming that task. Sets *tid to it, or to -1 when the capture has
 * none (per-thread buffers, whole CPUs, no AUXTRACE record), and returns
 * 0; errors: those of hwt_pd_reader_open and hwt_pd_reader_next, naming
 * the file. */
HWT_API int hwt_pd_aux_task(const char *path, int32_t *tid);

struct hwt_pd_writer;

/* Creates the capture @path (mode 0600 as perf does) through
 * hwtrace/outfile.h: written as PATH.tmp.XXXXXX beside it and renamed over
 * @path by hwt_pd_writer_close, so whatever was at @path stays until the
 * capture is complete; a directory, device, symbolic link or other
 * non-regular @path is refused (HWT_ERR_CONFIG). The header is
 * kept valid as data is written: records are buffered and written, with
 * the header's data size, at every FINISHED_ROUND, flush and full buffer,
 * so a capture killed without close reads up to there. After the first
 * failed write every call returns the same error. Errors: HWT_ERR_IO,
 * HWT_ERR_PERM, HWT_ERR_NOMEM; the message names the file. */
HWT_API int hwt_pd_writer_open(const char *path, struct hwt_pd_writer **out);

/* Declares an event; must come before the first record (else
 * HWT_ERR_INVAL). @attr, @ids and @name are copied; @name goes to the
 * event_desc feature. attr.size is written as this header's size. */
HWT_API int hwt_pd_writer_add_attr(struct hwt_pd_writer *writer,
				   const struct perf_event_attr *attr,
				   const uint64_t *ids, size_t nids,
				   const char *name);

/* How many events hwt_pd_writer_add_attr declared so far: the index the
 * next one gets (GROUP_DESC names a group's leader by it). */
HWT_API size_t hwt_pd_writer_nr_attrs(const struct hwt_pd_writer *writer);

/* Appends a record (header included, size from its header). Records with a payload after them (AUXTRACE, TRACING_DATA) are
 * refused with HWT_ERR_INVAL. @record is copied. ENOSPC (or EDQUOT) gives
 * HWT_ERR_NOSPC naming the file and how many bytes of records were kept:
 * whole records only, the header describing them; the capture must end. */
HWT_API int hwt_pd_writer_record(struct hwt_pd_writer *writer,
				 const void *record);

/* Appends an AUXTRACE record and its payload, padded to 8 bytes (the
 * record's size field says the padded size, as perf writes it), and
 * indexes it for the auxtrace feature section. @data holds aux->size
 * bytes and is copied. Errors as hwt_pd_writer_record. */
HWT_API int hwt_pd_writer_auxtrace(struct hwt_pd_writer *writer,
				   const struct hwt_pd_auxtrace *aux,
				   const void *data);

/* Sets a string feature (hostname, osrelease, arch, cpudesc, cpuid,
 * version, HWT_PD_FEAT_HWTRACE_TRIGGER) or, for HWT_PD_FEAT_CMDLINE, the command line joined by NULs.
 * @data is copied. Features not set describe this machine (uname,
 * /proc/cpuinfo, the calling process's command line). Other features:
 * HWT_ERR_INVAL. */
HWT_API int hwt_pd_writer_set_feature(struct hwt_pd_writer *writer,
				      enum hwt_pd_feature feature,
				      const void *data, size_t size);

/* Adds a build id to the build id feature (misc: PERF_RECORD_MISC_KERNEL
 * or _USER; @size up to 20 bytes). @filename is copied. */
HWT_API int hwt_pd_writer_add_build_id(struct hwt_pd_writer *writer,
				       int32_t pid, uint16_t misc,
				       const uint8_t *build_id, size_t size,
				       const char *filename);

/* Writes feature @feature as the @size bytes of @data, unchanged (another
 * capture's section, as hwt_pd_reader_feature_raw gives it); @data NULL
 * leaves the feature out of the file instead of describing this machine.
 * Replays use it to keep the recording machine's description and build
 * ids. The features that describe this file itself (event_desc,
 * auxtrace, dir_format, compressed) and bits past 31: HWT_ERR_INVAL. */
HWT_API int hwt_pd_writer_copy_feature(struct hwt_pd_writer *writer,
				       unsigned int feature, const void *data,
				       size_t size);

/* hwt_pd_writer_copy_feature for each of the @n features @features of
 * the capture @reader reads: its section byte for byte, a feature it
 * lacks left out. Stops at the first error. */
HWT_API int hwt_pd_writer_copy_features(struct hwt_pd_writer *writer,
					const struct hwt_pd_reader *reader,
					const unsigned int *features, size_t n);

/* Sets the cmdline feature (HWT_PD_FEAT_CMDLINE) as perf record writes
 * it: @prog, then the @argc arguments of @argv. Errors: HWT_ERR_NOMEM and
 * those of hwt_pd_writer_set_feature. */
HWT_API int hwt_pd_writer_set_cmdline(struct hwt_pd_writer *writer,
				      const char *prog, int argc,
				      char *const *argv);

/* Sets the number of CPUs (HWT_PD_FEAT_NRCPUS): available and online.
 * Without it, close writes this machine's numbers. */
HWT_API int hwt_pd_writer_set_nr_cpus(struct hwt_pd_writer *writer,
				      uint32_t nr_avail, uint32_t nr_online);

/* Appends PERF_RECORD_AUXTRACE_INFO: the AUXTRACE type (perf's enum
 * auxtrace_type) and the backend's @npriv u64s, laid out as perf's
 * *_info_fill writes them for that PMU. */
HWT_API int hwt_pd_writer_auxtrace_info(struct hwt_pd_writer *writer,
					uint32_t type, const uint64_t *priv,
					size_t npriv);

/* The time conversion of the AUX event's user page (struct
 * perf_event_mmap_page), for PERF_RECORD_TIME_CONV. */
struct hwt_pd_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;
	bool cap_user_time_zero, cap_user_time_short;
};

/* Appends PERF_RECORD_TIME_CONV in perf 5.12+'s 56-byte layout. */
HWT_API int hwt_pd_writer_time_conv(struct hwt_pd_writer *writer,
				    const struct hwt_pd_time_conv *tc);

/* Appends PERF_RECORD_FINISHED_ROUND: every record before it was read
 * from the rings before any after it, which lets perf sort events in
 * rounds. Also flushes (see hwt_pd_writer_flush). */
HWT_API int hwt_pd_writer_finished_round(struct hwt_pd_writer *writer);

/* Writes the buffered records and makes the header describe them, so the
 * file reads up to here even if the process dies next. */
HWT_API int hwt_pd_writer_flush(struct hwt_pd_writer *writer);

/* Flags of hwt_pd_writer_set_compression. */
#define HWT_PD_COMPRESS_AUX 1u /* AUXTRACE payloads too: hwtrace-only files */

/* Compresses what follows as perf record -z does: kernel records go into
 * PERF_RECORD_COMPRESSED records (one zstd stream at @level, 1-22), and
 * the compressed feature says so; perf 5.1+ and hwtrace read the file.
 * With HWT_PD_COMPRESS_AUX the AUXTRACE records and their payloads are
 * compressed too and are left out of the auxtrace index: perf cannot read
 * such a file's trace (it reads AUX data by file offset), hwtrace can.
 * Must come before the first record. Errors: HWT_ERR_INVAL (bad level,
 * too late), HWT_ERR_NOMEM. */
HWT_API int hwt_pd_writer_set_compression(struct hwt_pd_writer *writer,
					  int level, unsigned flags);

/* Bytes given to the compressor so far and bytes of COMPRESSED records
 * written for them (both 0 without compression). */
HWT_API void hwt_pd_writer_compression_stats(const struct hwt_pd_writer *writer,
					     uint64_t *in, uint64_t *out);

/* Bytes of data section written (and kept) so far. */
HWT_API uint64_t hwt_pd_writer_data_size(const struct hwt_pd_writer *writer);

/* Whether a capture cut short by a full disk may replace a file that was
 * at the path when the writer was opened (default: no). */
HWT_API void hwt_pd_writer_keep_partial(struct hwt_pd_writer *writer,
					bool keep);

/* Flushes, writes the feature sections (build ids, hostname, osrelease,
 * version, arch, nrcpus, cpudesc, cpuid, cmdline, event_desc, and the
 * auxtrace index when there are AUXTRACE records) and the final header,
 * then closes the file and renames it to the path given to open. Frees
 * the writer even on error; NULL is a no-op.
 *
 * After a full disk (HWT_ERR_NOSPC, the message saying which of these
 * happened): a file that was at the path stays as it was and the capture
 * is lost, unless hwt_pd_writer_keep_partial allowed replacing it; else
 * the capture, with its records up to the last whole one and no other
 * features, takes the path marked as cut short
 * (HWT_PD_FEAT_HWTRACE_CUT_SHORT). A capture that had not written its
 * header yet is never kept. After any other failure the path is left as
 * it was. */
HWT_API int hwt_pd_writer_close(struct hwt_pd_writer *writer);

/* Abandons the capture: removes the temporary file, leaves the path given
 * to open as it was, and frees the writer. NULL is a no-op. */
HWT_API void hwt_pd_writer_discard(struct hwt_pd_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
