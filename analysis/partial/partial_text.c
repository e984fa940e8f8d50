/* The partial format, version 1 (docs/scale-out.md): lines of
 * space-separated fields, the first "hwtrace-partial 1 KIND", the last
 * "end N" (N: the lines of entries, so that a cut file is found out).
 * Text fields are written with every byte that is not a printable
 * non-space ASCII character, and '%' and '~', as %XX; "~" is a text that
 * is absent and "%" alone one that is empty. Entries are written sorted,
 * so that equal partials are equal bytes. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "analysis/report/report_internal.h"
#include "hwtrace/edges.h"
#include "hwtrace/error.h"

#define PARTIAL_MAGIC "hwtrace-partial"
/* 2: func lines name the function's binary. */
#define PARTIAL_VERSION 2
#define PARTIAL_VERSION_TEXT "2"

void partial_put_text(FILE *out, const char *s)
{
	if (!s) {
		fputc('~', out);
		return;
	}
	if (!*s)
		fputc('%', out);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c <= ' ' || *c >= 0x7f || *c == '%' || *c == '~')
			fprintf(out, "%%%02X", *c);
		else
			fputc(*c, out);
}

static int by_name(const void *a, const void *b)
{
	const struct hwt_report_func *x = *(const struct hwt_report_func *const *)a;
	const struct hwt_report_func *y = *(const struct hwt_report_func *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->dso, y->dso);
}

static int by_key(const void *a, const void *b)
{
	const struct hwt_strmap_entry *x = *(const struct hwt_strmap_entry *const *)a;
	const struct hwt_strmap_entry *y = *(const struct hwt_strmap_entry *const *)b;
	return strcmp(x->key, y->key);
}

static int write_report(const struct hwt_partial *p, FILE *out, size_t *lines)
{
	fputs("time ", out);
	partial_put_text(out, p->time_unit);
	fputc(' ', out);
	partial_put_text(out, p->time_meaning);
	fprintf(out, "\nhas_time %d\n", p->has_time ? 1 : 0);
	size_t n = p->nfuncs > p->stacks.n ? p->nfuncs : p->stacks.n;
	const void **order = malloc((n + 1) * sizeof(*order));
	if (!order)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < p->nfuncs; i++)
		order[i] = &p->funcs[i];
	qsort(order, p->nfuncs, sizeof(*order), by_name);
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct hwt_report_func *f = order[i];
		fputs("func ", out);
		partial_put_text(out, f->name);
		fputc(' ', out);
		partial_put_text(out, f->dso);
		fprintf(out, " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
			PRIu64 " %" PRIu64 "\n", f->calls, f->frames,
			f->insns_self, f->insns_total, f->branches_self,
			f->time_self, f->time_total, f->timed, f->duration_sum,
			f->duration_max);
	}
	for (size_t i = 0; i < p->stacks.n; i++)
		order[i] = &p->stacks.e[i];
	qsort(order, p->stacks.n, sizeof(*order), by_key);
	for (size_t i = 0; i < p->stacks.n; i++) {
		const struct hwt_strmap_entry *s = order[i];
		fputs("stack ", out);
		partial_put_text(out, s->key);
		fprintf(out, " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			s->v[S_INSNS], s->v[S_TIME], s->v[S_CALLS]);
	}
	free(order);
	*lines = p->nfuncs + p->stacks.n;
	return 0;
}

static int write_edges(const struct hwt_partial *p, FILE *out, size_t *lines)
{
	const struct hwt_edges_stats *st = hwt_edges_stats(p->edges);
	fprintf(out, "stats %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		st->overflows, st->errors, st->gaps, st->fallbacks);
	struct hwt_edge *v;
	size_t n;
	int err = hwt_edges_sorted(p->edges, &v, &n);
	if (err < 0)
		return err;
	for (size_t i = 0; i < n; i++)
		fprintf(out, "edge 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n",
			v[i].from, v[i].to, v[i].count);
	free(v);
	*lines = n;
	return 0;
}

int hwt_partial_write(const struct hwt_partial *p, FILE *out)
{
	fprintf(out, PARTIAL_MAGIC " %d %s\n", PARTIAL_VERSION,
		hwt_partial_kind_name(p->kind));
	size_t lines = 0;
	int err = p->kind == HWT_PARTIAL_EDGES ? write_edges(p, out, &lines)
		  : partial_is_pgo(p->kind)    ? partial_pgo_write(p, out, &lines)
		  : p->kind == HWT_PARTIAL_PPROF ? partial_pprof_write(p, out, &lines)
		  : p->kind == HWT_PARTIAL_SQLITE ? partial_sqlite_write(p, out, &lines)
		  : p->kind == HWT_PARTIAL_BRANCH_PROFILE ?
			partial_bprof_write(p, out, &lines)
					       : write_report(p, out, &lines);
	if (err)
		return err;
	fprintf(out, "end %zu\n", lines);
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the partial result: %s",
				 strerror(errno));
	return 0;
}

/* --- reading --- */


int partial_bad(const struct partial_reader *r, const char *what)
{
	return hwt_error(HWT_ERR_FORMAT, "%s: line %zu: %s (not a partial "
			 "result hwtrace wrote, or cut short: decode its unit "
			 "again)", r->name, r->lineno, what);
}

/* The next line cut into fields; 0, or an error (at the end of the
 * input: "ends before its end line"). */
int partial_next_line(struct partial_reader *r)
{
	errno = 0;
	ssize_t len = getline(&r->line, &r->cap, r->in);
	if (len < 0) {
		if (ferror(r->in))
			return hwt_error(HWT_ERR_IO, "%s: reading failed: %s",
					 r->name, strerror(errno));
		r->lineno++;
		return partial_bad(r, "the file ends before its end line");
	}
	r->lineno++;
	if (!len || r->line[len - 1] != '\n')
		return partial_bad(r, "the last line has no newline");
	r->line[len - 1] = 0;
	if (strlen(r->line) != (size_t)len - 1)
		return partial_bad(r, "a NUL byte in the line");
	r->nfields = 0;
	char *s = r->line;
	for (;;) {
		if (r->nfields == sizeof(r->fields) / sizeof(r->fields[0]))
			return partial_bad(r, "too many fields");
		r->fields[r->nfields++] = s;
		char *sp = strchr(s, ' ');
		if (!sp)
			break;
		*sp = 0;
		s = sp + 1;
	}
	return 0;
}

int partial_want_fields(const struct partial_reader *r, size_t n)
{
	if (r->nfields != n) {
		char what[64];
		snprintf(what, sizeof(what), "%s: %zu fields where %zu belong",
			 r->fields[0], r->nfields, n);
		return partial_bad(r, what);
	}
	return 0;
}

int partial_number(const struct partial_reader *r, const char *s, int base,
		  uint64_t *v)
{
	const char *digits = s;
	if (base == 16) {
		if (strncmp(s, "0x", 2))
			return partial_bad(r, "an address without 0x");
		digits = s + 2;
	}
	bool ok = *digits;
	for (const char *c = digits; *c && ok; c++)
		ok = base == 16 ? strchr("0123456789abcdef", *c) != NULL
				: (*c >= '0' && *c <= '9');
	if (!ok)
		return partial_bad(r, "a malformed number");
	errno = 0;
	unsigned long long x = strtoull(digits, NULL, base);
	if (errno == ERANGE)
		return partial_bad(r, "a number past 2^64 - 1");
	*v = x;
	return 0;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0'
	     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes the text field @s in place; *@out is NULL for "~". */
int partial_text_field(const struct partial_reader *r, char *s, char **out)
{
	if (!strcmp(s, "~")) {
		*out = NULL;
		return 0;
	}
	*out = s;
	if (!strcmp(s, "%")) {
		*s = 0;
		return 0;
	}
	char *w = s;
	for (const char *c = s; *c; c++) {
		if (*c == '~')
			return partial_bad(r, "a '~' inside a text");
		if (*c != '%') {
			*w++ = *c;
			continue;
		}
		int hi = hex_digit(c[1]), lo = hi < 0 ? -1 : hex_digit(c[2]);
		if (lo < 0 || (hi == 0 && lo == 0))
			return partial_bad(r, "a malformed %XX escape");
		*w++ = (char)(hi * 16 + lo);
		c += 2;
	}
	*w = 0;
	if (!*s)
		return partial_bad(r, "an empty text written as nothing");
	return 0;
}

static int numbers(const struct partial_reader *r, size_t first, uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = partial_number(r, r->fields[first + i], 10, &v[i]);
		if (err)
			return err;
	}
	return 0;
}

static int read_header_text(struct partial_reader *r, struct hwt_partial *p)
{
	int err = partial_next_line(r);
	if (!err && strcmp(r->fields[0], "time"))
		err = partial_bad(r, "no time line");
	if (!err)
		err = partial_want_fields(r, 3);
	char *unit, *meaning;
	if (!err)
		err = partial_text_field(r, r->fields[1], &unit);
	if (!err)
		err = partial_text_field(r, r->fields[2], &meaning);
	if (!err && ((unit && !(p->time_unit = strdup(unit))) ||
		     (meaning && !(p->time_meaning = strdup(meaning)))))
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!err)
		err = partial_next_line(r);
	if (!err && strcmp(r->fields[0], "has_time"))
		err = partial_bad(r, "no has_time line");
	if (!err)
		err = partial_want_fields(r, 2);
	if (!err && strcmp(r->fields[1], "0") && strcmp(r->fields[1], "1"))
		err = partial_bad(r, "has_time is neither 0 nor 1");
	if (!err)
		p->has_time = r->fields[1][0] == '1';
	return err;
}

/* One "func" or "stack" line of a report partial. */
static int read_report_entry(struct partial_reader *r, struct hwt_partial *p)
{
	char *key, *dso = NULL;
	uint64_t v[10];
	bool func = !strcmp(r->fields[0], "func");
	int err = partial_want_fields(r, func ? 13 : 5);
	if (!err)
		err = partial_text_field(r, r->fields[1], &key);
	if (!err && !key)
		err = partial_bad(r, "a name that is absent");
	if (!err && func)
		err = partial_text_field(r, r->fields[2], &dso);
	if (!err && func && (!dso || !*dso || strchr(dso, '/')))
		err = partial_bad(r, "a binary's name that is absent, empty or a path");
	if (!err)
		err = numbers(r, func ? 3 : 2, v, func ? 10 : 3);
	if (err)
		return err;
	if (func) {
		size_t before = p->nfuncs;
		struct hwt_report_func *f = partial_func(p, dso, key);
		if (!f)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		if (p->nfuncs == before)
			return partial_bad(r, "a function listed twice");
		*f = (struct hwt_report_func){f->name, v[0], v[1], v[2], v[3],
					      v[4], v[5], v[6], v[7], v[8], v[9],
					      f->dso, -1, -1, NULL};
		return 0;
	}
	size_t before = p->stacks.n;
	struct hwt_strmap_entry *s = hwt_strmap_get(&p->stacks, key,
						    strlen(key));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (p->stacks.n == before)
		return partial_bad(r, "a stack listed twice");
	s->v[S_INSNS] = v[0];
	s->v[S_TIME] = v[1];
	s->v[S_CALLS] = v[2];
	return 0;
}

static int read_edges_entry(struct partial_reader *r, struct hwt_partial *p)
{
	uint64_t from, to, count;
	int err = partial_want_fields(r, 4);
	if (!err)
		err = partial_number(r, r->fields[1], 16, &from);
	if (!err)
		err = partial_number(r, r->fields[2], 16, &to);
	if (!err)
		err = partial_number(r, r->fields[3], 10, &count);
	if (err)
		return err;
	if (!count)
		return partial_bad(r, "an edge taken 0 times");
	if (hwt_edges_count(p->edges, from, to))
		return partial_bad(r, "an edge listed twice");
	return hwt_edges_add(p->edges, from, to, count);
}

static int read_edges_stats(struct partial_reader *r, struct hwt_partial *p)
{
	uint64_t v[4];
	int err = partial_next_line(r);
	if (!err && strcmp(r->fields[0], "stats"))
		err = partial_bad(r, "no stats line");
	if (!err)
		err = partial_want_fields(r, 5);
	if (!err)
		err = numbers(r, 1, v, 4);
	if (err)
		return err;
	*hwt_edges_stats(p->edges) = (struct hwt_edges_stats){v[0], v[1], v[2],
							      v[3]};
	return 0;
}

static int read_body(struct partial_reader *r, struct hwt_partial *p)
{
	bool edges = p->kind == HWT_PARTIAL_EDGES, pgo = partial_is_pgo(p->kind);
	bool pprof = p->kind == HWT_PARTIAL_PPROF;
	bool sqlite = p->kind == HWT_PARTIAL_SQLITE;
	bool bprof = p->kind == HWT_PARTIAL_BRANCH_PROFILE;
	int err = edges ? read_edges_stats(r, p)
		  : bprof ? partial_bprof_read_head(r, p)
		  : pgo || sqlite ? 0
		  : pprof ? partial_pprof_read_head(r, p)
			: read_header_text(r, p);
	size_t entries = 0;
	while (!err && !(err = partial_next_line(r))) {
		const char *what = r->fields[0];
		if (!strcmp(what, "end")) {
			uint64_t n;
			err = partial_want_fields(r, 2);
			if (!err)
				err = partial_number(r, r->fields[1], 10, &n);
			if (!err && pprof)
				err = partial_pprof_read_end(r, p);
			if (!err && sqlite)
				sqlite_shards_sort(&p->shards);
			if (!err && n != entries)
				err = partial_bad(r, "the end line counts other entries "
					  "than the file has");
			if (!err && getc(r->in) != EOF)
				err = partial_bad(r, "lines after the end line");
			return err;
		}
		if (pgo)
			err = partial_pgo_read_line(r, p);
		else if (bprof)
			err = partial_bprof_read_line(r, p);
		else if (sqlite)
			err = partial_sqlite_read_line(r, p);
		else if (pprof)
			err = partial_pprof_read_line(r, p);
		else if (edges && !strcmp(what, "edge"))
			err = read_edges_entry(r, p);
		else if (!edges && (!strcmp(what, "func") || !strcmp(what, "stack")))
			err = read_report_entry(r, p);
		else
			err = partial_bad(r, "a line of no known kind");
		entries++;
	}
	return err;
}

int hwt_partial_read(FILE *in, const char *name, struct hwt_partial **out)
{
	*out = NULL;
	struct partial_reader r = {.in = in, .name = name};
	int err = partial_next_line(&r);
	enum hwt_partial_kind kind = HWT_PARTIAL_REPORT;
	if (!err && (r.nfields != 3 || strcmp(r.fields[0], PARTIAL_MAGIC)))
		err = partial_bad(&r, "no \"" PARTIAL_MAGIC " VERSION KIND\" line");
	if (!err && strcmp(r.fields[1], PARTIAL_VERSION_TEXT))
		err = hwt_error(HWT_ERR_FORMAT, "%s: a partial result of format "
				"version %s; this hwtrace reads version %d",
				name, r.fields[1], PARTIAL_VERSION);
	if (!err) {
		static const enum hwt_partial_kind kinds[] = {
			HWT_PARTIAL_REPORT, HWT_PARTIAL_EDGES,
			HWT_PARTIAL_AUTOFDO, HWT_PARTIAL_BOLT,
			HWT_PARTIAL_BOLT_PREAGG, HWT_PARTIAL_PPROF,
			HWT_PARTIAL_SQLITE, HWT_PARTIAL_BRANCH_PROFILE,
		};
		size_t i = 0, n = sizeof(kinds) / sizeof(kinds[0]);
		while (i < n && strcmp(r.fields[2], hwt_partial_kind_name(kinds[i])))
			i++;
		if (i == n)
			err = partial_bad(&r, "a kind other than report, edges, "
					  "autofdo, bolt, bolt-preagg, "
					  "pprof, sqlite or branch-profile");
		else
			kind = kinds[i];
	}
	struct hwt_partial *p = NULL;
	if (!err && !(p = partial_new(kind)))
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!err)
		err = read_body(&r, p);
	free(r.line);
	if (err < 0) {
		hwt_partial_free(p);
		return err;
	}
	*out = p;
	return 0;
}
