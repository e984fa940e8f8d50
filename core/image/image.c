/* The memory image: sections over mmapped files and copied buffers. */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/image.h"
#include "hwtrace/infile.h"
#include "core/image/image_internal.h"

/* A file is mapped once however many sections point into it. */
struct mapped_file {
	char *path;
	uint8_t *base;
	size_t size;
};

/* A section and what only the image knows of it. */
struct entry {
	struct hwt_image_section s; /* first: handed out as the section */
	void *owned;    /* a copied buffer this entry frees, or NULL */
	/* Another section of a matching process covers some of the same
	 * addresses: a hit here says nothing about its neighbours, so the
	 * entry is never cached. */
	bool overlapped;
	/* ... and one of the two replaced the other: which one a lookup
	 * finds depends on its time, so an untimed hit on it is noted. */
	bool contested;
};

/* The entries of one process, oldest first: a new mapping or an exec
 * looks only at its own process's sections (and the shared ones). */
struct pid_bucket {
	int32_t pid;
	bool used;
	size_t *idx;
	size_t n, cap;
};

struct hwt_image {
	struct entry *entries;
	size_t count, cap;
	struct pid_bucket *buckets; /* open addressing, power-of-two size */
	size_t nbuckets, buckets_used;
	struct mapped_file *files;
	size_t nfiles, files_cap;
	uint64_t now;          /* hwt_image_set_time's */
	bool changes;          /* some section ended before HWT_TIME_END */
	atomic_bool untimed;   /* hwt_image_untimed_hits */
	/* Changes with every change of the image, unique across images, so
	 * a thread's lookup cache never outlives what it cached. */
	uint64_t version;
	unsigned refs;  /* hwt_image_new's, plus hwt_image_ref's */
	/* A view (hwt_image_view_new): its entries are copies of @parent's
	 * whose strings and data @parent owns; it has no buckets or files. */
	struct hwt_image *parent;
};

static atomic_uint_fast64_t next_version = 1;

static void changed(struct hwt_image *image)
{
	image->version = atomic_fetch_add(&next_version, 1);
}

/* Decoders ask about the same section many times in a row. Each thread has
 * its own cache, so that readers of one image change nothing in it. */
static _Thread_local struct {
	uint64_t version;
	size_t index;
	int32_t pid;
} last_hit;

struct hwt_image *hwt_image_new(void)
{
	struct hwt_image *image = calloc(1, sizeof(struct hwt_image));
	if (image) {
		image->refs = 1;
		atomic_init(&image->untimed, false);
		changed(image);
	}
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
		free(image->entries);
		free(image);
		return;
	}
	for (size_t i = 0; i < image->count; i++) {
		struct entry *e = &image->entries[i];
		free(e->owned);
		free((void *)e->s.path);
		free((void *)e->s.found_at);
		free((void *)e->s.missing_detail);
	}
	for (size_t i = 0; i < image->nfiles; i++) {
		if (image->files[i].base)
			munmap(image->files[i].base, image->files[i].size);
		free(image->files[i].path);
	}
	for (size_t i = 0; i < image->nbuckets; i++)
		free(image->buckets[i].idx);
	free(image->buckets);
	free(image->files);
	free(image->entries);
	free(image);
}

void hwt_image_set_time(struct hwt_image *image, uint64_t time)
{
	image->now = time;
}

static struct entry *push_entry(struct hwt_image *image)
{
	if (image->count == image->cap) {
		size_t ncap = image->cap ? image->cap * 2 : 16;
		void *n = realloc(image->entries, ncap * sizeof(*image->entries));
		if (!n)
			return NULL;
		image->entries = n;
		image->cap = ncap;
	}
	struct entry *e = &image->entries[image->count++];
	memset(e, 0, sizeof(*e));
	e->s.valid_from = image->now;
	e->s.valid_until = HWT_TIME_END;
	changed(image);
	return e;
}

static struct hwt_image_section *push_section(struct hwt_image *image)
{
	struct entry *e = push_entry(image);
	return e ? &e->s : NULL;
}

static int pid_matches(const struct hwt_image_section *s, int32_t pid)
{
	return s->pid == pid || s->pid == HWT_PID_ANY || pid == HWT_PID_ANY;
}

static size_t pid_slot(const struct hwt_image *image, int32_t pid)
{
	size_t mask = image->nbuckets - 1;
	size_t h = ((uint32_t)pid * 2654435761u) & mask;
	while (image->buckets[h].used && image->buckets[h].pid != pid)
		h = (h + 1) & mask;
	return h;
}

/* The bucket of @pid, or NULL when it has none. */
static struct pid_bucket *bucket_of(struct hwt_image *image, int32_t pid)
{
	if (!image->nbuckets)
		return NULL;
	struct pid_bucket *b = &image->buckets[pid_slot(image, pid)];
	return b->used ? b : NULL;
}

static int grow_buckets(struct hwt_image *image)
{
	size_t n = image->nbuckets ? image->nbuckets * 2 : 16;
	struct pid_bucket *old = image->buckets;
	size_t nold = image->nbuckets;
	image->buckets = calloc(n, sizeof(*image->buckets));
	if (!image->buckets) {
		image->buckets = old;
		return HWT_ERR_NOMEM;
	}
	image->nbuckets = n;
	for (size_t i = 0; i < nold; i++)
		if (old[i].used)
			image->buckets[pid_slot(image, old[i].pid)] = old[i];
	free(old);
	return 0;
}

/* Files entry @index under its process. */
static int index_entry(struct hwt_image *image, size_t index)
{
	int32_t pid = image->entries[index].s.pid;
	if ((image->buckets_used + 1) * 2 > image->nbuckets && grow_buckets(image))
		return HWT_ERR_NOMEM;
	struct pid_bucket *b = &image->buckets[pid_slot(image, pid)];
	if (!b->used) {
		b->used = true;
		b->pid = pid;
		image->buckets_used++;
	}
	if (b->n == b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 8;
		size_t *n = realloc(b->idx, ncap * sizeof(*n));
		if (!n)
			return HWT_ERR_NOMEM;
		b->idx = n;
		b->cap = ncap;
	}
	b->idx[b->n++] = index;
	return 0;
}

static char *dup_or_null(const char *s, bool *fail)
{
	char *d = s ? strdup(s) : NULL;
	*fail |= s && !d;
	return d;
}

/* Adds the part [from, to) of entry @old as a section of its own, valid
 * from the image's time on. */
static int add_rest(struct hwt_image *image, size_t old, uint64_t from,
		    uint64_t to, uint64_t until)
{
	struct entry *e = push_entry(image);
	if (!e)
		return HWT_ERR_NOMEM;
	const struct hwt_image_section *o = &image->entries[old].s;
	bool fail = false;
	uint64_t delta = from - o->vaddr;
	e->s.path = dup_or_null(o->path, &fail);
	e->s.found_at = dup_or_null(o->found_at, &fail);
	e->s.missing_detail = dup_or_null(o->missing_detail, &fail);
	e->s.vaddr = from;
	e->s.size = to - from;
	e->s.file_offset = o->file_offset + delta;
	e->s.pid = o->pid;
	e->s.map_base = o->map_base;
	e->s.data = o->data ? o->data + delta : NULL;
	e->s.valid_until = until;
	e->overlapped = e->contested = true;
	if (fail)
		return HWT_ERR_NOMEM;
	return index_entry(image, image->count - 1);
}

/* The newest section (the last) replaces, from the image's time on, what
 * the sections of its process map where they overlap it; their parts
 * outside it stay mapped as sections of their own. */
/* The newest section @n replaces old section @i where they overlap. */
static int replace_one(struct hwt_image *image, size_t i, size_t n)
{
	uint64_t now = image->now;
	struct hwt_image_section *o = &image->entries[i].s;
	const struct hwt_image_section *s = &image->entries[n].s;
	uint64_t a = s->vaddr, b = s->vaddr + s->size;
	uint64_t oa = o->vaddr, ob = o->vaddr + o->size;
	if (!(oa < b && a < ob))
		return 0;
	if (pid_matches(o, s->pid))
		image->entries[i].overlapped = image->entries[n].overlapped = true;
	if (o->pid != s->pid && s->pid != HWT_PID_ANY)
		return 0;
	image->entries[i].contested = image->entries[n].contested = true;
	if (o->valid_until <= now)
		return 0; /* gone before */
	uint64_t until = o->valid_until;
	o->valid_until = o->valid_from > now ? o->valid_from : now;
	image->changes = true;
	int err = 0;
	if (oa < a)
		err = add_rest(image, i, oa, a, until);
	if (!err && b < ob)
		err = add_rest(image, i, b, ob, until);
	return err;
}

/* Replaces the sections of @pid's bucket (as it was before the new
 * section @n) that @n overlaps. */
static int replace_in(struct hwt_image *image, int32_t pid, size_t n)
{
	struct pid_bucket *b = bucket_of(image, pid);
	size_t len = b ? b->n : 0;
	for (size_t k = 0; k < len; k++) {
		/* Re-read: replacing adds sections and may move the bucket. */
		size_t i = bucket_of(image, pid)->idx[k];
		if (i == n)
			continue;
		int err = replace_one(image, i, n);
		if (err)
			return err;
	}
	return 0;
}

/* The newest section (the last) replaces, from the image's time on, what
 * the sections of its process map where they overlap it; their parts
 * outside it stay mapped as sections of their own. */
static int replace_overlapped(struct hwt_image *image)
{
	size_t n = image->count - 1;
	int32_t pid = image->entries[n].s.pid;
	int err = index_entry(image, n);

	if (!err && pid == HWT_PID_ANY) {
		/* Shared code (the kernel, --map): every process's. */
		for (size_t i = 0; i < n && !err; i++)
			err = replace_one(image, i, n);
	} else if (!err) {
		err = replace_in(image, pid, n);
		if (!err)
			err = replace_in(image, HWT_PID_ANY, n);
	}
	return err ? hwt_error(HWT_ERR_NOMEM, "out of memory") : 0;
}

size_t hwt_image_end_process(struct hwt_image *image, int32_t pid,
			     uint64_t time)
{
	size_t n = 0;
	struct pid_bucket *b = pid == HWT_PID_ANY ? NULL : bucket_of(image, pid);

	for (size_t k = 0; b && k < b->n; k++) {
		struct hwt_image_section *s = &image->entries[b->idx[k]].s;
		if (s->valid_from > time || s->valid_until <= time)
			continue;
		s->valid_until = time;
		n++;
	}
	if (n) {
		image->changes = true;
		changed(image);
	}
	return n;
}

bool hwt_image_changes(const struct hwt_image *image)
{
	return image && image->changes;
}

bool hwt_image_untimed_hits(const struct hwt_image *image)
{
	return image && atomic_load_explicit(&image->untimed,
					     memory_order_relaxed);
}

/* Maps @path once per image; returns 0 or an error with its message. */
static int map_file(struct hwt_image *image, const char *path,
		    struct mapped_file **out)
{
	for (size_t i = 0; i < image->nfiles; i++)
		if (!strcmp(image->files[i].path, path)) {
			*out = &image->files[i];
			return 0;
		}

	/* A capture may name a FIFO or a device as its code: the opener
	 * refuses those rather than blocking on them or reading them. */
	int fd = hwt_infile_open(path, "binary", 0);
	if (fd < 0)
		return fd;
	struct stat st;
	void *base = NULL;
	if (fstat(fd, &st) ||
	    (st.st_size > 0 &&
	     (base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			  0)) == MAP_FAILED)) {
		int why = errno;
		close(fd);
		return hwt_error(HWT_ERR_IO, "%s: %s", path, strerror(why));
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
	*out = f;
	return 0;
nomem:
	if (base)
		munmap(base, (size_t)st.st_size);
	return hwt_error(HWT_ERR_NOMEM, "out of memory mapping %s", path);
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
	size_t index = image->count - 1;
	int err = replace_overlapped(image);
	if (err < 0)
		return err;
	s = &image->entries[index].s; /* the array may have moved */
	if (!found)
		return hwt_error(HWT_ERR_NOENT, "%s: no such file", recorded_path);

	struct mapped_file *f = NULL;
	err = map_file(image, found, &f);
	if (err == HWT_ERR_NOMEM)
		return err;
	if (err < 0) {
		/* Kept as a missing section that says why (a FIFO, a device):
		 * the decode names it where trace runs into it. */
		s->missing_detail = strdup(hwt_errmsg());
		if (!s->missing_detail)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		return err == HWT_ERR_CONFIG ? HWT_ERR_NOENT : err;
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
	image->entries[image->count - 1].owned = copy;
	return replace_overlapped(image);
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
	/* The recorded path names something that is no file (a FIFO, a
	 * device): the opener refuses it in words, kept with the section. */
	struct stat st;
	if (!found && !stat(filename, &st))
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
		struct hwt_image_section *s = &image->entries[i].s;
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
	changed(image);
	return n;
}

static bool valid_at(const struct hwt_image_section *s, uint64_t time)
{
	return time == HWT_TIME_UNKNOWN ||
	       (s->valid_from <= time && time < s->valid_until);
}

/* A read whose time did not decide which of several mappings it saw.
 * Readers of one image may run at once: the flag only goes up. */
static void note_untimed(struct hwt_image *image)
{
	if (image->parent)
		image = image->parent; /* a view's reads are the image's */
	if (!atomic_load_explicit(&image->untimed, memory_order_relaxed))
		atomic_store_explicit(&image->untimed, true, memory_order_relaxed);
}

struct hwt_image_section *hwt_image_find_at(struct hwt_image *image,
					    int32_t pid, uint64_t vaddr,
					    uint64_t time)
{
	if (last_hit.version == image->version && last_hit.pid == pid &&
	    last_hit.index < image->count) {
		struct hwt_image_section *s = &image->entries[last_hit.index].s;
		if (vaddr - s->vaddr < s->size && valid_at(s, time))
			return s;
	}
	/* Code runs only where something is mapped: when nothing was at
	 * @time, the time does not fit the sideband. Before any mapping of
	 * the address, the mapping record came late (a recorder that writes
	 * the mappings it found at the end, or a time stamp coarser than the
	 * record's): the first mapping there after @time. After every one
	 * ended (a replay's own clock, trace written after the exit): the
	 * last one. */
	struct hwt_image_section *later = NULL, *earlier = NULL;
	bool earlier_contested = false;
	for (size_t i = image->count; i-- > 0;) {
		struct entry *e = &image->entries[i];
		struct hwt_image_section *s = &e->s;
		if (!pid_matches(s, pid) || vaddr - s->vaddr >= s->size)
			continue;
		if (!valid_at(s, time)) {
			if (s->valid_from > time &&
			    (!later || s->valid_from <= later->valid_from))
				later = s;
			if (s->valid_until <= time &&
			    (!earlier || s->valid_until > earlier->valid_until)) {
				earlier = s;
				earlier_contested = e->contested;
			}
			continue;
		}
		if (!e->overlapped) {
			last_hit.version = image->version;
			last_hit.index = i;
			last_hit.pid = pid;
		}
		if (e->contested && time == HWT_TIME_UNKNOWN)
			note_untimed(image);
		return s;
	}
	if (!later && earlier && earlier_contested)
		note_untimed(image);
	return later ? later : earlier;
}

struct hwt_image_section *hwt_image_find(struct hwt_image *image, int32_t pid,
					 uint64_t vaddr)
{
	return hwt_image_find_at(image, pid, vaddr, HWT_TIME_UNKNOWN);
}

int hwt_image_read_at(struct hwt_image *image, int32_t pid, uint64_t vaddr,
		      uint64_t time, void *buf, size_t size)
{
	struct hwt_image_section *s = hwt_image_find_at(image, pid, vaddr, time);
	if (!s)
		return 0;
	if (!s->data)
		return HWT_ERR_NOENT;
	uint64_t avail = s->size - (vaddr - s->vaddr);
	size_t n = size < avail ? size : (size_t)avail;
	memcpy(buf, s->data + (vaddr - s->vaddr), n);
	return (int)n;
}

int hwt_image_read(struct hwt_image *image, int32_t pid, uint64_t vaddr,
		   void *buf, size_t size)
{
	return hwt_image_read_at(image, pid, vaddr, HWT_TIME_UNKNOWN, buf, size);
}

bool hwt_image_section_first_report(struct hwt_image_section *section)
{
	return __atomic_exchange_n(&section->missing_reported, 1u,
				   __ATOMIC_RELAXED) == 0;
}

size_t hwt_image_count(const struct hwt_image *image)
{
	return image->count;
}

struct hwt_image_section *hwt_image_section(struct hwt_image *image,
					    size_t index)
{
	return index < image->count ? &image->entries[index].s : NULL;
}

struct hwt_image *hwt_image_view_new(struct hwt_image *image)
{
	struct hwt_image *v = image ? calloc(1, sizeof(*v)) : NULL;
	if (!v)
		return NULL;
	v->entries = malloc((image->count ? image->count : 1) *
			    sizeof(*v->entries));
	if (!v->entries) {
		free(v);
		return NULL;
	}
	for (size_t i = 0; i < image->count; i++) {
		v->entries[i] = image->entries[i];
		v->entries[i].owned = NULL; /* the image frees it */
		v->entries[i].s.missing_reported = 0;
	}
	v->count = v->cap = image->count;
	v->now = image->now;
	v->changes = image->changes;
	atomic_init(&v->untimed, false);
	v->refs = 1;
	v->parent = hwt_image_ref(image);
	changed(v);
	return v;
}
