/* The partials of the per-binary profiles (AutoFDO, BOLT fdata, BOLT
 * pre-aggregated): the profiles an export placed in their binaries,
 * copied, merged binary by binary and line by line, and written as the
 * export's own files. Every list is kept sorted (binaries by path,
 * ranges by start then last, branches by from then to) and each entry
 * once, so that a merge is a walk along two sorted lists whose result
 * does not depend on which came first. */
#include <stdlib.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "hwtrace/error.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

bool partial_is_pgo(enum hwt_partial_kind kind)
{
	return kind == HWT_PARTIAL_AUTOFDO || kind == HWT_PARTIAL_BOLT ||
	       kind == HWT_PARTIAL_BOLT_PREAGG;
}

static enum hwt_export_format export_format(enum hwt_partial_kind kind)
{
	return kind == HWT_PARTIAL_AUTOFDO ? HWT_EXPORT_AUTOFDO
	       : kind == HWT_PARTIAL_BOLT  ? HWT_EXPORT_BOLT
					   : HWT_EXPORT_BOLT_PREAGG;
}

int partial_intern(struct hwt_partial *p, const char *s, const char **out)
{
	*out = NULL;
	if (!s)
		return 0;
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->strings, s, strlen(s));
	if (!e)
		return nomem();
	*out = e->key;
	return 0;
}

static void free_binary(struct pgo_binary *b)
{
	free(b->ranges);
	free(b->branches);
}

void partial_pgo_free(struct hwt_partial *p)
{
	for (size_t i = 0; i < p->nbins; i++)
		free_binary(&p->bins[i]);
	free(p->bins);
	hwt_strmap_free(&p->strings);
}

/* A copy of @src with its texts interned in @p. */
static int copy_binary(struct hwt_partial *p, const struct pgo_binary *src,
		       struct pgo_binary *dst)
{
	memset(dst, 0, sizeof(*dst));
	dst->base = src->base;
	int err = partial_intern(p, src->path, &dst->path);
	if (!err)
		err = partial_intern(p, src->build_id, &dst->build_id);
	if (err)
		return err;
	dst->ranges = malloc((src->nranges + 1) * sizeof(*dst->ranges));
	dst->branches = malloc((src->nbranches + 1) * sizeof(*dst->branches));
	if (!dst->ranges || !dst->branches)
		return nomem();
	dst->ranges_cap = src->nranges + 1;
	dst->branches_cap = src->nbranches + 1;
	if (src->nranges)
		memcpy(dst->ranges, src->ranges,
		       src->nranges * sizeof(*dst->ranges));
	dst->nranges = src->nranges;
	for (size_t i = 0; i < src->nbranches; i++) {
		struct pgo_branch *r = &dst->branches[i];
		*r = src->branches[i];
		if ((err = partial_intern(p, r->from.sym, &r->from.sym)) ||
		    (err = partial_intern(p, r->to.sym, &r->to.sym)))
			return err;
	}
	dst->nbranches = src->nbranches;
	return 0;
}

int hwt_partial_from_export(const struct hwt_export *ex,
			    struct hwt_partial **out)
{
	*out = NULL;
	enum hwt_export_format f = ex->opts.format;
	if (f == HWT_EXPORT_PPROF)
		return partial_pprof_from_export(ex, out);
	if (f == HWT_EXPORT_SQLITE)
		return partial_sqlite_from_export(ex, out);
	if (!ex->opts.partial || (f != HWT_EXPORT_AUTOFDO &&
				  f != HWT_EXPORT_BOLT &&
				  f != HWT_EXPORT_BOLT_PREAGG))
		return hwt_error(HWT_ERR_INVAL, "only an sqlite, autofdo, bolt or pprof export "
				 "made with opts.partial has a partial result");
	size_t n;
	const struct pgo_binary *b = hwt_pgo_profiles(ex, &n);
	enum hwt_partial_kind kind = f == HWT_EXPORT_AUTOFDO ? HWT_PARTIAL_AUTOFDO
				     : f == HWT_EXPORT_BOLT  ? HWT_PARTIAL_BOLT
							     : HWT_PARTIAL_BOLT_PREAGG;
	struct hwt_partial *p = partial_new(kind);
	if (!p)
		return nomem();
	int err = 0;
	if (n && !(p->bins = calloc(n, sizeof(*p->bins))))
		err = nomem();
	p->bins_cap = n;
	for (size_t i = 0; i < n && !err; i++) {
		err = copy_binary(p, &b[i], &p->bins[i]);
		p->nbins = i + 1;
	}
	if (err) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_range(const struct pgo_range *a, const struct pgo_range *b)
{
	int c = cmp_u64(a->start, b->start);
	return c ? c : cmp_u64(a->last, b->last);
}

static int cmp_branch(const struct pgo_branch *a, const struct pgo_branch *b)
{
	int c = cmp_u64(a->from.addr, b->from.addr);
	return c ? c : cmp_u64(a->to.addr, b->to.addr);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_end(const struct pgo_end *a, const struct pgo_end *b)
{
	return a->addr == b->addr && a->off == b->off &&
	       a->inside == b->inside && same_text(a->sym, b->sym);
}

/* The ranges of @a and @b merged into @out (room for both). */
static int merge_ranges(const struct pgo_binary *a, const struct pgo_binary *b,
			struct pgo_range *out, size_t *n)
{
	size_t i = 0, j = 0, k = 0;
	while (i < a->nranges || j < b->nranges) {
		int c = i == a->nranges ? 1
			: j == b->nranges ? -1
					  : cmp_range(&a->ranges[i], &b->ranges[j]);
		if (c < 0)
			out[k++] = a->ranges[i++];
		else if (c > 0)
			out[k++] = b->ranges[j++];
		else {
			out[k] = a->ranges[i++];
			int err = partial_add_count(&out[k++].n,
						    b->ranges[j++].n);
			if (err)
				return err;
		}
	}
	*n = k;
	return 0;
}

/* The branches of @a and @b merged into @out (room for both); @b's texts
 * are interned in @p. */
static int merge_branches(struct hwt_partial *p, const struct pgo_binary *a,
			  const struct pgo_binary *b, struct pgo_branch *out,
			  size_t *n)
{
	size_t i = 0, j = 0, k = 0;
	int err = 0;
	while (!err && (i < a->nbranches || j < b->nbranches)) {
		int c = i == a->nbranches ? 1
			: j == b->nbranches ? -1
					    : cmp_branch(&a->branches[i],
							 &b->branches[j]);
		if (c < 0) {
			out[k++] = a->branches[i++];
			continue;
		}
		const struct pgo_branch *r = &b->branches[j++];
		if (c > 0) {
			out[k] = *r;
			if (!(err = partial_intern(p, r->from.sym, &out[k].from.sym)))
				err = partial_intern(p, r->to.sym, &out[k].to.sym);
			k++;
			continue;
		}
		/* One binary names one address one way. */
		if (!same_end(&a->branches[i].from, &r->from) ||
		    !same_end(&a->branches[i].to, &r->to))
			return hwt_error(HWT_ERR_INVAL, "%s: the parts name the "
					 "branch 0x%llx -> 0x%llx differently "
					 "(different binaries at one path?)",
					 a->path,
					 (unsigned long long)r->from.addr,
					 (unsigned long long)r->to.addr);
		out[k] = a->branches[i++];
		err = partial_add_count(&out[k++].n, r->n);
	}
	*n = k;
	return err;
}

/* Adds @src's lines to @dst's (the same binary). */
static int merge_binary(struct hwt_partial *p, struct pgo_binary *dst,
			const struct pgo_binary *src)
{
	if (strcmp(dst->build_id, src->build_id) || dst->base != src->base)
		return hwt_error(HWT_ERR_INVAL, "%s: the parts hold different "
				 "binaries at this path (build ids %s and %s): "
				 "merge their profiles apart", dst->path,
				 *dst->build_id ? dst->build_id : "none",
				 *src->build_id ? src->build_id : "none");
	struct pgo_range *ranges =
		malloc((dst->nranges + src->nranges + 1) * sizeof(*ranges));
	struct pgo_branch *branches =
		malloc((dst->nbranches + src->nbranches + 1) * sizeof(*branches));
	size_t nranges = 0, nbranches = 0;
	int err = ranges && branches ? 0 : nomem();
	if (!err)
		err = merge_ranges(dst, src, ranges, &nranges);
	if (!err)
		err = merge_branches(p, dst, src, branches, &nbranches);
	if (err) {
		free(ranges);
		free(branches);
		return err;
	}
	free_binary(dst);
	dst->ranges = ranges;
	dst->nranges = nranges;
	dst->ranges_cap = dst->nranges + src->nranges + 1;
	dst->branches = branches;
	dst->nbranches = nbranches;
	dst->branches_cap = dst->nbranches + src->nbranches + 1;
	return 0;
}

int partial_pgo_merge(struct hwt_partial *dst, const struct hwt_partial *src)
{
	size_t cap = dst->nbins + src->nbins + 1;
	struct pgo_binary *bins = calloc(cap, sizeof(*bins));
	if (!bins)
		return nomem();
	size_t i = 0, j = 0, k = 0;
	int err = 0;
	while (!err && (i < dst->nbins || j < src->nbins)) {
		int c = i == dst->nbins ? 1
			: j == src->nbins ? -1
					  : strcmp(dst->bins[i].path,
						   src->bins[j].path);
		if (c < 0)
			bins[k++] = dst->bins[i++];
		else if (c > 0)
			err = copy_binary(dst, &src->bins[j++], &bins[k++]);
		else {
			bins[k] = dst->bins[i++];
			err = merge_binary(dst, &bins[k++], &src->bins[j++]);
		}
	}
	/* On failure the binaries not yet moved stay in @dst, those moved
	 * go with it: @dst then holds part of @src, as the API says. */
	while (i < dst->nbins)
		bins[k++] = dst->bins[i++];
	free(dst->bins);
	dst->bins = bins;
	dst->nbins = k;
	dst->bins_cap = cap;
	return err;
}

int hwt_partial_write_profiles(const struct hwt_partial *p, const char *prefix,
			       FILE *listing)
{
	if (!partial_is_pgo(p->kind))
		return hwt_error(HWT_ERR_INVAL, "a %s partial has no per-binary "
				 "profile files", hwt_partial_kind_name(p->kind));
	int err = hwt_pgo_check_prefix(prefix);
	if (err)
		return err;
	struct pgo_file *files;
	size_t nfiles;
	err = hwt_pgo_write_files(export_format(p->kind), prefix, p->bins,
				  p->nbins, &files, &nfiles);
	for (size_t i = 0; i < nfiles; i++) {
		if (!err && listing)
			fprintf(listing, "  %s (%s)\n", files[i].path,
				files[i].binary);
		free(files[i].path);
	}
	free(files);
	return err;
}
