/* The lines of the per-binary profiles in the partial format
 * (docs/scale-out.md):
 *
 *   binary PATH BUILD_ID 0xBASE
 *   range 0xSTART 0xLAST COUNT
 *   branch 0xFROM FROM_SYM 0xFROM_OFF FROM_INSIDE 0xTO TO_SYM 0xTO_OFF TO_INSIDE COUNT
 *
 * each range and branch belonging to the binary line before it. The
 * reader takes the lists only in the order the writer gives them
 * (binaries by path, ranges by start then last, branches by from then
 * to, each strictly after the one before), which is what lets the merge
 * walk them and refuses an entry listed twice. */
#include <inttypes.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "analysis/util/array_grow.h"
#include "hwtrace/error.h"

static void put_end(FILE *out, const struct pgo_end *e)
{
	fprintf(out, " 0x%" PRIx64 " ", e->addr);
	partial_put_text(out, e->sym);
	fprintf(out, " 0x%" PRIx64 " %d", e->off, e->inside ? 1 : 0);
}

int partial_pgo_write(const struct hwt_partial *p, FILE *out, size_t *lines)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nbins; i++) {
		const struct pgo_binary *b = &p->bins[i];
		fputs("binary ", out);
		partial_put_text(out, b->path);
		fputc(' ', out);
		partial_put_text(out, b->build_id);
		fprintf(out, " 0x%" PRIx64 "\n", b->base);
		for (size_t j = 0; j < b->nranges; j++)
			fprintf(out, "range 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64
				"\n", b->ranges[j].start, b->ranges[j].last,
				b->ranges[j].n);
		for (size_t j = 0; j < b->nbranches; j++) {
			fputs("branch", out);
			put_end(out, &b->branches[j].from);
			put_end(out, &b->branches[j].to);
			fprintf(out, " %" PRIu64 "\n", b->branches[j].n);
		}
		n += 1 + b->nranges + b->nbranches;
	}
	*lines = n;
	return 0;
}

static int read_binary(struct partial_reader *r, struct hwt_partial *p)
{
	char *path, *build_id;
	uint64_t base;
	int err = partial_want_fields(r, 4);
	if (!err)
		err = partial_text_field(r, r->fields[1], &path);
	if (!err)
		err = partial_text_field(r, r->fields[2], &build_id);
	if (!err)
		err = partial_number(r, r->fields[3], 16, &base);
	if (err)
		return err;
	if (!path || !*path || !build_id)
		return partial_bad(r, "a binary whose path or build id is absent");
	if (p->nbins && strcmp(p->bins[p->nbins - 1].path, path) >= 0)
		return partial_bad(r, "a binary out of order or listed twice");
	void *grown = p->bins;
	if (!array_grow(&grown, &p->bins_cap, sizeof(*p->bins), p->nbins + 1, 4))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	p->bins = grown;
	struct pgo_binary *b = &p->bins[p->nbins];
	memset(b, 0, sizeof(*b));
	p->nbins++;
	b->base = base;
	if ((err = partial_intern(p, path, &b->path)))
		return err;
	return partial_intern(p, build_id, &b->build_id);
}

static int read_range(struct partial_reader *r, struct pgo_binary *b)
{
	struct pgo_range v;
	int err = partial_want_fields(r, 4);
	if (!err)
		err = partial_number(r, r->fields[1], 16, &v.start);
	if (!err)
		err = partial_number(r, r->fields[2], 16, &v.last);
	if (!err)
		err = partial_number(r, r->fields[3], 10, &v.n);
	if (err)
		return err;
	if (!v.n || v.last < v.start)
		return partial_bad(r, "a range run 0 times or ending before it "
				   "starts");
	const struct pgo_range *prev = b->nranges ? &b->ranges[b->nranges - 1]
						  : NULL;
	if (prev && (prev->start > v.start ||
		     (prev->start == v.start && prev->last >= v.last)))
		return partial_bad(r, "a range out of order or listed twice");
	void *grown = b->ranges;
	if (!array_grow(&grown, &b->ranges_cap, sizeof(*b->ranges),
			b->nranges + 1, 64))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	b->ranges = grown;
	b->ranges[b->nranges++] = v;
	return 0;
}

/* One side of a branch from fields @first .. @first + 3. */
static int read_end(struct partial_reader *r, struct hwt_partial *p,
		    size_t first, struct pgo_end *e)
{
	char *sym;
	uint64_t inside;
	int err = partial_number(r, r->fields[first], 16, &e->addr);
	if (!err)
		err = partial_text_field(r, r->fields[first + 1], &sym);
	if (!err)
		err = partial_number(r, r->fields[first + 2], 16, &e->off);
	if (!err)
		err = partial_number(r, r->fields[first + 3], 10, &inside);
	if (!err && inside > 1)
		err = partial_bad(r, "a branch end neither inside (1) nor "
				  "outside (0)");
	if (err)
		return err;
	e->inside = inside;
	return partial_intern(p, sym, &e->sym);
}

static int read_branch(struct partial_reader *r, struct hwt_partial *p,
		       struct pgo_binary *b)
{
	struct pgo_branch v;
	int err = partial_want_fields(r, 10);
	if (!err)
		err = read_end(r, p, 1, &v.from);
	if (!err)
		err = read_end(r, p, 5, &v.to);
	if (!err)
		err = partial_number(r, r->fields[9], 10, &v.n);
	if (err)
		return err;
	if (!v.n)
		return partial_bad(r, "a branch taken 0 times");
	const struct pgo_branch *prev =
		b->nbranches ? &b->branches[b->nbranches - 1] : NULL;
	if (prev && (prev->from.addr > v.from.addr ||
		     (prev->from.addr == v.from.addr &&
		      prev->to.addr >= v.to.addr)))
		return partial_bad(r, "a branch out of order or listed twice");
	void *grown = b->branches;
	if (!array_grow(&grown, &b->branches_cap, sizeof(*b->branches),
			b->nbranches + 1, 64))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	b->branches = grown;
	b->branches[b->nbranches++] = v;
	return 0;
}

int partial_pgo_read_line(struct partial_reader *r, struct hwt_partial *p)
{
	const char *what = r->fields[0];
	if (!strcmp(what, "binary"))
		return read_binary(r, p);
	bool range = !strcmp(what, "range");
	if (!range && strcmp(what, "branch"))
		return partial_bad(r, "a line of no known kind");
	if (!p->nbins)
		return partial_bad(r, "a range or branch before any binary line");
	struct pgo_binary *b = &p->bins[p->nbins - 1];
	return range ? read_range(r, b) : read_branch(r, p, b);
}
