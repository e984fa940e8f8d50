/* The memory image: which code bytes sat at which address, per process, so
 * decoders can follow the program between branch packets. Built from a
 * capture's MMAP/MMAP2 records, `--map FILE@ADDR`, or snapshot memory dumps. */
#ifndef HWTRACE_IMAGE_H
#define HWTRACE_IMAGE_H

#include <stdint.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Matches any process: kernel code, raw `--map` images. */
#define HWT_PID_ANY (-1)

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
	uint32_t missing_reported; /* for decoders: report a missing file once */
	/* Why a found file was refused (a build id or machine that is not
	 * the capture's), naming the file; NULL when it was not found at all. */
	const char *missing_detail;
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

/* Maps @size bytes of @path from @file_offset at @vaddr for @pid. @path is
 * copied. A later section hides an earlier one where they overlap, as a new
 * mmap does. Errors: HWT_ERR_NOENT (file missing or shorter than asked; the
 * section is still added as missing), HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API int hwt_image_add_file(struct hwt_image *image, int32_t pid,
			       uint64_t vaddr, uint64_t size, const char *path,
			       uint64_t file_offset);

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

/* Copies up to @size bytes at @vaddr as seen by @pid into @buf, stopping at
 * the end of the section. Returns the number of bytes copied, 0 when nothing
 * is mapped there, or HWT_ERR_NOENT when the section's file is missing. */
HWT_API int hwt_image_read(struct hwt_image *image, int32_t pid,
			   uint64_t vaddr, void *buf, size_t size);

/* The section that covers @vaddr for @pid (missing ones included), or NULL.
 * The pointer is valid until the image is changed or freed. */
HWT_API struct hwt_image_section *hwt_image_find(struct hwt_image *image,
						 int32_t pid, uint64_t vaddr);

/* Iteration over all sections, oldest first. */
HWT_API size_t hwt_image_count(const struct hwt_image *image);
HWT_API struct hwt_image_section *hwt_image_section(struct hwt_image *image,
						    size_t index);

#ifdef __cplusplus
}
#endif

#endif
