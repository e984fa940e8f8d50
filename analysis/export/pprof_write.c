/* A pprof profile's content written as a gzip-compressed profile.proto
 * (export/profile.proto, pprof's field numbers), numbered in the
 * canonical order: the string table sorted ("" first, as the format
 * wants), functions by name then file, mappings by binary, bias and
 * build id, locations and samples as pprof_order sorts them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "analysis/export/pprof_profile.h"
#include "analysis/export/profile.pb-c.h"
#include "hwtrace/error.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

/* Compresses @len bytes into a gzip stream on @out. */
static int write_gzip(FILE *out, const uint8_t *buf, size_t len)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	/* 15 bits of window, +16: a gzip header and trailer. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return nomem();
	uint8_t chunk[65536];
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len; /* profiles stay far below 4 GiB */
	int zr, err = 0;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		size_t n = sizeof(chunk) - z.avail_out;
		if (n && fwrite(chunk, 1, n, out) != n) {
			err = hwt_error(HWT_ERR_IO, "writing the profile failed");
			break;
		}
	} while (zr == Z_OK);
	if (!err && zr != Z_STREAM_END)
		err = hwt_error(HWT_ERR_IO, "gzip failed (zlib %d)", zr);
	deflateEnd(&z);
	return err;
}

enum { LABELS = 4 };

/* The profile's messages and the tables that number them, allocated
 * together and freed at once. */
struct built {
	const struct pprof_profile *p;
	size_t *loc_rank, *loc_order, *sample_order;
	size_t *map_rank, *map_order;          /* by map index */
	struct hwt_strmap strings;             /* text -> v[0] index */
	const char **table;
	size_t ntable;
	struct hwt_strmap funcs;               /* "name\1file" -> v[0] id,
						* v[1] start line, v[2] a
						* line naming it */
	Perftools__Profiles__Profile prof;
	Perftools__Profiles__ValueType types[3], *type_ptrs[3];
	Perftools__Profiles__ValueType sampling; /* period_type of records */
	Perftools__Profiles__Sample *samples, **sample_ptrs;
	uint64_t *sample_locs;
	int64_t *sample_values;
	Perftools__Profiles__Label *labels, **label_ptrs;
	Perftools__Profiles__Mapping *maps, **map_ptrs;
	Perftools__Profiles__Location *locs, **loc_ptrs;
	Perftools__Profiles__Line *lines, **line_ptrs;
	Perftools__Profiles__Function *fns, **fn_ptrs;
	int64_t comment;
	char comment_text[256];
};

static void built_free(struct built *b)
{
	free(b->loc_rank);
	free(b->loc_order);
	free(b->sample_order);
	free(b->map_rank);
	free(b->map_order);
	hwt_strmap_free(&b->strings);
	free(b->table);
	hwt_strmap_free(&b->funcs);
	free(b->samples);
	free(b->sample_ptrs);
	free(b->sample_locs);
	free(b->sample_values);
	free(b->labels);
	free(b->label_ptrs);
	free(b->maps);
	free(b->map_ptrs);
	free(b->locs);
	free(b->loc_ptrs);
	free(b->lines);
	free(b->line_ptrs);
	free(b->fns);
	free(b->fn_ptrs);
}

static const char *const fixed_names[] = {
	"instructions", "count", "branches", "time", "nanoseconds",
	"pid", "tid", "comm", "cpu", "events", "",
};
enum { N_FIXED = sizeof(fixed_names) / sizeof(fixed_names[0]) };

static int by_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The string table: every text of the profile and the writer's own
 * names, sorted, each once. */
static int number_strings(struct built *b)
{
	const struct pprof_profile *p = b->p;
	size_t n = p->texts.n + N_FIXED + 1;
	if (!(b->table = calloc(n, sizeof(*b->table))))
		return nomem();
	size_t k = 0;
	for (size_t i = 0; i < p->texts.n; i++)
		b->table[k++] = p->texts.e[i].key;
	for (size_t i = 0; i < N_FIXED; i++)
		b->table[k++] = fixed_names[i];
	if (p->records)
		b->table[k++] = b->comment_text;
	qsort(b->table, k, sizeof(*b->table), by_text);
	b->ntable = 0;
	for (size_t i = 0; i < k; i++) {
		if (b->ntable && !strcmp(b->table[b->ntable - 1], b->table[i]))
			continue;
		b->table[b->ntable++] = b->table[i];
		struct hwt_strmap_entry *e = hwt_strmap_get(
			&b->strings, b->table[i], strlen(b->table[i]));
		if (!e)
			return nomem();
		e->v[0] = b->ntable - 1;
	}
	return 0;
}

static int64_t str(struct built *b, const char *s)
{
	struct hwt_strmap_entry *e = hwt_strmap_get(&b->strings, s ? s : "",
						    strlen(s ? s : ""));
	return e ? (int64_t)e->v[0] : 0; /* every text was numbered */
}

static struct hwt_strmap_entry *func_entry(struct built *b,
					   const struct pprof_line *l)
{
	size_t n = strlen(l->name), f = strlen(l->file);
	char stack_key[512], *key = n + f + 1 < sizeof(stack_key)
					    ? stack_key : malloc(n + f + 1);
	if (!key)
		return NULL;
	/* The map's keys are C strings: 1 parts the two (symbol names and
	 * paths do not hold it; at worst two such functions share an id). */
	memcpy(key, l->name, n);
	key[n] = 1;
	memcpy(key + n + 1, l->file, f);
	struct hwt_strmap_entry *e = hwt_strmap_get(&b->funcs, key, n + f + 1);
	if (key != stack_key)
		free(key);
	return e;
}

struct func_item {
	const struct pprof_line *line;
	struct hwt_strmap_entry *e;
};

static int by_function(const void *va, const void *vb)
{
	const struct func_item *a = va, *b = vb;
	int c = strcmp(a->line->name, b->line->name);
	return c ? c : strcmp(a->line->file, b->line->file);
}

/* Functions by name then file; each starts on the largest start line
 * its locations give (0 is "not known"). */
static int build_functions(struct built *b)
{
	const struct pprof_profile *p = b->p;
	for (size_t i = 0; i < p->nlines; i++) {
		struct hwt_strmap_entry *e = func_entry(b, &p->lines[i]);
		if (!e)
			return nomem();
		if (!e->v[2])
			e->v[2] = i + 1;
		if (p->lines[i].start_line > e->v[1])
			e->v[1] = p->lines[i].start_line;
	}
	size_t n = b->funcs.n;
	struct func_item *v = calloc(n + 1, sizeof(*v));
	b->fns = calloc(n + 1, sizeof(*b->fns));
	b->fn_ptrs = calloc(n + 1, sizeof(*b->fn_ptrs));
	if (!v || !b->fns || !b->fn_ptrs) {
		free(v);
		return nomem();
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct func_item){&p->lines[b->funcs.e[i].v[2] - 1],
					  &b->funcs.e[i]};
	if (n)
		qsort(v, n, sizeof(*v), by_function);
	for (size_t i = 0; i < n; i++) {
		Perftools__Profiles__Function *f = &b->fns[i];
		perftools__profiles__function__init(f);
		f->id = i + 1;
		f->name = f->system_name = str(b, v[i].line->name);
		f->filename = str(b, v[i].line->file);
		f->start_line = (int64_t)v[i].e->v[1];
		b->fn_ptrs[i] = f;
		v[i].e->v[0] = i + 1;
	}
	free(v);
	b->prof.function = b->fn_ptrs;
	b->prof.n_function = n;
	return 0;
}

struct map_item {
	const struct pprof_map *m;
	size_t i;
};

static int by_mapping(const void *va, const void *vb)
{
	const struct map_item *a = va, *b = vb;
	int c = strcmp(a->m->dso, b->m->dso);
	if (!c)
		c = a->m->bias < b->m->bias ? -1 : a->m->bias > b->m->bias;
	return c ? c : strcmp(a->m->build_id, b->m->build_id);
}

/* Mappings in order, each spanning the addresses of its locations. */
static int build_mappings(struct built *b)
{
	const struct pprof_profile *p = b->p;
	size_t n = p->nmaps;
	struct map_item *v = calloc(n + 1, sizeof(*v));
	b->map_rank = calloc(n + 1, sizeof(*b->map_rank));
	b->map_order = calloc(n + 1, sizeof(*b->map_order));
	b->maps = calloc(n + 1, sizeof(*b->maps));
	b->map_ptrs = calloc(n + 1, sizeof(*b->map_ptrs));
	if (!v || !b->map_rank || !b->map_order || !b->maps || !b->map_ptrs) {
		free(v);
		return nomem();
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct map_item){&p->maps[i], i};
	if (n)
		qsort(v, n, sizeof(*v), by_mapping);
	for (size_t i = 0; i < n; i++) {
		b->map_rank[v[i].i] = i;
		b->map_order[i] = v[i].i;
		Perftools__Profiles__Mapping *m = &b->maps[i];
		perftools__profiles__mapping__init(m);
		m->id = i + 1;
		m->filename = str(b, v[i].m->dso);
		m->build_id = str(b, v[i].m->build_id);
		m->has_functions = true;
		m->has_filenames = m->has_line_numbers = m->has_inline_frames =
			p->srcline;
		b->map_ptrs[i] = m;
	}
	free(v);
	for (size_t i = 0; i < p->nlocs; i++) {
		const struct pprof_loc *l = &p->locs[i];
		if (!l->map)
			continue;
		Perftools__Profiles__Mapping *m = &b->maps[b->map_rank[l->map - 1]];
		bool first = !m->memory_limit;
		if (first || l->addr < m->memory_start)
			m->memory_start = l->addr;
		if (first || l->addr >= m->memory_limit)
			m->memory_limit = l->addr + 1;
	}
	for (size_t i = 0; i < n; i++)
		b->maps[i].file_offset = b->maps[i].memory_start -
					 p->maps[b->map_order[i]].bias;
	b->prof.mapping = b->map_ptrs;
	b->prof.n_mapping = n;
	return 0;
}

/* Locations in order, their lines naming the numbered functions. */
static int build_locations(struct built *b)
{
	const struct pprof_profile *p = b->p;
	b->locs = calloc(p->nlocs + 1, sizeof(*b->locs));
	b->loc_ptrs = calloc(p->nlocs + 1, sizeof(*b->loc_ptrs));
	b->lines = calloc(p->nlines + 1, sizeof(*b->lines));
	b->line_ptrs = calloc(p->nlines + 1, sizeof(*b->line_ptrs));
	if (!b->locs || !b->loc_ptrs || !b->lines || !b->line_ptrs)
		return nomem();
	size_t nl = 0;
	for (size_t i = 0; i < p->nlocs; i++) {
		const struct pprof_loc *from = &p->locs[b->loc_order[i]];
		Perftools__Profiles__Location *l = &b->locs[i];
		perftools__profiles__location__init(l);
		l->id = i + 1;
		l->mapping_id = from->map ? b->map_rank[from->map - 1] + 1 : 0;
		l->address = from->addr;
		l->line = &b->line_ptrs[nl];
		l->n_line = from->nlines;
		for (size_t j = 0; j < from->nlines; j++, nl++) {
			const struct pprof_line *src = &p->lines[from->first_line + j];
			struct hwt_strmap_entry *e = func_entry(b, src);
			if (!e)
				return nomem();
			perftools__profiles__line__init(&b->lines[nl]);
			b->lines[nl].function_id = e->v[0];
			b->lines[nl].line = (int64_t)src->line;
			b->line_ptrs[nl] = &b->lines[nl];
		}
		b->loc_ptrs[i] = l;
	}
	b->prof.location = b->loc_ptrs;
	b->prof.n_location = p->nlocs;
	return 0;
}

static int build_samples(struct built *b, int nvalues)
{
	const struct pprof_profile *p = b->p;
	size_t n = p->nsamples;
	b->samples = calloc(n + 1, sizeof(*b->samples));
	b->sample_ptrs = calloc(n + 1, sizeof(*b->sample_ptrs));
	b->sample_locs = calloc(p->nstack + 1, sizeof(*b->sample_locs));
	b->sample_values = calloc(n * 3 + 1, sizeof(*b->sample_values));
	b->labels = calloc(n * LABELS + 1, sizeof(*b->labels));
	b->label_ptrs = calloc(n * LABELS + 1, sizeof(*b->label_ptrs));
	if (!b->samples || !b->sample_ptrs || !b->sample_locs ||
	    !b->sample_values || !b->labels || !b->label_ptrs)
		return nomem();
	size_t at = 0, nl = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pprof_sample *from = &p->samples[b->sample_order[i]];
		Perftools__Profiles__Sample *s = &b->samples[i];
		perftools__profiles__sample__init(s);
		b->sample_ptrs[i] = s;
		s->location_id = &b->sample_locs[at];
		s->n_location_id = from->nlocs;
		for (size_t j = 0; j < from->nlocs; j++)
			b->sample_locs[at++] =
				b->loc_rank[p->stack[from->first_loc + j]] + 1;
		s->value = &b->sample_values[i * 3];
		s->n_value = (size_t)nvalues;
		for (int k = 0; k < 3; k++)
			s->value[k] = (int64_t)from->v[k];
		struct { bool on; const char *key; int64_t num; const char *text; }
		l[LABELS] = {
			{from->pid >= 0, "pid", from->pid, NULL},
			{from->tid >= 0, "tid", from->tid, NULL},
			{from->comm != NULL, "comm", 0, from->comm},
			{from->cpu >= 0, "cpu", from->cpu, NULL},
		};
		s->label = &b->label_ptrs[nl];
		for (int k = 0; k < LABELS; k++) {
			if (!l[k].on)
				continue;
			Perftools__Profiles__Label *lab = &b->labels[nl];
			perftools__profiles__label__init(lab);
			lab->key = str(b, l[k].key);
			lab->num = l[k].num;
			lab->str = l[k].text ? str(b, l[k].text) : 0;
			b->label_ptrs[nl++] = lab;
			s->n_label++;
		}
	}
	b->prof.sample = b->sample_ptrs;
	b->prof.n_sample = n;
	return 0;
}

/* A capture of branch records is a sampled profile: its counts are of
 * the records, one sample in every period events. pprof does not
 * multiply by a profile's period (it shows it, `pprof -raw`), and
 * AutoFDO and perf2bolt count the records as they are too, so the
 * counts stay those of the records and the profile says how they were
 * sampled: period_type "events"/"count" (the sampled event's name is not
 * in the records) with the samples' period when they share one (-c N;
 * 0 when they differ, as with -F), and a comment (pprof -comments). */
static void sampling_comment(struct built *b)
{
	const struct pprof_profile *p = b->p;
	if (!p->records)
		return;
	if (p->period_min == p->period_max)
		snprintf(b->comment_text, sizeof(b->comment_text),
			 "branch records of sampled stacks (LBR, BRBE, BRS): %"
			 PRIu64 " records; instructions and branches are counted "
			 "from the records, one sample in every %" PRIu64
			 " events", p->records, p->period_min);
	else
		snprintf(b->comment_text, sizeof(b->comment_text),
			 "branch records of sampled stacks (LBR, BRBE, BRS): %"
			 PRIu64 " records; instructions and branches are counted "
			 "from the records, of samples with periods %" PRIu64
			 " to %" PRIu64, p->records, p->period_min,
			 p->period_max);
}

static void label_sampling(struct built *b)
{
	const struct pprof_profile *p = b->p;
	if (!p->records)
		return;
	b->comment = str(b, b->comment_text);
	b->prof.comment = &b->comment;
	b->prof.n_comment = 1;
	perftools__profiles__value_type__init(&b->sampling);
	b->sampling.type = str(b, "events");
	b->sampling.unit = str(b, "count");
	b->prof.period_type = &b->sampling;
	b->prof.period = p->period_min == p->period_max
				 ? (int64_t)p->period_min : 0;
}

static void value_types(struct built *b, int ntypes)
{
	static const char *const names[3][2] = {
		{"instructions", "count"}, {"branches", "count"},
		{"time", "nanoseconds"},
	};
	for (int i = 0; i < ntypes; i++) {
		perftools__profiles__value_type__init(&b->types[i]);
		b->types[i].type = str(b, names[i][0]);
		b->types[i].unit = str(b, names[i][1]);
		b->type_ptrs[i] = &b->types[i];
	}
	b->prof.sample_type = b->type_ptrs;
	b->prof.n_sample_type = (size_t)ntypes;
	b->prof.period_type = &b->types[0];
	b->prof.period = 1;
	b->prof.default_sample_type = str(b, "instructions"); /* pprof's view */
}

int pprof_profile_write(const struct pprof_profile *p, FILE *out,
			size_t *nfuncs)
{
	struct built b;
	memset(&b, 0, sizeof(b));
	b.p = p;
	perftools__profiles__profile__init(&b.prof);
	sampling_comment(&b);
	int err = pprof_order(p, &b.loc_rank, &b.loc_order, &b.sample_order);
	if (!err)
		err = number_strings(&b);
	if (!err) {
		int ntypes = p->has_time ? 3 : 2;
		value_types(&b, ntypes);
		label_sampling(&b);
		err = build_samples(&b, ntypes);
	}
	if (!err)
		err = build_functions(&b);
	if (!err)
		err = build_mappings(&b);
	if (!err)
		err = build_locations(&b);
	b.prof.string_table = (char **)b.table;
	b.prof.n_string_table = b.ntable;
	uint8_t *buf = NULL;
	if (!err) {
		size_t len = perftools__profiles__profile__get_packed_size(&b.prof);
		buf = malloc(len ? len : 1);
		if (!buf)
			err = nomem();
		else
			err = write_gzip(out, buf,
					 perftools__profiles__profile__pack(&b.prof,
									    buf));
	}
	*nfuncs = b.funcs.n;
	free(buf);
	built_free(&b);
	return err;
}
