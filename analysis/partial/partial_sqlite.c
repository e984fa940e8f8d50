/* The sqlite partial: each capture's database as an export of that
 * capture alone writes it (analysis/export's sqlite_shards.h, kept
 * compressed), in the order of their content; a merge is the union of
 * the lists, and the database is written by the export's own writer of
 * several captures, so that a merge gives the bytes one export of all
 * the captures gives.
 *
 * In the text format a capture is the line "capture SIZE DIGEST PACKED
 * CRC" (SIZE the database's bytes, DIGEST their FNV-1a by words in hex, PACKED
 * the size of the database compressed by zlib, CRC zlib's crc32 of
 * those in hex) followed by the PACKED bytes and a newline. A merge of
 * partials copies the packed bytes as they are; the crc finds a damaged
 * part when it is read, the digest when its database is written. */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/perfdb.h"
#include "analysis/partial/partial_internal.h"
#include "hwtrace/error.h"

static int copy_shards(struct sqlite_shards *dst, const struct sqlite_shards *src)
{
	int err = 0;
	for (size_t i = 0; !err && i < src->n; i++) {
		struct sqlite_shard s = src->v[i];
		s.packed = malloc(s.packed_size ? s.packed_size : 1);
		if (!s.packed)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		memcpy(s.packed, src->v[i].packed, s.packed_size);
		err = sqlite_shards_add(dst, s);
	}
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
		fprintf(out, "capture %zu %016" PRIx64 " %zu %08" PRIx32 "\n",
			s->size, s->digest, s->packed_size, s->crc);
		fwrite(s->packed, 1, s->packed_size, out);
		putc('\n', out);
	}
	*lines = p->shards.n;
	return 0;
}

/* A field of exactly @digits lowercase hex digits into *@v. */
static int hex_field(const struct partial_reader *r, const char *s,
		     size_t digits, uint64_t *v)
{
	if (strlen(s) != digits || strspn(s, "0123456789abcdef") != digits)
		return partial_bad(r, "a digest or crc that is not of its hex "
				   "digits");
	*v = strtoull(s, NULL, 16);
	return 0;
}

int partial_sqlite_read_line(struct partial_reader *r, struct hwt_partial *p)
{
	if (strcmp(r->fields[0], "capture"))
		return partial_bad(r, "a line other than capture in an sqlite "
				   "partial");
	uint64_t size = 0, digest = 0, packed_size = 0, crc = 0;
	int err = partial_want_fields(r, 5);
	if (!err)
		err = partial_number(r, r->fields[1], 10, &size);
	if (!err)
		err = hex_field(r, r->fields[2], 16, &digest);
	if (!err)
		err = partial_number(r, r->fields[3], 10, &packed_size);
	if (!err)
		err = hex_field(r, r->fields[4], 8, &crc);
	if (err)
		return err;
	/* zlib's sizes are unsigned long, and deflate packs no more than
	 * some 1032 bytes into one. */
	if (!size || size > ULONG_MAX || !packed_size ||
	    packed_size > ULONG_MAX || size / 1100 > packed_size)
		return partial_bad(r, "a capture's database of impossible size");
	struct sqlite_shard s = {
		.packed = malloc((size_t)packed_size),
		.packed_size = (size_t)packed_size,
		.size = (size_t)size,
		.digest = digest,
		.crc = (uint32_t)crc,
	};
	if (!s.packed)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	size_t got = fread(s.packed, 1, s.packed_size, r->in);
	int nl = got == s.packed_size ? getc(r->in) : EOF;
	const char *bad = got != s.packed_size || nl != '\n'
				  ? "the file ends inside a capture's database"
			  : sqlite_shard_crc(s.packed, s.packed_size) != s.crc
				  ? "a capture's database whose crc is not its "
				    "line's (the file is damaged)"
				  : NULL;
	if (bad) {
		free(s.packed);
		return partial_bad(r, bad);
	}
	return sqlite_shards_add(&p->shards, s);
}

int hwt_partial_write_sqlite(const struct hwt_partial *p, const char *file,
			     const char *name)
{
	if (p->kind != HWT_PARTIAL_SQLITE)
		return hwt_error(HWT_ERR_INVAL, "a %s partial result has no "
				 "database", hwt_partial_kind_name(p->kind));
	return sqlite_shards_write(&p->shards, file, name);
}
