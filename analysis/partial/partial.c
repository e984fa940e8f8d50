/* Partial results (hwtrace/partial.h): built from a finished report or an
 * edge map, and merged. Every value is a sum (checked against overflow,
 * so that a merge either gives the exact total or fails, whatever the
 * grouping) or a maximum; the order of entries is the order they were
 * met in, which no output shows: the writers sort. */
#include <stdlib.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "analysis/report/report_internal.h"
#include "analysis/util/array_grow.h"
#include "hwtrace/edges.h"
#include "hwtrace/error.h"

const char *hwt_partial_kind_name(enum hwt_partial_kind kind)
{
	switch (kind) {
	case HWT_PARTIAL_EDGES:
		return "edges";
	case HWT_PARTIAL_AUTOFDO:
		return "autofdo";
	case HWT_PARTIAL_BOLT:
		return "bolt";
	case HWT_PARTIAL_BOLT_PREAGG:
		return "bolt-preagg";
	case HWT_PARTIAL_PPROF:
		return "pprof";
	case HWT_PARTIAL_SQLITE:
		return "sqlite";
	case HWT_PARTIAL_BRANCH_PROFILE:
		return "branch-profile";
	default:
		return "report";
	}
}

struct hwt_partial *partial_new(enum hwt_partial_kind kind)
{
	struct hwt_partial *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->kind = kind;
	if (kind == HWT_PARTIAL_EDGES && !(p->edges = hwt_edges_new())) {
		free(p);
		return NULL;
	}
	if (kind == HWT_PARTIAL_PPROF && partial_pprof_new(p)) {
		free(p);
		return NULL;
	}
	return p;
}

void hwt_partial_free(struct hwt_partial *p)
{
	if (!p)
		return;
	hwt_strmap_free(&p->names);
	hwt_strmap_free(&p->dsos);
	hwt_strmap_free(&p->stacks);
	free(p->funcs);
	free(p->time_unit);
	free(p->time_meaning);
	hwt_edges_free(p->edges);
	partial_pgo_free(p);
	partial_pprof_free(p);
	sqlite_shards_free(&p->shards);
	partial_bprof_free(p);
	free(p->reading_lines);
	free(p);
}

enum hwt_partial_kind hwt_partial_kind(const struct hwt_partial *p)
{
	return p->kind;
}

const struct hwt_edges *hwt_partial_edges(const struct hwt_partial *p)
{
	return p->edges;
}

struct hwt_report_func *partial_func(struct hwt_partial *p, const char *dso,
				     const char *name)
{
	const char *row_name = NULL, *row_dso = NULL;
	struct hwt_strmap_entry *e = report_row(&p->names, &p->dsos, dso, name,
						&row_name, &row_dso);
	if (!e)
		return NULL;
	if (e->v[0])
		return &p->funcs[e->v[0] - 1];
	void *grown = p->funcs;
	if (!array_grow(&grown, &p->funcs_cap, sizeof(*p->funcs),
			p->nfuncs + 1, 64))
		return NULL;
	p->funcs = grown;
	struct hwt_report_func *f = &p->funcs[p->nfuncs];
	memset(f, 0, sizeof(*f));
	f->name = row_name;
	f->dso = row_dso;
	f->pid = f->tid = -1;  /* a partial's rows add up all threads */
	e->v[0] = ++p->nfuncs;
	return f;
}

int partial_add_count(uint64_t *sum, uint64_t add)
{
	if (*sum > UINT64_MAX - add)
		return hwt_error(HWT_ERR_FORMAT, "the counts add up past "
				 "2^64 - 1: no exact total");
	*sum += add;
	return 0;
}

int partial_add_func(struct hwt_report_func *dst,
		     const struct hwt_report_func *src)
{
	uint64_t *d[] = {&dst->calls, &dst->frames, &dst->insns_self,
			 &dst->insns_total, &dst->branches_self, &dst->time_self,
			 &dst->time_total, &dst->timed, &dst->duration_sum};
	const uint64_t s[] = {src->calls, src->frames, src->insns_self,
			      src->insns_total, src->branches_self,
			      src->time_self, src->time_total, src->timed,
			      src->duration_sum};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		int err = partial_add_count(d[i], s[i]);
		if (err)
			return err;
	}
	if (src->duration_max > dst->duration_max)
		dst->duration_max = src->duration_max;
	return 0;
}

static int copy_text(char **dst, const char *src)
{
	*dst = NULL;
	if (src && !(*dst = strdup(src)))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	return 0;
}

static int add_stacks(struct hwt_strmap *dst, const struct hwt_strmap *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct hwt_strmap_entry *s = &src->e[i];
		struct hwt_strmap_entry *d = hwt_strmap_get(dst, s->key,
							    strlen(s->key));
		if (!d)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		for (unsigned w = S_INSNS; w <= S_CALLS; w++) {
			int err = partial_add_count(&d->v[w], s->v[w]);
			if (err)
				return err;
		}
	}
	return 0;
}

int hwt_partial_from_report(const struct hwt_report *report, bool has_time,
			    struct hwt_partial **out)
{
	*out = NULL;
	if (report->lines.line)
		return hwt_error(HWT_ERR_INVAL, "a report by source line has no "
				 "partial result");
	struct hwt_partial *p = partial_new(HWT_PARTIAL_REPORT);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	p->has_time = has_time;
	int err = copy_text(&p->time_unit, report->time_unit);
	if (!err)
		err = copy_text(&p->time_meaning, report->time_meaning);
	for (size_t i = 0; i < report->nfuncs && !err; i++) {
		struct hwt_report_func *f = partial_func(p, report->funcs[i].dso,
							report->funcs[i].name);
		err = f ? partial_add_func(f, &report->funcs[i])
			: hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	if (!err)
		err = report_full_stacks(report, &p->stacks);
	if (err) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}

int hwt_partial_from_edges(const struct hwt_edges *edges,
			   struct hwt_partial **out)
{
	*out = NULL;
	struct hwt_partial *p = partial_new(HWT_PARTIAL_EDGES);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = hwt_edges_merge(p->edges, edges);
	if (err < 0) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int merge_edges(struct hwt_edges *dst, const struct hwt_edges *src)
{
	struct hwt_edge *v;
	size_t n;
	int err = hwt_edges_sorted(src, &v, &n);
	if (err < 0)
		return err;
	for (size_t i = 0; i < n && !err; i++) {
		uint64_t have = hwt_edges_count(dst, v[i].from, v[i].to);
		err = partial_add_count(&have, v[i].count);
		if (!err)
			err = hwt_edges_add(dst, v[i].from, v[i].to, v[i].count);
	}
	free(v);
	if (err < 0)
		return err;
	struct hwt_edges_stats *d = hwt_edges_stats(dst);
	const struct hwt_edges_stats *s =
		hwt_edges_stats((struct hwt_edges *)src);
	uint64_t *dv[] = {&d->overflows, &d->errors, &d->gaps, &d->fallbacks};
	const uint64_t sv[] = {s->overflows, s->errors, s->gaps, s->fallbacks};
	for (size_t i = 0; i < 4 && !err; i++)
		err = partial_add_count(dv[i], sv[i]);
	return err;
}

int hwt_partial_merge(struct hwt_partial *dst, const struct hwt_partial *src)
{
	if (dst->kind != src->kind)
		return hwt_error(HWT_ERR_INVAL, "a %s partial and an %s one do "
				 "not merge", hwt_partial_kind_name(dst->kind),
				 hwt_partial_kind_name(src->kind));
	if (dst->kind == HWT_PARTIAL_EDGES)
		return merge_edges(dst->edges, src->edges);
	if (partial_is_pgo(dst->kind))
		return partial_pgo_merge(dst, src);
	if (dst->kind == HWT_PARTIAL_PPROF)
		return partial_pprof_merge(dst, src);
	if (dst->kind == HWT_PARTIAL_SQLITE)
		return partial_sqlite_merge(dst, src);
	if (dst->kind == HWT_PARTIAL_BRANCH_PROFILE)
		return partial_bprof_merge(dst, src);
	if (!same_text(dst->time_unit, src->time_unit) ||
	    !same_text(dst->time_meaning, src->time_meaning))
		return hwt_error(HWT_ERR_INVAL, "the parts' times are of "
				 "different clocks (%s and %s): report them "
				 "apart", dst->time_unit ? dst->time_unit : "none",
				 src->time_unit ? src->time_unit : "none");
	dst->has_time |= src->has_time;
	for (size_t i = 0; i < src->nfuncs; i++) {
		struct hwt_report_func *f = partial_func(dst, src->funcs[i].dso,
							src->funcs[i].name);
		if (!f)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		int err = partial_add_func(f, &src->funcs[i]);
		if (err)
			return err;
	}
	return add_stacks(&dst->stacks, &src->stacks);
}
