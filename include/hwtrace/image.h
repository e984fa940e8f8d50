/* The memory image: which code bytes sat at which address, per process and
 * when, so decoders can follow the program between branch packets. Built
 * from a capture's MMAP/MMAP2 records, `--map FILE@ADDR`, or snapshot memory
 * dumps.
 *
 * Time: each section is valid from the perf time it was mapped until it was
 * replaced (an overlapping mapping of the same process: only the overlapped
 * part ends), or its process exec'd or exited. Lookups take a time and see
 * the sections valid then; HWT_TIME_UNKNOWN sees the latest section at each
 * address, as an image without time does.
 *
 * Threads: once built, an image may be read by any number of threads at
 * once (lookups change nothing that another reader sees; their cache is
 * per thread). Changing it while others read it is not allowed. */
#ifndef HWTRACE_IMAGE_H
#define HWTRACE_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Matches any process: kernel code, raw `--map` images. */
#define HWT_PID_ANY (-1)

/* A lookup time for code whose time is not known: the latest section at
 * the address is used. As a section's valid_until: still mapped at the end. */
#define HWT_TIME_UNKNOWN UINT64_MAX
#define HWT_TIME_END UINT64_MAX

struct hwt_image;

/* One mapping. @data is NULL when the file could not be found: the section
 * is kept so decoders can name the missing file in a gap. */
struct hwt_image_section {
	const char *path;     /* as recorded (e.g. the MMAP2 filename) */
	const char *found_at; /* the file actually read, or NULL when missing */
	uint64_t vaddr;
	uint64_t size;
	uint64_t file_offset;
	int32_t pid;          /* HWT_PID_ANY for every process */
	const uint8_t *data;  /* @size bytes of code, or NULL */
	/* For decoders: a missing file is reported once (through
	 * hwt_image_section_first_report, safe when decoders share the image
	 * across threads). */
	uint32_t missing_reported;
	/* Why a found file was refused (a build id or machine that is not
	 * the capture's), naming the file; NULL when it was not found at all. */
	const char *missing_detail;
	/* Perf time span [valid_from, valid_until) in which the mapping was
	 * in place: 0 from the start, HWT_TIME_END to the end. */
	uint64_t valid_from;
	uint64_t valid_until;
	/* Where the mappings of its file in its process (code or data, as
	 * the capture's MMAP2 records say) put file offset 0, the lowest of
	 * them; 0 when not known. For a binary that is not found, address -
	 * map_base is its address relative to its first loadable segment. */
	uint64_t map_base;
};

/* Where hwt_image_add_mapping looks for files, in perf's order: the build-id
 * cache, then @symfs + path, then the path itself. Strings are borrowed and
 * must outlive the image. */
struct hwt_image_lookup {
	size_t size;             /* sizeof(struct hwt_image_lookup) */
	const char *symfs;       /* NULL: none */
	const char *buildid_dir; /* NULL: none (a ~/.debug-style cache) */
	const char *vmlinux;     /* used for the [kernel.kallsyms] mapping */
};

/* Returns a new empty image, or NULL when out of memory. */
HWT_API struct hwt_image *hwt_image_new(void);

/* Drops a reference: the last one frees the image and unmaps its files;
 * NULL is a no-op. */
HWT_API void hwt_image_free(struct hwt_image *image);

/* Takes another reference to @image (one per hwt_image_new), for a
 * consumer that reads it after its decode has returned (symbols of
 * elements that a time-ordered merge emits later). Returns @image. */
HWT_API struct hwt_image *hwt_image_ref(struct hwt_image *image);

/* Sets the perf time of what is added from now on (0 when the image is
 * made): new sections are valid from @time, and the sections of the same
 * process (HWT_PID_ANY: those of every process) that they overlap end at
 * @time where they overlap, as a new mmap replaces what was mapped there;
 * their parts outside the new section stay mapped. Add in time order. */
HWT_API void hwt_image_set_time(struct hwt_image *image, uint64_t time);

/* Ends, at @time, every section of @pid (not the HWT_PID_ANY ones) that is
 * valid then: the process exec'd (PERF_RECORD_COMM with
 * PERF_RECORD_MISC_COMM_EXEC) or exited (PERF_RECORD_EXIT). Returns how
 * many sections ended. */
HWT_API size_t hwt_image_end_process(struct hwt_image *image, int32_t pid,
				     uint64_t time);

/* Whether the image changes over time (a section was replaced or ended):
 * then decoders must give the time of the code they read. */
HWT_API bool hwt_image_changes(const struct hwt_image *image);

/* Whether some lookup hit an address whose mapping changed over time
 * without a time that decided between them (HWT_TIME_UNKNOWN, or a time
 * after all of them ended), so that the latest mapping was used where
 * another may have run; for a warning once the decode is over. */
HWT_API bool hwt_image_untimed_hits(const struct hwt_image *image);

/* Maps @size bytes of @path from @file_offset at @vaddr for @pid. @path is
 * copied. A later section hides an earlier one where they overlap, as a new
 * mmap does (see hwt_image_set_time). Errors: HWT_ERR_NOENT (file missing or shorter than asked; the
 * section is still added as missing), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_image_add_file(struct hwt_image *image, int32_t pid,
			       uint64_t vaddr, uint64_t size, const char *path,
			       uint64_t file_offset);

/* Maps the PT_LOAD segments of the ELF file @path (their bytes in the
 * file; not .bss) for @pid, each at its p_vaddr + @bias, as a loader
 * would: `decode --elf`. Errors: HWT_ERR_NOENT (no such file),
 * HWT_ERR_FORMAT (not an ELF file, no loadable segment, a segment past
 * the end of the file), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_image_add_elf(struct hwt_image *image, int32_t pid,
			      const char *path, uint64_t bias);

/* Copies @size bytes of @data to @vaddr for @pid.
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_image_add_buffer(struct hwt_image *image, int32_t pid,
				 uint64_t vaddr, const void *data,
				 uint64_t size, const char *name);

/* Adds a mapping from an MMAP/MMAP2 record, finding the file through
 * @lookup (may be NULL). @build_id may be NULL. Returns 0 when the file was
 * found, HWT_ERR_NOENT when it was not (the section is kept as missing),
 * HWT_ERR_NOMEM. */
HWT_API int hwt_image_add_mapping(struct hwt_image *image,
				  const struct hwt_image_lookup *lookup,
				  int32_t pid, uint64_t vaddr, uint64_t len,
				  uint64_t pgoff, const char *filename,
				  const uint8_t *build_id, size_t build_id_size);

/* Turns every section read from @found_at into a missing one whose
 * missing_detail is @why (copied): the file was found but is not the one
 * that was traced. Returns how many sections, or HWT_ERR_NOMEM. */
HWT_API int hwt_image_refuse(struct hwt_image *image, const char *found_at,
			     const char *why);

/* Copies up to @size bytes at @vaddr as seen by @pid at perf time @time
 * (HWT_TIME_UNKNOWN: the latest mapping) into @buf, stopping at the end of
 * the section. Returns the number of bytes copied, 0 when nothing is mapped
 * there, or HWT_ERR_NOENT when the section's file is missing. */
HWT_API int hwt_image_read_at(struct hwt_image *image, int32_t pid,
			      uint64_t vaddr, uint64_t time, void *buf,
			      size_t size);

/* The section that covers @vaddr for @pid at perf time @time
 * (HWT_TIME_UNKNOWN: the latest one), missing ones included, or NULL. Code
 * runs only where something is mapped, so when no section covered it then
 * the time does not fit the sideband: the first section mapped there after
 * @time (its record came late: a recorder that writes the mappings it found
 * at the end), else the last one before it. The pointer is valid until the
 * image is changed or freed. */
HWT_API struct hwt_image_section *hwt_image_find_at(struct hwt_image *image,
						    int32_t pid, uint64_t vaddr,
						    uint64_t time);

/* hwt_image_read_at and hwt_image_find_at at HWT_TIME_UNKNOWN. */
HWT_API int hwt_image_read(struct hwt_image *image, int32_t pid,
			   uint64_t vaddr, void *buf, size_t size);
HWT_API struct hwt_image_section *hwt_image_find(struct hwt_image *image,
						 int32_t pid, uint64_t vaddr);

/* Whether this is the first call for @section: the decoder that gets true
 * names its missing file, the others stay silent. Safe for decoders on
 * several threads sharing one image. */
HWT_API bool hwt_image_section_first_report(struct hwt_image_section *section);

/* Iteration over all sections, oldest first. */
HWT_API size_t hwt_image_count(const struct hwt_image *image);
HWT_API struct hwt_image_section *hwt_image_section(struct hwt_image *image,
						    size_t index);

#ifdef __cplusplus
}
#endif

#endif
