/* The sqlite partial: each capture's database as an export of that
 * capture alone writes it (analysis/export's sqlite_shards.h), kept in
 * the order of their bytes; a merge is the union of the lists, and the
 * database is written by the export's own writer of several captures, so
 * that a merge gives the bytes one export of all the captures gives.
 *
 * In the text format a capture is the line "capture SIZE DIGEST" (the
 * digest in hex, FNV-1a of the bytes) followed by the SIZE bytes of the
 * database and a newline. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "analysis/partial/partial_internal.h"
#include "hwtrace/error.h"

/* What every SQLite database file starts with. */
static const char sqlite_magic[16] = "SQLite format 3";

static int copy_shard(struct sqlite_shards *dst, const struct sqlite_shard *s)
{
	unsigned char *bytes = malloc(s->size ? s->size : 1);
	if (!bytes)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	memcpy(bytes, s->bytes, s->size);
	return sqlite_shards_add(dst, bytes, s->size);
}

static int copy_shards(struct sqlite_shards *dst, const struct sqlite_shards *src)
{
	int err = 0;
	for (size_t i = 0; !err && i < src->n; i++)
		err = copy_shard(dst, &src->v[i]);
	sqlite_shards_sort(dst);
	return err;
}

int partial_sqlite_from_export(const struct hwt_export *ex,
			       struct hwt_partial **out)
{
	*out = NULL;
	const struct sqlite_shards *shards = hwt_perfdb_shards(ex);
	if (!shards)
		return hwt_error(HWT_ERR_INVAL, "only a finished sqlite export "
				 "made with opts.partial has an sqlite partial "
				 "result");
	struct hwt_partial *p = partial_new(HWT_PARTIAL_SQLITE);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = copy_shards(&p->shards, shards);
	if (err) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}

int partial_sqlite_merge(struct hwt_partial *dst, const struct hwt_partial *src)
{
	return copy_shards(&dst->shards, &src->shards);
}

int partial_sqlite_write(const struct hwt_partial *p, FILE *out, size_t *lines)
{
	for (size_t i = 0; i < p->shards.n; i++) {
		const struct sqlite_shard *s = &p->shards.v[i];
		fprintf(out, "capture %zu %016" PRIx64 "\n", s->size, s->digest);
		fwrite(s->bytes, 1, s->size, out);
		putc('\n', out);
	}
	*lines = p->shards.n;
	return 0;
}

int partial_sqlite_read_line(struct partial_reader *r, struct hwt_partial *p)
{
	if (strcmp(r->fields[0], "capture"))
		return partial_bad(r, "a line other than capture in an sqlite "
				   "partial");
	uint64_t size, digest;
	int err = partial_want_fields(r, 3);
	if (!err)
		err = partial_number(r, r->fields[1], 10, &size);
	if (!err && (strlen(r->fields[2]) != 16 ||
		     strspn(r->fields[2], "0123456789abcdef") != 16))
		err = partial_bad(r, "a digest that is not 16 hex digits");
	if (err)
		return err;
	digest = strtoull(r->fields[2], NULL, 16);
	if (size < sizeof(sqlite_magic) || size > SIZE_MAX / 2)
		return partial_bad(r, "a capture's database of impossible size");
	unsigned char *bytes = malloc((size_t)size);
	if (!bytes)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t got = fread(bytes, 1, (size_t)size, r->in);
	int nl = got == size ? getc(r->in) : EOF;
	const char *bad = got != size || nl != '\n'
				  ? "the file ends inside a capture's database"
			  : memcmp(bytes, sqlite_magic, sizeof(sqlite_magic))
				  ? "a capture's bytes are not an SQLite database"
			  : sqlite_shard_digest(bytes, (size_t)size) != digest
				  ? "a capture's database whose digest is not "
				    "its line's (the file is damaged)"
				  : NULL;
	if (bad) {
		free(bytes);
		return partial_bad(r, bad);
	}
	return sqlite_shards_add(&p->shards, bytes, (size_t)size);
}

int hwt_partial_write_sqlite(const struct hwt_partial *p, const char *file,
			     const char *name)
{
	if (p->kind != HWT_PARTIAL_SQLITE)
		return hwt_error(HWT_ERR_INVAL, "a %s partial result has no "
				 "database", hwt_partial_kind_name(p->kind));
	return sqlite_shards_write(&p->shards, file, name);
}
