/* Captures' databases, each the file one export of that capture alone
 * writes, kept compressed (zlib: an export's database is mostly empty
 * pages, some 40 times smaller so), and the writer that numbers their
 * rows into one database (sqlite_shards.c). The result depends on the
 * set of databases only: they are taken in the order of their content
 * (a digest of the database, its size, then the compressed bytes), not
 * in the order they were given or merged. */
#ifndef HWT_ANALYSIS_EXPORT_SQLITE_SHARDS_H
#define HWT_ANALYSIS_EXPORT_SQLITE_SHARDS_H

#include <stddef.h>
#include <stdint.h>

struct sqlite_shard {
	unsigned char *packed; /* the database file compressed, malloc'd */
	size_t packed_size;
	size_t size;           /* the database's */
	uint64_t digest;       /* sqlite_shard_digest of the database */
	uint32_t crc;          /* zlib's crc32 of the packed bytes */
};

struct sqlite_shards {
	struct sqlite_shard *v;
	size_t n, cap;
};

/* FNV-1a, 64 bits, over the 8-byte little-endian words of @size bytes
 * (then the bytes of the tail): the first key of the shards' order. */
uint64_t sqlite_shard_digest(const unsigned char *bytes, size_t size);

/* zlib's crc32 of @size bytes. */
uint32_t sqlite_shard_crc(const unsigned char *bytes, size_t size);

/* Appends @s (its packed bytes taken over: freed with the list, also
 * when this fails). Errors: HWT_ERR_NOMEM. */
int sqlite_shards_add(struct sqlite_shards *l, struct sqlite_shard s);

/* Appends the database file @path, compressed. Errors: HWT_ERR_IO,
 * HWT_ERR_NOMEM. */
int sqlite_shards_add_file(struct sqlite_shards *l, const char *path);

/* The database of @s, inflated into *@bytes (malloc'd) and checked
 * against its size and digest. Errors: HWT_ERR_FORMAT (naming the
 * capture by its digest), HWT_ERR_NOMEM. */
int sqlite_shard_unpack(const struct sqlite_shard *s, unsigned char **bytes);

/* Puts the shards in their canonical order (digest, size, bytes). */
void sqlite_shards_sort(struct sqlite_shards *l);

void sqlite_shards_free(struct sqlite_shards *l);

/* Writes the one database of the shards (sorted) to the new file @file
 * (@name in messages): one shard's bytes as they are; several numbered
 * one after the other (sqlite_shards_merge.c). Errors: HWT_ERR_IO,
 * HWT_ERR_NOSPC, HWT_ERR_FORMAT (a shard that is not an export's
 * database, or shards of both samples layouts), HWT_ERR_NOMEM. */
int sqlite_shards_write(const struct sqlite_shards *l, const char *file,
			const char *name);

#endif
