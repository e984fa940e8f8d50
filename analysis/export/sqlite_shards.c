/* The list of captures' databases (sqlite_shards.h): read, ordered,
 * written as one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/sqlite_shards.h"
#include "analysis/util/array_grow.h"
#include "hwtrace/error.h"

/* The numbering writer of several shards (sqlite_shards_merge.c). */
int sqlite_shards_merge_write(const struct sqlite_shards *l, const char *file,
			      const char *name);

uint64_t sqlite_shard_digest(const unsigned char *bytes, size_t size)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < size; i++) {
		h ^= bytes[i];
		h *= 0x100000001b3u;
	}
	return h;
}

int sqlite_shards_add(struct sqlite_shards *l, unsigned char *bytes,
		      size_t size)
{
	void *grown = l->v;
	if (!array_grow(&grown, &l->cap, sizeof(*l->v), l->n + 1, 8)) {
		free(bytes);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	l->v = grown;
	l->v[l->n++] = (struct sqlite_shard){
		.bytes = bytes,
		.size = size,
		.digest = sqlite_shard_digest(bytes, size),
	};
	return 0;
}

int sqlite_shards_add_file(struct sqlite_shards *l, const char *path)
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
	return sqlite_shards_add(l, bytes, size);
}

static int shard_cmp(const void *a, const void *b)
{
	const struct sqlite_shard *x = a, *y = b;
	if (x->digest != y->digest)
		return x->digest < y->digest ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return memcmp(x->bytes, y->bytes, x->size);
}

void sqlite_shards_sort(struct sqlite_shards *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), shard_cmp);
}

void sqlite_shards_free(struct sqlite_shards *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].bytes);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* One capture's database is the export's own file: its bytes unchanged,
 * so that the merge of one part is the export of its capture. */
static int write_bytes(const struct sqlite_shard *s, const char *file,
		       const char *name)
{
	FILE *f = fopen(file, "wb");
	if (!f)
		return hwt_error(HWT_ERR_IO, "%s: %s", name, strerror(errno));
	size_t put = fwrite(s->bytes, 1, s->size, f);
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
