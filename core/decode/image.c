/* The memory image: sections over mmapped files and copied buffers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/image.h"
#include "core/decode/decode_internal.h"

/* A file is mapped once however many sections point into it. */
struct mapped_file {
	char *path;
	uint8_t *base;
	size_t size;
};

struct hwt_image {
	struct hwt_image_section *sections;
	size_t count, cap;
	struct mapped_file *files;
	size_t nfiles, files_cap;
	/* Decoders ask about the same section many times in a row. */
	size_t last_hit;
	int32_t cache_pid;
	int cache_valid;
	unsigned refs;  /* hwt_image_new's, plus hwt_image_ref's */
	/* A view (hwt_image_view_new): its sections are copies of @parent's
	 * whose strings and data @parent owns. */
	struct hwt_image *parent;
};

struct hwt_image *hwt_image_new(void)
{
	struct hwt_image *image = calloc(1, sizeof(struct hwt_image));
	if (image)
		image->refs = 1;
	return image;
}

struct hwt_image *hwt_image_ref(struct hwt_image *image)
{
	if (image)
		image->refs++;
	return image;
}

void hwt_image_free(struct hwt_image *image)
{
	if (!image || --image->refs)
		return;
	if (image->parent) {
		hwt_image_free(image->parent);
		free(image->sections);
		free(image);
		return;
	}
	for (size_t i = 0; i < image->count; i++) {
		struct hwt_image_section *s = &image->sections[i];
		/* Buffers are owned (found_at == NULL and data != NULL). */
		if (!s->found_at && s->data)
			free((void *)s->data);
		free((void *)s->path);
		free((void *)s->found_at);
		free((void *)s->missing_detail);
	}
	for (size_t i = 0; i < image->nfiles; i++) {
		if (image->files[i].base)
			munmap(image->files[i].base, image->files[i].size);
		free(image->files[i].path);
	}
	free(image->files);
	free(image->sections);
	free(image);
}

static struct hwt_image_section *push_section(struct hwt_image *image)
{
	if (image->count == image->cap) {
		size_t ncap = image->cap ? image->cap * 2 : 16;
		void *n = realloc(image->sections, ncap * sizeof(*image->sections));
		if (!n)
			return NULL;
		image->sections = n;
		image->cap = ncap;
	}
	struct hwt_image_section *s = &image->sections[image->count++];
	memset(s, 0, sizeof(*s));
	image->cache_valid = 0;
	return s;
}

/* Returns the mapped file, or NULL with errno set. */
static struct mapped_file *map_file(struct hwt_image *image, const char *path)
{
	for (size_t i = 0; i < image->nfiles; i++)
		if (!strcmp(image->files[i].path, path))
			return &image->files[i];

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return NULL;
	}
	void *base = NULL;
	if (st.st_size > 0) {
		base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (base == MAP_FAILED) {
			close(fd);
			return NULL;
		}
	}
	close(fd);

	if (image->nfiles == image->files_cap) {
		size_t ncap = image->files_cap ? image->files_cap * 2 : 8;
		void *n = realloc(image->files, ncap * sizeof(*image->files));
		if (!n)
			goto nomem;
		image->files = n;
		image->files_cap = ncap;
	}
	struct mapped_file *f = &image->files[image->nfiles];
	f->path = strdup(path);
	if (!f->path)
		goto nomem;
	f->base = base;
	f->size = (size_t)st.st_size;
	image->nfiles++;
	return f;
nomem:
	if (base)
		munmap(base, (size_t)st.st_size);
	errno = ENOMEM;
	return NULL;
}

/* Adds a section for @recorded_path whose bytes come from @found (may be
 * NULL when the file was not found). */
static int add_section(struct hwt_image *image, int32_t pid, uint64_t vaddr,
		       uint64_t size, const char *recorded_path,
		       const char *found, uint64_t file_offset)
{
	struct hwt_image_section *s = push_section(image);
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory adding %s",
				 recorded_path);
	s->pid = pid;
	s->vaddr = vaddr;
	s->size = size;
	s->file_offset = file_offset;
	s->path = strdup(recorded_path);
	if (!s->path) {
		image->count--;
		return hwt_error(HWT_ERR_NOMEM, "out of memory adding %s",
				 recorded_path);
	}
	if (!found)
		return hwt_error(HWT_ERR_NOENT, "%s: no such file", recorded_path);

	struct mapped_file *f = map_file(image, found);
	if (!f) {
		int err = errno;
		if (err == ENOMEM)
			return hwt_error(HWT_ERR_NOMEM, "out of memory mapping %s",
					 found);
		return hwt_error(err == ENOENT ? HWT_ERR_NOENT : HWT_ERR_IO,
				 "%s: %s", found, strerror(err));
	}
	if (file_offset > f->size || size > f->size - file_offset)
		return hwt_error(HWT_ERR_NOENT,
				 "%s is %zu bytes, too short for 0x%llx bytes at "
				 "offset 0x%llx: is it the file that was traced?",
				 found, f->size, (unsigned long long)size,
				 (unsigned long long)file_offset);
	s->found_at = strdup(found);
	if (!s->found_at)
		return hwt_error(HWT_ERR_NOMEM, "out of memory adding %s", found);
	s->data = f->base + file_offset;
	return 0;
}

int hwt_image_add_file(struct hwt_image *image, int32_t pid, uint64_t vaddr,
		       uint64_t size, const char *path, uint64_t file_offset)
{
	return add_section(image, pid, vaddr, size, path, path, file_offset);
}

int hwt_image_add_buffer(struct hwt_image *image, int32_t pid, uint64_t vaddr,
			 const void *data, uint64_t size, const char *name)
{
	void *copy = malloc(size ? size : 1);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory copying %s", name);
	memcpy(copy, data, size);
	struct hwt_image_section *s = push_section(image);
	if (s)
		s->path = strdup(name);
	if (!s || !s->path) {
		if (s)
			image->count--;
		free(copy);
		return hwt_error(HWT_ERR_NOMEM, "out of memory copying %s", name);
	}
	s->pid = pid;
	s->vaddr = vaddr;
	s->size = size;
	s->data = copy;
	return 0;
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int hwt_image_add_mapping(struct hwt_image *image,
			  const struct hwt_image_lookup *lookup, int32_t pid,
			  uint64_t vaddr, uint64_t len, uint64_t pgoff,
			  const char *filename, const uint8_t *build_id,
			  size_t build_id_size)
{
	char candidate[8192];
	const char *found = NULL;

	if (lookup && lookup->buildid_dir && build_id && build_id_size) {
		/* perf's cache: DIR/.build-id/ab/cdef.../elf */
		char hex[2 * 20 + 1];
		size_t n = build_id_size > 20 ? 20 : build_id_size;
		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", build_id[i]);
		snprintf(candidate, sizeof(candidate), "%s/.build-id/%.2s/%s/elf",
			 lookup->buildid_dir, hex, hex + 2);
		if (file_exists(candidate))
			found = candidate;
	}
	if (!found && lookup && lookup->vmlinux &&
	    !strncmp(filename, "[kernel.kallsyms]", 17))
		found = lookup->vmlinux;
	if (!found && lookup && lookup->symfs) {
		snprintf(candidate, sizeof(candidate), "%s/%s", lookup->symfs,
			 filename);
		if (file_exists(candidate))
			found = candidate;
	}
	if (!found && file_exists(filename))
		found = filename;
	return add_section(image, pid, vaddr, len, filename, found, pgoff);
}

int hwt_image_refuse(struct hwt_image *image, const char *found_at,
		     const char *why)
{
	int n = 0;
	/* @found_at may be one of the strings freed below. */
	char *file = strdup(found_at);

	if (!file)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < image->count; i++) {
		struct hwt_image_section *s = &image->sections[i];
		if (!s->found_at || strcmp(s->found_at, file))
			continue;
		char *copy = strdup(why);
		if (!copy) {
			free(file);
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		}
		/* Sections of files keep pointing into the shared mapping,
		 * which the image frees on its own. */
		free((void *)s->found_at);
		free((void *)s->missing_detail);
		s->found_at = NULL;
		s->data = NULL;
		s->missing_detail = copy;
		n++;
	}
	free(file);
	image->cache_valid = 0;
	return n;
}

static int pid_matches(const struct hwt_image_section *s, int32_t pid)
{
	return s->pid == pid || s->pid == HWT_PID_ANY || pid == HWT_PID_ANY;
}

/* Whether a section newer than @index overlaps it: then a hit on @index for
 * one address says nothing about its neighbours, and must not be cached. */
static int is_shadowed(const struct hwt_image *image, size_t index)
{
	const struct hwt_image_section *s = &image->sections[index];
	for (size_t i = index + 1; i < image->count; i++) {
		const struct hwt_image_section *t = &image->sections[i];
		if (t->vaddr < s->vaddr + s->size && s->vaddr < t->vaddr + t->size)
			return 1;
	}
	return 0;
}

struct hwt_image_section *hwt_image_find(struct hwt_image *image, int32_t pid,
					 uint64_t vaddr)
{
	if (image->cache_valid) {
		struct hwt_image_section *s = &image->sections[image->last_hit];
		if (image->cache_pid == pid && vaddr - s->vaddr < s->size)
			return s;
	}
	for (size_t i = image->count; i-- > 0;) {
		struct hwt_image_section *s = &image->sections[i];
		if (pid_matches(s, pid) && vaddr - s->vaddr < s->size) {
			image->last_hit = i;
			image->cache_pid = pid;
			image->cache_valid = !is_shadowed(image, i);
			return s;
		}
	}
	return NULL;
}

int hwt_image_read(struct hwt_image *image, int32_t pid, uint64_t vaddr,
		   void *buf, size_t size)
{
	struct hwt_image_section *s = hwt_image_find(image, pid, vaddr);
	if (!s)
		return 0;
	if (!s->data)
		return HWT_ERR_NOENT;
	uint64_t avail = s->size - (vaddr - s->vaddr);
	size_t n = size < avail ? size : (size_t)avail;
	memcpy(buf, s->data + (vaddr - s->vaddr), n);
	return (int)n;
}

size_t hwt_image_count(const struct hwt_image *image)
{
	return image->count;
}

struct hwt_image_section *hwt_image_section(struct hwt_image *image,
					    size_t index)
{
	return index < image->count ? &image->sections[index] : NULL;
}

struct hwt_image *hwt_image_view_new(struct hwt_image *image)
{
	struct hwt_image *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->sections = malloc((image->count ? image->count : 1) *
			     sizeof(*v->sections));
	if (!v->sections) {
		free(v);
		return NULL;
	}
	if (image->count)
		memcpy(v->sections, image->sections,
		       image->count * sizeof(*v->sections));
	v->count = v->cap = image->count;
	v->refs = 1;
	v->parent = hwt_image_ref(image);
	return v;
}
