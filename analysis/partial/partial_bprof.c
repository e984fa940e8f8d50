/* The branch-profile partial (hwtrace/partial.h): the records of a
 * finished `decode --branch-profile`, keyed by what they print. A branch
 * is its two ends' texts and names, not its addresses: FILE+0xOFFSET is
 * the same code in every capture wherever the file was loaded, so the
 * branches of captures whose binaries load at different addresses add
 * up. A 0xADDRESS end (no file mapped there) is only a number: two
 * captures' branches at one such address add up whether or not they
 * ran the same code. */
#include <stdlib.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "analysis/util/array_grow.h"
#include "hwtrace/error.h"
#include "hwtrace/sample.h"

/* The map key of a branch: each text with its length in front, "-" for
 * an absent name, so that no two branches share one whatever their
 * texts hold. NULL when out of memory. */
static char *bprof_key(const struct bprof_branch *b, size_t *len)
{
	const char *t[] = {b->from, b->to, b->from_sym, b->to_sym};
	size_t n = 1;
	for (size_t i = 0; i < 4; i++)
		n += t[i] ? strlen(t[i]) + 24 : 1;
	char *key = malloc(n), *w = key;
	if (!key)
		return NULL;
	for (size_t i = 0; i < 4; i++)
		w += t[i] ? sprintf(w, "%zu:%s", strlen(t[i]), t[i])
			  : sprintf(w, "-");
	*len = (size_t)(w - key);
	return key;
}

static int copy_text(char **dst, const char *src)
{
	*dst = NULL;
	return src && !(*dst = strdup(src)) ? HWT_ERR_NOMEM : 0;
}

static void free_branch(struct bprof_branch *b)
{
	free(b->from);
	free(b->to);
	free(b->from_sym);
	free(b->to_sym);
}

/* Whether the address pair (@f, @t) comes before (@g, @u). */
static bool pair_before(uint64_t f, uint64_t t, uint64_t g, uint64_t u)
{
	return f != g ? f < g : t < u;
}

int partial_bprof_add(struct hwt_partial *p, const struct bprof_branch *b,
		      bool *added)
{
	size_t len;
	char *key = bprof_key(b, &len);
	struct hwt_strmap_entry *e = key ? hwt_strmap_get(&p->branch_keys,
							   key, len) : NULL;
	free(key);
	if (!e)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch "
				 "profile");
	*added = !e->v[0];
	if (e->v[0]) {
		struct bprof_branch *d = &p->branches[e->v[0] - 1];
		int err = partial_add_count(&d->count, b->count);
		if (err)
			return err;
		if (pair_before(b->from_addr, b->to_addr, d->from_addr,
				d->to_addr)) {
			d->from_addr = b->from_addr;
			d->to_addr = b->to_addr;
		}
		return 0;
	}
	void *grown = p->branches;
	if (!array_grow(&grown, &p->branches_cap, sizeof(*p->branches),
			p->nbranches + 1, 256))
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch "
				 "profile");
	p->branches = grown;
	struct bprof_branch *d = &p->branches[p->nbranches];
	*d = (struct bprof_branch){.count = b->count,
				   .from_addr = b->from_addr,
				   .to_addr = b->to_addr};
	if (copy_text(&d->from, b->from) || copy_text(&d->to, b->to) ||
	    copy_text(&d->from_sym, b->from_sym) ||
	    copy_text(&d->to_sym, b->to_sym)) {
		free_branch(d);
		/* The key stays, pointing at no branch: drop it by value. */
		e->v[0] = 0;
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch "
				 "profile");
	}
	e->v[0] = ++p->nbranches;
	return 0;
}

void partial_bprof_free(struct hwt_partial *p)
{
	for (size_t i = 0; i < p->nbranches; i++)
		free_branch(&p->branches[i]);
	free(p->branches);
	hwt_strmap_free(&p->branch_keys);
}

int hwt_partial_new_branch_profile(bool named, struct hwt_partial **out)
{
	*out = partial_new(HWT_PARTIAL_BRANCH_PROFILE);
	if (!*out)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	(*out)->named = named;
	return 0;
}

int hwt_partial_branch_count(void *partial,
			     const struct hwt_branch_count_rec *rec)
{
	struct hwt_partial *p = partial;
	if (p->kind != HWT_PARTIAL_BRANCH_PROFILE)
		return hwt_error(HWT_ERR_INVAL, "a branch count goes into a "
				 "branch-profile partial, not an %s one",
				 hwt_partial_kind_name(p->kind));
	if (rec->named != p->named)
		return hwt_error(HWT_ERR_INVAL, "a branch count %s names in a "
				 "partial %s them", rec->named ? "with" : "without",
				 p->named ? "with" : "without");
	if (!rec->count)
		return 0; /* a branch never taken is no line of the profile */
	/* Names are kept only where the printers show them. */
	struct bprof_branch b = {
		.from = (char *)rec->from,
		.to = (char *)rec->to,
		.from_sym = rec->named ? (char *)rec->from_sym : NULL,
		.to_sym = rec->named ? (char *)rec->to_sym : NULL,
		.count = rec->count,
		.from_addr = rec->from_addr,
		.to_addr = rec->to_addr,
	};
	if (!b.from || !b.to)
		return hwt_error(HWT_ERR_INVAL, "a branch count without the "
				 "text of its ends");
	bool added;
	return partial_bprof_add(p, &b, &added);
}

int hwt_partial_from_branch_profile(
	const struct hwt_branch_profile *bp, struct hwt_image *image,
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size),
	void *name_addr_arg, struct hwt_partial **out)
{
	struct hwt_partial *p;
	int err = hwt_partial_new_branch_profile(name_addr != NULL, &p);
	*out = NULL;
	if (err)
		return err;
	struct hwt_branch_count_sink sink = {hwt_partial_branch_count, p};
	err = hwt_branch_profile_emit(bp, image, name_addr, name_addr_arg,
				      &sink);
	if (err < 0) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}

int partial_bprof_merge(struct hwt_partial *dst, const struct hwt_partial *src)
{
	if (dst->named != src->named)
		return hwt_error(HWT_ERR_INVAL, "a branch profile with names "
				 "and one without do not merge: decode every "
				 "part with the same symbol options");
	for (size_t i = 0; i < src->nbranches; i++) {
		bool added;
		int err = partial_bprof_add(dst, &src->branches[i], &added);
		if (err)
			return err;
	}
	return 0;
}

/* NULL (an absent name) before every text. */
static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int by_texts(const void *x, const void *y)
{
	const struct bprof_branch *a = *(const struct bprof_branch *const *)x;
	const struct bprof_branch *b = *(const struct bprof_branch *const *)y;
	int c = strcmp(a->from, b->from);
	if (!c)
		c = strcmp(a->to, b->to);
	if (!c)
		c = cmp_text(a->from_sym, b->from_sym);
	return c ? c : cmp_text(a->to_sym, b->to_sym);
}

/* The decode's order (sample_profile.c: most taken, then by address),
 * then the texts, for branches of two captures at one address pair. */
static int by_count(const void *x, const void *y)
{
	const struct bprof_branch *a = *(const struct bprof_branch *const *)x;
	const struct bprof_branch *b = *(const struct bprof_branch *const *)y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->from_addr != b->from_addr || a->to_addr != b->to_addr)
		return pair_before(a->from_addr, a->to_addr, b->from_addr,
				   b->to_addr) ? -1 : 1;
	return by_texts(x, y);
}

const struct bprof_branch **partial_bprof_sorted(const struct hwt_partial *p,
						 bool by_count_first)
{
	const struct bprof_branch **v =
		malloc((p->nbranches ? p->nbranches : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < p->nbranches; i++)
		v[i] = &p->branches[i];
	qsort(v, p->nbranches, sizeof(*v), by_count_first ? by_count : by_texts);
	return v;
}

int hwt_partial_write_branch_profile(const struct hwt_partial *p, FILE *out,
				     enum hwt_output_format format)
{
	if (p->kind != HWT_PARTIAL_BRANCH_PROFILE)
		return hwt_error(HWT_ERR_INVAL, "an %s partial gives no "
				 "branch profile",
				 hwt_partial_kind_name(p->kind));
	const struct bprof_branch **v = partial_bprof_sorted(p, true);
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch "
				 "profile");
	int (*print)(void *, const struct hwt_branch_count_rec *) =
		format == HWT_OUTPUT_JSONL ? hwt_branch_count_print_jsonl
					   : hwt_branch_count_print_text;
	int err = 0;
	for (size_t i = 0; i < p->nbranches && err >= 0; i++) {
		struct hwt_branch_count_rec rec = {
			.pid = HWT_PID_ANY,
			.from_addr = v[i]->from_addr,
			.to_addr = v[i]->to_addr,
			.from = v[i]->from,
			.to = v[i]->to,
			.count = v[i]->count,
			.named = p->named,
			.from_sym = v[i]->from_sym,
			.to_sym = v[i]->to_sym,
		};
		err = print(out, &rec);
	}
	free(v);
	return err < 0 ? err : 0;
}
