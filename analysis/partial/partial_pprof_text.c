/* The lines of the pprof partial in the partial format
 * (docs/scale-out.md):
 *
 *   profile HAS_TIME SRCLINE RECORDS PERIOD_MIN PERIOD_MAX
 *   location PID 0xADDR DSO BUILD_ID 0xBIAS LINES
 *   line NAME FILE LINE START_LINE
 *   sample PID TID CPU COMM INSNS BRANCHES TIME STACK
 *
 * each location followed by its LINES line lines; locations and
 * samples in the canonical order of the export's writer (pprof_order),
 * locations numbered from 0 in that order, a sample's STACK their
 * numbers leaf first, joined by commas. An absent label, process or
 * binary is "~". */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "hwtrace/error.h"

static void put_signed(FILE *out, int64_t v)
{
	if (v < 0)
		fputs(" ~", out);
	else
		fprintf(out, " %" PRId64, v);
}

static void write_location(const struct pprof_profile *pp,
			   const struct pprof_loc *l, FILE *out)
{
	fputs("location", out);
	put_signed(out, l->pid);
	fprintf(out, " 0x%" PRIx64 " ", l->addr);
	const struct pprof_map *m = l->map ? &pp->maps[l->map - 1] : NULL;
	partial_put_text(out, m ? m->dso : NULL);
	fputc(' ', out);
	partial_put_text(out, m ? m->build_id : NULL);
	fprintf(out, " 0x%" PRIx64 " %zu\n", m ? m->bias : 0, l->nlines);
	for (size_t i = 0; i < l->nlines; i++) {
		const struct pprof_line *ln = &pp->lines[l->first_line + i];
		fputs("line ", out);
		partial_put_text(out, ln->name);
		fputc(' ', out);
		partial_put_text(out, ln->file);
		fprintf(out, " %" PRIu64 " %" PRIu64 "\n", ln->line,
			ln->start_line);
	}
}

int partial_pprof_write(const struct hwt_partial *p, FILE *out, size_t *lines)
{
	const struct pprof_profile *pp = p->pprof;
	size_t *rank, *loc_order, *sample_order;
	int err = pprof_order(pp, &rank, &loc_order, &sample_order);
	if (err) {
		free(rank);
		free(loc_order);
		free(sample_order);
		return err;
	}
	fprintf(out, "profile %d %d %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		pp->has_time ? 1 : 0, pp->srcline ? 1 : 0, pp->records,
		pp->period_min, pp->period_max);
	for (size_t i = 0; i < pp->nlocs; i++)
		write_location(pp, &pp->locs[loc_order[i]], out);
	for (size_t i = 0; i < pp->nsamples; i++) {
		const struct pprof_sample *s = &pp->samples[sample_order[i]];
		fputs("sample", out);
		put_signed(out, s->pid);
		put_signed(out, s->tid);
		put_signed(out, s->cpu);
		fputc(' ', out);
		partial_put_text(out, s->comm);
		fprintf(out, " %" PRIu64 " %" PRIu64 " %" PRIu64 " ", s->v[0],
			s->v[1], s->v[2]);
		for (size_t j = 0; j < s->nlocs; j++)
			fprintf(out, "%s%zu", j ? "," : "",
				rank[pp->stack[s->first_loc + j]]);
		fputc('\n', out);
	}
	*lines = pp->nlocs + pp->nlines + pp->nsamples;
	free(rank);
	free(loc_order);
	free(sample_order);
	return 0;
}

/* A process, thread or cpu number, -1 for "~". */
static int read_signed(const struct partial_reader *r, const char *s,
		       int64_t *v)
{
	uint64_t u;
	if (!strcmp(s, "~")) {
		*v = -1;
		return 0;
	}
	int err = partial_number(r, s, 10, &u);
	if (!err && u > INT32_MAX)
		err = partial_bad(r, "a process, thread or cpu past 2^31 - 1");
	*v = (int64_t)u;
	return err;
}

static int numbers(const struct partial_reader *r, size_t first, int base,
		   uint64_t *v, size_t n)
{
	int err = 0;
	for (size_t i = 0; i < n && !err; i++)
		err = partial_number(r, r->fields[first + i], base, &v[i]);
	return err;
}

int partial_pprof_read_head(struct partial_reader *r, struct hwt_partial *p)
{
	uint64_t v[5];
	int err = partial_next_line(r);
	if (!err && strcmp(r->fields[0], "profile"))
		err = partial_bad(r, "no profile line");
	if (!err)
		err = partial_want_fields(r, 6);
	if (!err)
		err = numbers(r, 1, 10, v, 5);
	if (!err && (v[0] > 1 || v[1] > 1))
		err = partial_bad(r, "a flag other than 0 or 1");
	if (err)
		return err;
	p->pprof->has_time = v[0];
	p->pprof->srcline = v[1];
	pprof_add_records(p->pprof, v[2], v[3], v[4]);
	return 0;
}

static int read_location(struct partial_reader *r, struct hwt_partial *p)
{
	char *dso, *build_id;
	uint64_t addr, bias, nlines;
	int err = partial_want_fields(r, 7);
	if (!err)
		err = read_signed(r, r->fields[1], &p->reading.pid);
	if (!err)
		err = partial_number(r, r->fields[2], 16, &addr);
	if (!err)
		err = partial_text_field(r, r->fields[3], &dso);
	if (!err)
		err = partial_text_field(r, r->fields[4], &build_id);
	if (!err)
		err = partial_number(r, r->fields[5], 16, &bias);
	if (!err)
		err = partial_number(r, r->fields[6], 10, &nlines);
	if (!err && (!nlines || nlines > 4096))
		err = partial_bad(r, "a location of no lines or of more than "
				  "4096");
	if (!err && !dso != !build_id)
		err = partial_bad(r, "a build id without a binary, or a binary "
				  "without one (\"%\" for none)");
	if (err)
		return err;
	p->reading.addr = addr;
	p->reading.map = 0;
	if (dso) {
		struct pprof_map m = {dso, build_id, bias};
		if (!(p->reading.map = pprof_add_map(p->pprof, &m)))
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	p->reading.nlines = nlines;
	p->reading_n = 0;
	return 0;
}

static int read_loc_line(struct partial_reader *r, struct hwt_partial *p)
{
	char *name, *file;
	uint64_t v[2];
	int err = partial_want_fields(r, 5);
	if (!err && p->reading_n == p->reading.nlines)
		err = partial_bad(r, "a line where no location has lines to come");
	if (!err)
		err = partial_text_field(r, r->fields[1], &name);
	if (!err)
		err = partial_text_field(r, r->fields[2], &file);
	if (!err && (!name || !file))
		err = partial_bad(r, "a line without its function or file "
				  "(\"%\" for none)");
	if (!err)
		err = numbers(r, 3, 10, v, 2);
	if (err)
		return err;
	size_t n = p->reading_n;
	if (n == p->reading_cap) {
		size_t cap = n ? 2 * n : 8;
		struct pprof_line *grown = realloc(p->reading_lines,
						   cap * sizeof(*grown));
		if (!grown)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		p->reading_lines = grown;
		p->reading_cap = cap;
	}
	/* The reader's line is overwritten by the next: the texts are kept
	 * in the profile now. */
	struct pprof_line *l = &p->reading_lines[n];
	*l = (struct pprof_line){pprof_text(p->pprof, name),
				 pprof_text(p->pprof, file), v[0], v[1]};
	if (!l->name || !l->file)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	p->reading_n++;
	if (p->reading_n < p->reading.nlines)
		return 0;
	size_t before = p->pprof->nlocs;
	if (pprof_add_loc(p->pprof, &p->reading, p->reading_lines) == SIZE_MAX)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (p->pprof->nlocs == before)
		return partial_bad(r, "a location listed twice");
	return 0;
}

/* STACK: location numbers, leaf first, joined by commas. */
static int read_stack(const struct partial_reader *r, const char *s,
		      size_t nlocs, size_t **stack, size_t *n)
{
	*n = 0;
	size_t cap = 0;
	for (const char *c = s;;) {
		char *end;
		if (*c < '0' || *c > '9')
			return partial_bad(r, "a malformed stack");
		errno = 0;
		unsigned long long v = strtoull(c, &end, 10);
		if (errno || v >= nlocs)
			return partial_bad(r, "a stack naming a location not "
					   "listed before it");
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			size_t *grown = realloc(*stack, cap * sizeof(*grown));
			if (!grown)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			*stack = grown;
		}
		(*stack)[(*n)++] = (size_t)v;
		if (!*end)
			return 0;
		if (*end != ',')
			return partial_bad(r, "a malformed stack");
		c = end + 1;
	}
}

static int read_sample(struct partial_reader *r, struct hwt_partial *p)
{
	struct pprof_sample s = {0};
	size_t *stack = NULL;
	int err = partial_want_fields(r, 9);
	if (!err)
		err = read_signed(r, r->fields[1], &s.pid);
	if (!err)
		err = read_signed(r, r->fields[2], &s.tid);
	if (!err)
		err = read_signed(r, r->fields[3], &s.cpu);
	char *comm = NULL;
	if (!err)
		err = partial_text_field(r, r->fields[4], &comm);
	s.comm = comm;
	if (!err)
		err = numbers(r, 5, 10, s.v, 3);
	if (!err)
		err = read_stack(r, r->fields[8], p->pprof->nlocs, &stack,
				 &s.nlocs);
	size_t before = p->pprof->nsamples;
	if (!err && (err = pprof_add_sample(p->pprof, &s, stack)) ==
			    HWT_ERR_FORMAT)
		err = partial_bad(r, "a value past 2^63 - 1, the largest a "
				  "profile holds");
	if (!err && p->pprof->nsamples == before)
		err = partial_bad(r, "a sample listed twice");
	free(stack);
	return err;
}

int partial_pprof_read_line(struct partial_reader *r, struct hwt_partial *p)
{
	const char *what = r->fields[0];
	bool cut = p->reading_n < p->reading.nlines;
	if (!strcmp(what, "line"))
		return read_loc_line(r, p);
	if (cut)
		return partial_bad(r, "a location's lines cut short");
	if (!strcmp(what, "location"))
		return read_location(r, p);
	if (!strcmp(what, "sample"))
		return read_sample(r, p);
	return partial_bad(r, "a line of no known kind");
}

int partial_pprof_read_end(struct partial_reader *r, struct hwt_partial *p)
{
	if (p->reading_n < p->reading.nlines)
		return partial_bad(r, "a location's lines cut short");
	return 0;
}
