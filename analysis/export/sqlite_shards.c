/* The list of captures' databases (sqlite_shards.h): read, compressed,
 * ordered, written as one. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "analysis/export/sqlite_shards.h"
#include "analysis/util/array_grow.h"
#include "hwtrace/error.h"

/* The numbering writer of several shards (sqlite_shards_merge.c). */
int sqlite_shards_merge_write(const struct sqlite_shards *l, const char *file,
			      const char *name);

/* zlib's fastest level: the empty pages compress as well at it. */
#define PACK_LEVEL 1

/* What every SQLite database file starts with. */
static const char sqlite_magic[16] = "SQLite format 3";

uint64_t sqlite_shard_digest(const unsigned char *bytes, size_t size)
{
	/* FNV-1a over 8-byte little-endian words (the tail a byte at a
	 * time): a multiply per word, for databases of many MiB. */
	uint64_t h = 0xcbf29ce484222325u;
	size_t i = 0;
	for (; i + 8 <= size; i += 8) {
		uint64_t w = 0;
		for (int b = 7; b >= 0; b--)
			w = w << 8 | bytes[i + (size_t)b];
		h ^= w;
		h *= 0x100000001b3u;
	}
	for (; i < size; i++) {
		h ^= bytes[i];
		h *= 0x100000001b3u;
	}
	return h;
}

uint32_t sqlite_shard_crc(const unsigned char *bytes, size_t size)
{
	uLong crc = crc32(0, Z_NULL, 0);
	/* crc32 takes an unsigned int's worth at a time. */
	while (size) {
		uInt n = size > (1u << 30) ? 1u << 30 : (uInt)size;
		crc = crc32(crc, bytes, n);
		bytes += n;
		size -= n;
	}
	return (uint32_t)crc;
}

int sqlite_shards_add(struct sqlite_shards *l, struct sqlite_shard s)
{
	void *grown = l->v;
	if (!array_grow(&grown, &l->cap, sizeof(*l->v), l->n + 1, 8)) {
		free(s.packed);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	l->v = grown;
	l->v[l->n++] = s;
	return 0;
}

static int read_file(const char *path, unsigned char **out, size_t *out_size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return hwt_error(HWT_ERR_IO, "%s: %s", path, strerror(errno));
	unsigned char *bytes = NULL;
	size_t size = 0, cap = 0;
	int err = 0;
	for (;;) {
		if (size == cap) {
			size_t more = cap ? cap * 2 : 1 << 16;
			unsigned char *grown = realloc(bytes, more);
			if (!grown) {
				err = hwt_error(HWT_ERR_NOMEM, "out of memory");
				break;
			}
			bytes = grown;
			cap = more;
		}
		size_t got = fread(bytes + size, 1, cap - size, f);
		size += got;
		if (got == 0)
			break;
	}
	if (!err && ferror(f))
		err = hwt_error(HWT_ERR_IO, "%s: %s", path, strerror(errno));
	fclose(f);
	if (err) {
		free(bytes);
		return err;
	}
	*out = bytes;
	*out_size = size;
	return 0;
}

int sqlite_shards_add_file(struct sqlite_shards *l, const char *path)
{
	unsigned char *bytes = NULL;
	size_t size = 0;
	int err = read_file(path, &bytes, &size);
	if (err)
		return err;
	struct sqlite_shard s = {.size = size,
				 .digest = sqlite_shard_digest(bytes, size)};
	uLongf packed = compressBound((uLong)size);
	s.packed = malloc(packed);
	if (!s.packed ||
	    compress2(s.packed, &packed, bytes, (uLong)size, PACK_LEVEL) != Z_OK) {
		free(bytes);
		free(s.packed);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	free(bytes);
	s.packed_size = packed;
	s.crc = sqlite_shard_crc(s.packed, s.packed_size);
	return sqlite_shards_add(l, s);
}

int sqlite_shard_unpack(const struct sqlite_shard *s, unsigned char **bytes)
{
	*bytes = malloc(s->size ? s->size : 1);
	if (!*bytes)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	uLongf got = (uLongf)s->size;
	int rc = uncompress(*bytes, &got, s->packed, (uLong)s->packed_size);
	const char *bad =
		rc == Z_MEM_ERROR ? NULL
		: rc != Z_OK || got != s->size
			? "does not inflate to its size"
		: s->size < sizeof(sqlite_magic) ||
				memcmp(*bytes, sqlite_magic, sizeof(sqlite_magic))
			? "is not an SQLite database"
		: sqlite_shard_digest(*bytes, s->size) != s->digest
			? "does not have its digest"
			: "";
	if (bad && !*bad)
		return 0;
	free(*bytes);
	*bytes = NULL;
	if (!bad)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	return hwt_error(HWT_ERR_FORMAT, "the database of capture %016" PRIx64
			 " %s (a damaged part)", s->digest, bad);
}

static int shard_cmp(const void *a, const void *b)
{
	const struct sqlite_shard *x = a, *y = b;
	if (x->digest != y->digest)
		return x->digest < y->digest ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->packed_size != y->packed_size)
		return x->packed_size < y->packed_size ? -1 : 1;
	return memcmp(x->packed, y->packed, x->packed_size);
}

void sqlite_shards_sort(struct sqlite_shards *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), shard_cmp);
}

void sqlite_shards_free(struct sqlite_shards *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].packed);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* One capture's database is the export's own file: its bytes unchanged,
 * so that the merge of one part is the export of its capture. */
static int write_bytes(const struct sqlite_shard *s, const char *file,
		       const char *name)
{
	unsigned char *bytes = NULL;
	int err = sqlite_shard_unpack(s, &bytes);
	if (err)
		return err;
	FILE *f = fopen(file, "wb");
	if (!f) {
		free(bytes);
		return hwt_error(HWT_ERR_IO, "%s: %s", name, strerror(errno));
	}
	size_t put = fwrite(bytes, 1, s->size, f);
	free(bytes);
	int failed = put != s->size || ferror(f);
	failed |= fclose(f) != 0;
	if (failed)
		return hwt_error(errno == ENOSPC ? HWT_ERR_NOSPC : HWT_ERR_IO,
				 "%s: %s", name, strerror(errno));
	return 0;
}

int sqlite_shards_write(const struct sqlite_shards *l, const char *file,
			const char *name)
{
	if (!l->n)
		return hwt_error(HWT_ERR_INVAL, "%s: no capture's database to "
				 "write", name);
	return l->n == 1 ? write_bytes(&l->v[0], file, name)
			 : sqlite_shards_merge_write(l, file, name);
}
