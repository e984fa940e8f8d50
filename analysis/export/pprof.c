/* pprof export: a gzip-compressed profile.proto (export/profile.proto,
 * pprof's field numbers). A location per function entered (its address,
 * the binary's mapping, the function's name and, with source lines, its
 * file and line and the functions inlined there); one sample per distinct
 * call stack and thread, whose values are what its leaf frame executed
 * itself: instructions, taken branches and, with time, nanoseconds. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "analysis/export/export_internal.h"
#include "analysis/export/profile.pb-c.h"
#include "hwtrace/error.h"

/* strmap values: */
enum { V_ID };                            /* strings, functions, locations */
enum { S_INSNS = 1, S_BRANCHES, S_TIME, S_THREAD, S_CPU }; /* samples
							 * (V_ID: path;
							 * thread, cpu + 1) */

struct loc {
	uint64_t addr, mapping;
	size_t first_line, nlines;   /* in lines[] */
};

struct line {
	uint64_t function;
	int64_t line;
};

struct mapping {
	uint64_t start, limit, bias; /* bias: address - file offset */
	int64_t filename, build_id;
};

struct path {
	uint64_t parent, loc;
};

struct pprof_export {
	struct hwt_strmap strings;    /* string -> V_ID index (+1) */
	struct hwt_strmap functions;  /* "name\nfile" -> V_ID */
	struct hwt_strmap locations;  /* "pid:addr" -> V_ID */
	struct hwt_strmap mappings;   /* dso path -> V_ID */
	struct hwt_strmap samples;    /* "thread:path" -> V_ID path, S_* */
	struct loc *locs;
	size_t nlocs, locs_cap;
	struct line *lines;
	size_t nlines, lines_cap;
	struct mapping *maps;
	size_t nmaps, maps_cap;
	uint64_t *func_name, *func_file, *func_line; /* by function id - 1 */
	size_t nfuncs, funcs_cap;
	struct path *paths;           /* by path id - 1 */
	size_t paths_cap;
	/* Branch records (HWT_FIELD_SAMPLED): how many, and their samples'
	 * periods, which the profile names in a comment. */
	uint64_t records, period_min, period_max;
};

static struct pprof_export *impl(struct hwt_export *ex)
{
	return ex->impl;
}

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

/* The string table index of @s ("" is 0). -1 when out of memory. */
static int64_t str_index(struct pprof_export *p, const char *s)
{
	if (!s || !*s)
		return 0;
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->strings, s, strlen(s));
	if (!e)
		return -1;
	if (!e->v[V_ID])
		e->v[V_ID] = p->strings.n; /* index 0 is "", kept apart */
	return (int64_t)e->v[V_ID];
}

static int64_t function_id(struct hwt_export *ex, const char *name,
			   const char *file, int64_t line)
{
	struct pprof_export *p = impl(ex);
	char key[4096];
	int len = snprintf(key, sizeof(key), "%s\n%s", name, file ? file : "");
	if (len >= (int)sizeof(key))
		len = (int)sizeof(key) - 1;
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->functions, key,
						    (size_t)len);
	if (!e)
		return -1;
	if (e->v[V_ID])
		return (int64_t)e->v[V_ID];
	size_t i = p->nfuncs;
	size_t cap = p->funcs_cap;
	if (hwt_export_grow(&p->func_name, &cap, i, sizeof(uint64_t)))
		return -1;
	cap = p->funcs_cap;
	if (hwt_export_grow(&p->func_file, &cap, i, sizeof(uint64_t)))
		return -1;
	cap = p->funcs_cap;
	if (hwt_export_grow(&p->func_line, &cap, i, sizeof(uint64_t)))
		return -1;
	p->funcs_cap = cap;
	int64_t n = str_index(p, name), f = str_index(p, file);
	if (n < 0 || f < 0)
		return -1;
	p->func_name[i] = (uint64_t)n;
	p->func_file[i] = (uint64_t)f;
	p->func_line[i] = (uint64_t)line;
	e->v[V_ID] = ++p->nfuncs;
	ex->stats.symbols = p->nfuncs;
	return (int64_t)e->v[V_ID];
}

static int add_line(struct pprof_export *p, int64_t function, int64_t line)
{
	if (hwt_export_grow(&p->lines, &p->lines_cap, p->nlines,
			    sizeof(*p->lines)))
		return -1;
	p->lines[p->nlines].function = (uint64_t)function;
	p->lines[p->nlines].line = line;
	p->nlines++;
	return 0;
}

static uint64_t mapping_id(struct hwt_export *ex, const struct hwt_symbol *s,
			   uint64_t addr)
{
	struct pprof_export *p = impl(ex);
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->mappings, s->dso,
						    strlen(s->dso));
	if (!e)
		return UINT64_MAX;
	if (!e->v[V_ID]) {
		if (hwt_export_grow(&p->maps, &p->maps_cap, p->nmaps,
				    sizeof(*p->maps)))
			return UINT64_MAX;
		int64_t name = str_index(p, s->dso);
		int64_t bid = str_index(p, hwt_export_build_id(ex, s->dso));
		if (name < 0 || bid < 0)
			return UINT64_MAX;
		struct mapping *m = &p->maps[p->nmaps];
		m->start = addr;
		m->limit = addr + 1;
		m->bias = addr - s->dso_offset;
		m->filename = name;
		m->build_id = bid;
		e->v[V_ID] = ++p->nmaps;
	}
	struct mapping *m = &p->maps[e->v[V_ID] - 1];
	if (addr < m->start)
		m->start = addr;
	if (addr >= m->limit)
		m->limit = addr + 1;
	return e->v[V_ID];
}

/* The location of the function entered at @addr in process @pid. */
static int location_id(struct hwt_export *ex, int32_t pid, uint64_t addr,
		       uint64_t *id)
{
	struct pprof_export *p = impl(ex);
	struct hwt_symbol sym;
	int rc = ex->opts.sym ? hwt_symbolizer_lookup(ex->opts.sym,
						       pid < 0 ? HWT_PID_ANY : pid,
						       addr, &sym)
			      : 0;
	if (rc < 0)
		return rc;
	/* Frames of one function share its location: key by its start. */
	uint64_t at = rc == 1 && sym.name ? sym.start : addr;
	char key[48];
	int len = snprintf(key, sizeof(key), "%d:%" PRIx64, (int)pid, at);
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->locations, key,
						    (size_t)len);
	if (!e)
		return nomem();
	if (e->v[V_ID]) {
		*id = e->v[V_ID];
		return 0;
	}
	if (hwt_export_grow(&p->locs, &p->locs_cap, p->nlocs,
			    sizeof(*p->locs)))
		return nomem();
	struct loc *l = &p->locs[p->nlocs];
	memset(l, 0, sizeof(*l));
	l->addr = at;
	l->first_line = p->nlines;
	if (rc == 1 && sym.dso) {
		l->mapping = mapping_id(ex, &sym, at);
		if (l->mapping == UINT64_MAX)
			return nomem();
	}
	char hex[512];
	const char *name = rc == 1 && sym.name ? sym.name : NULL;
	if (!name && rc == 1 && hwt_symbol_dso_name(&sym, hex, sizeof(hex))) {
		name = hex;
		ex->stats.unknown_addrs++;
	} else if (!name) {
		snprintf(hex, sizeof(hex), "0x%" PRIx64, addr);
		name = hex;
		ex->stats.unknown_addrs++;
	}
	/* Inlined functions first, the function holding the code last. */
	for (size_t i = 0; rc == 1 && i + 1 < sym.ninlines; i++) {
		const struct hwt_sym_frame *f = &sym.inlines[i];
		int64_t fn = function_id(ex, f->name ? f->name : "??", f->file,
					 0);
		if (fn < 0 || add_line(p, fn, f->line))
			return nomem();
	}
	int64_t fn = function_id(ex, name, rc == 1 ? sym.file : NULL,
				 rc == 1 ? sym.line : 0);
	if (fn < 0 || add_line(p, fn, rc == 1 ? sym.line : 0))
		return nomem();
	l = &p->locs[p->nlocs];
	l->nlines = p->nlines - l->first_line;
	e->v[V_ID] = ++p->nlocs;
	*id = e->v[V_ID];
	return 0;
}

static int pprof_enter(struct hwt_export *ex, struct export_thread *t,
		       const struct hwt_frame *f, struct export_open *top)
{
	struct pprof_export *p = impl(ex);
	uint64_t loc = 0;
	int err = location_id(ex, f->pid >= 0 ? f->pid : t->pid, f->func, &loc);
	if (err)
		return err;
	uint64_t parent = t->n > 1 ? t->v[t->n - 2].path_id : 0;
	bool created;
	err = hwt_export_path(ex, parent, loc, 0, &top->path_id, &created);
	if (err)
		return err;
	if (created) {
		if (hwt_export_grow(&p->paths, &p->paths_cap,
				    top->path_id - 1, sizeof(*p->paths)))
			return nomem();
		p->paths[top->path_id - 1].parent = parent;
		p->paths[top->path_id - 1].loc = loc;
	}
	return 0;
}

static int pprof_exit(struct hwt_export *ex, struct export_thread *t,
		      const struct hwt_frame *f)
{
	struct pprof_export *p = impl(ex);
	if (!f->insns_self && !f->branches_self && !f->self_time)
		return 0;
	char key[64];
	int len = ex->opts.no_labels
			  ? snprintf(key, sizeof(key), "%" PRIu64,
				     t->v[t->n - 1].path_id)
			  : snprintf(key, sizeof(key), "%zu:%d:%" PRIu64,
				     (size_t)(t - ex->threads), (int)f->cpu,
				     t->v[t->n - 1].path_id);
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->samples, key,
						    (size_t)len);
	if (!e)
		return nomem();
	if (!e->v[V_ID]) {
		e->v[V_ID] = t->v[t->n - 1].path_id;
		e->v[S_THREAD] = (uint64_t)(t - ex->threads) + 1;
		e->v[S_CPU] = (uint64_t)((int64_t)f->cpu + 1);
	}
	e->v[S_INSNS] += f->insns_self;
	e->v[S_BRANCHES] += f->branches_self;
	e->v[S_TIME] += f->has_time ? f->self_time : 0;
	return 0;
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

/* The profile's messages, allocated together and freed at once. */
struct built {
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
	Perftools__Profiles__Function *funcs, **func_ptrs;
	char **strings;
	int64_t comment;
};

static void built_free(struct built *b)
{
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
	free(b->funcs);
	free(b->func_ptrs);
	free(b->strings);
}

enum { LABELS = 4 };

static int build_samples(struct hwt_export *ex, struct built *b, int nvalues,
			 const int64_t *label_keys)
{
	struct pprof_export *p = impl(ex);
	size_t n = p->samples.n, nlocs = 0;
	for (size_t i = 0; i < n; i++)
		for (uint64_t id = p->samples.e[i].v[V_ID]; id;
		     id = p->paths[id - 1].parent)
			nlocs++;
	b->samples = calloc(n ? n : 1, sizeof(*b->samples));
	b->sample_ptrs = calloc(n ? n : 1, sizeof(*b->sample_ptrs));
	b->sample_locs = calloc(nlocs ? nlocs : 1, sizeof(*b->sample_locs));
	b->sample_values = calloc(n * 3 + 1, sizeof(*b->sample_values));
	b->labels = calloc(n * LABELS + 1, sizeof(*b->labels));
	b->label_ptrs = calloc(n * LABELS + 1, sizeof(*b->label_ptrs));
	if (!b->samples || !b->sample_ptrs || !b->sample_locs ||
	    !b->sample_values || !b->labels || !b->label_ptrs)
		return nomem();
	size_t at = 0, nl = 0;
	for (size_t i = 0; i < n; i++) {
		const struct hwt_strmap_entry *e = &p->samples.e[i];
		Perftools__Profiles__Sample *s = &b->samples[i];
		perftools__profiles__sample__init(s);
		b->sample_ptrs[i] = s;
		s->location_id = &b->sample_locs[at];
		for (uint64_t id = e->v[V_ID]; id; id = p->paths[id - 1].parent)
			b->sample_locs[at++] = p->paths[id - 1].loc;
		s->n_location_id = (size_t)(&b->sample_locs[at] - s->location_id);
		s->value = &b->sample_values[i * 3];
		s->n_value = (size_t)nvalues;
		s->value[0] = (int64_t)e->v[S_INSNS];
		s->value[1] = (int64_t)e->v[S_BRANCHES];
		s->value[2] = (int64_t)e->v[S_TIME];
		if (ex->opts.no_labels)
			continue;
		const struct export_thread *t = &ex->threads[e->v[S_THREAD] - 1];
		int32_t pid = t->pid;
		const char *comm = t->comm;
		for (size_t j = 0; j < ex->nthreads; j++)
			if (pid >= 0 && ex->threads[j].tid == pid && !comm)
				comm = ex->threads[j].comm;
		int64_t cpu = (int64_t)e->v[S_CPU] - 1;
		s->label = &b->label_ptrs[nl];
		int64_t comm_str = str_index(p, comm);
		if (comm_str < 0)
			return nomem();
		struct { bool on; int64_t key, num, str; } l[LABELS] = {
			{pid >= 0, label_keys[0], pid, 0},
			{t->tid >= 0, label_keys[1], t->tid, 0},
			{comm != NULL, label_keys[2], 0, comm_str},
			{cpu >= 0, label_keys[3], cpu, 0},
		};
		for (int k = 0; k < LABELS; k++) {
			if (!l[k].on)
				continue;
			Perftools__Profiles__Label *lab = &b->labels[nl];
			perftools__profiles__label__init(lab);
			lab->key = l[k].key;
			lab->num = l[k].num;
			lab->str = l[k].str;
			b->label_ptrs[nl++] = lab;
			s->n_label++;
		}
	}
	b->prof.sample = b->sample_ptrs;
	b->prof.n_sample = n;
	ex->stats.samples = n;
	return 0;
}

static int build_tables(struct hwt_export *ex, struct built *b)
{
	struct pprof_export *p = impl(ex);
	b->maps = calloc(p->nmaps + 1, sizeof(*b->maps));
	b->map_ptrs = calloc(p->nmaps + 1, sizeof(*b->map_ptrs));
	b->locs = calloc(p->nlocs + 1, sizeof(*b->locs));
	b->loc_ptrs = calloc(p->nlocs + 1, sizeof(*b->loc_ptrs));
	b->lines = calloc(p->nlines + 1, sizeof(*b->lines));
	b->line_ptrs = calloc(p->nlines + 1, sizeof(*b->line_ptrs));
	b->funcs = calloc(p->nfuncs + 1, sizeof(*b->funcs));
	b->func_ptrs = calloc(p->nfuncs + 1, sizeof(*b->func_ptrs));
	b->strings = calloc(p->strings.n + 1, sizeof(*b->strings));
	if (!b->maps || !b->map_ptrs || !b->locs || !b->loc_ptrs ||
	    !b->lines || !b->line_ptrs || !b->funcs || !b->func_ptrs ||
	    !b->strings)
		return nomem();
	bool srcline = ex->opts.sym && hwt_symbolizer_srcline(ex->opts.sym);
	for (size_t i = 0; i < p->nmaps; i++) {
		Perftools__Profiles__Mapping *m = &b->maps[i];
		perftools__profiles__mapping__init(m);
		m->id = i + 1;
		m->memory_start = p->maps[i].start;
		m->memory_limit = p->maps[i].limit;
		m->file_offset = p->maps[i].start - p->maps[i].bias;
		m->filename = p->maps[i].filename;
		m->build_id = p->maps[i].build_id;
		m->has_functions = true;
		m->has_filenames = m->has_line_numbers = m->has_inline_frames =
			srcline;
		b->map_ptrs[i] = m;
	}
	for (size_t i = 0; i < p->nlines; i++) {
		perftools__profiles__line__init(&b->lines[i]);
		b->lines[i].function_id = p->lines[i].function;
		b->lines[i].line = p->lines[i].line;
		b->line_ptrs[i] = &b->lines[i];
	}
	for (size_t i = 0; i < p->nlocs; i++) {
		Perftools__Profiles__Location *l = &b->locs[i];
		perftools__profiles__location__init(l);
		l->id = i + 1;
		l->mapping_id = p->locs[i].mapping;
		l->address = p->locs[i].addr;
		l->line = &b->line_ptrs[p->locs[i].first_line];
		l->n_line = p->locs[i].nlines;
		b->loc_ptrs[i] = l;
	}
	for (size_t i = 0; i < p->nfuncs; i++) {
		Perftools__Profiles__Function *f = &b->funcs[i];
		perftools__profiles__function__init(f);
		f->id = i + 1;
		f->name = f->system_name = (int64_t)p->func_name[i];
		f->filename = (int64_t)p->func_file[i];
		f->start_line = (int64_t)p->func_line[i];
		b->func_ptrs[i] = f;
	}
	b->strings[0] = "";
	for (size_t i = 0; i < p->strings.n; i++)
		b->strings[i + 1] = p->strings.e[i].key;
	b->prof.mapping = b->map_ptrs;
	b->prof.n_mapping = p->nmaps;
	b->prof.location = b->loc_ptrs;
	b->prof.n_location = p->nlocs;
	b->prof.function = b->func_ptrs;
	b->prof.n_function = p->nfuncs;
	b->prof.string_table = b->strings;
	b->prof.n_string_table = p->strings.n + 1;
	ex->stats.call_paths = p->nlocs; /* reported as locations */
	return 0;
}

static int pprof_element(struct hwt_export *ex, struct export_thread *t,
			 const struct hwt_elem *e)
{
	(void)t;
	struct pprof_export *p = impl(ex);
	if (e->type != HWT_ELEM_BRANCH || !(e->fields & HWT_FIELD_SAMPLED))
		return 0;
	uint64_t w = e->u.branch.weight;
	if (!p->records++ || w < p->period_min)
		p->period_min = w;
	if (w > p->period_max)
		p->period_max = w;
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
static int label_sampling(struct pprof_export *p, struct built *b)
{
	char text[256];
	if (!p->records)
		return 0;
	if (p->period_min == p->period_max)
		snprintf(text, sizeof(text), "branch records of sampled stacks "
			 "(LBR, BRBE, BRS): %" PRIu64 " records; instructions and "
			 "branches are counted from the records, one sample in "
			 "every %" PRIu64 " events", p->records, p->period_min);
	else
		snprintf(text, sizeof(text), "branch records of sampled stacks "
			 "(LBR, BRBE, BRS): %" PRIu64 " records; instructions and "
			 "branches are counted from the records, of samples with "
			 "periods %" PRIu64 " to %" PRIu64, p->records,
			 p->period_min, p->period_max);
	int64_t i = str_index(p, text), type = str_index(p, "events"),
		unit = str_index(p, "count");
	if (i < 0 || type < 0 || unit < 0)
		return nomem();
	b->comment = i;
	b->prof.comment = &b->comment;
	b->prof.n_comment = 1;
	perftools__profiles__value_type__init(&b->sampling);
	b->sampling.type = type;
	b->sampling.unit = unit;
	b->prof.period_type = &b->sampling;
	b->prof.period = p->period_min == p->period_max
				 ? (int64_t)p->period_min : 0;
	return 0;
}

static int pprof_finish(struct hwt_export *ex, bool has_time)
{
	struct pprof_export *p = impl(ex);
	struct built b;
	memset(&b, 0, sizeof(b));
	perftools__profiles__profile__init(&b.prof);
	static const char *const names[] = {
		"instructions", "count", "branches", "time", "nanoseconds",
		"pid", "tid", "comm", "cpu",
	};
	int64_t idx[9];
	for (int i = 0; i < 9; i++)
		if ((idx[i] = str_index(p, names[i])) < 0)
			return nomem();
	int ntypes = has_time ? 3 : 2;
	const int64_t type_str[3][2] = {{idx[0], idx[1]}, {idx[2], idx[1]},
					{idx[3], idx[4]}};
	for (int i = 0; i < ntypes; i++) {
		perftools__profiles__value_type__init(&b.types[i]);
		b.types[i].type = type_str[i][0];
		b.types[i].unit = type_str[i][1];
		b.type_ptrs[i] = &b.types[i];
	}
	b.prof.sample_type = b.type_ptrs;
	b.prof.n_sample_type = (size_t)ntypes;
	b.prof.period_type = &b.types[0];
	b.prof.period = 1;
	b.prof.default_sample_type = idx[0]; /* pprof shows instructions */
	int err = label_sampling(p, &b);
	if (!err)
		err = build_samples(ex, &b, ntypes, &idx[5]);
	if (!err)
		err = build_tables(ex, &b);
	uint8_t *buf = NULL;
	if (!err) {
		size_t len = perftools__profiles__profile__get_packed_size(&b.prof);
		buf = malloc(len ? len : 1);
		if (!buf)
			err = nomem();
		else
			err = write_gzip(ex->opts.out, buf,
					 perftools__profiles__profile__pack(&b.prof,
									    buf));
	}
	free(buf);
	built_free(&b);
	return err;
}

static void pprof_free(struct hwt_export *ex)
{
	struct pprof_export *p = impl(ex);
	hwt_strmap_free(&p->strings);
	hwt_strmap_free(&p->functions);
	hwt_strmap_free(&p->locations);
	hwt_strmap_free(&p->mappings);
	hwt_strmap_free(&p->samples);
	free(p->locs);
	free(p->lines);
	free(p->maps);
	free(p->func_name);
	free(p->func_file);
	free(p->func_line);
	free(p->paths);
	free(p);
}

const struct export_format hwt_export_pprof_format = {
	.element = pprof_element,
	.enter = pprof_enter,
	.exit = pprof_exit,
	.finish = pprof_finish,
	.free = pprof_free,
};

int hwt_export_pprof_open(struct hwt_export *ex)
{
	if (!ex->opts.out)
		return hwt_error(HWT_ERR_INVAL, "pprof export: no output");
	ex->impl = calloc(1, sizeof(struct pprof_export));
	return ex->impl ? 0 : nomem();
}
