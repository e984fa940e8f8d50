/* AutoFDO and BOLT exports: counts how often each address range ran
 * (from a branch target, or where tracing began, to the last instruction
 * before the next taken branch) and each taken branch was taken, per
 * process address; at the end looks each distinct address up once,
 * sorts the counts into the binaries that hold them, in the addresses
 * of the binary's own program headers, and writes one file per binary
 * (pgo_files.c, with the text of pgo_autofdo.c and pgo_bolt.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/pgo_internal.h"
#include "hwtrace/error.h"

/* A count keyed by process and two addresses; n == 0: an empty slot. */
struct pgo_count {
	int32_t pid;
	uint64_t a, b, n;
};

struct pgo_table {
	struct pgo_count *v;
	size_t nslots, n;
};

/* A thread's range not yet closed by a taken branch, and the branch
 * record (HWT_FIELD_SAMPLED) before, whose target starts the range to
 * the next record of its stack when no range element says more. */
struct pgo_open {
	bool on;
	int32_t pid;
	uint64_t start, end, insns;
	enum hwt_isa isa;
	bool rec_on;
	uint16_t rec_depth;
	int32_t rec_pid;
	uint64_t rec_to;
};

/* AutoFDO and simpleperf take a longer range between two records for
 * bogus data. */
#define RECORD_RANGE_MAX (1u << 20)

struct pgo_export {
	/* BOLT: a range that runs on into the next one (an ETM not-taken
	 * atom, a timestamp) is one trace, so no fall-through is lost. */
	bool join;
	struct pgo_table ranges, branches;
	struct pgo_open *open;      /* by thread id - 1 */
	size_t open_cap;
	struct hwt_strmap names;    /* interned strings (keys) */
	struct hwt_strmap bins;     /* binary path -> v[0] index + 1 */
	struct pgo_binary *b;
	size_t nb, b_cap;
	struct pgo_file *files;
	size_t nfiles;
};

static struct pgo_export *impl(struct hwt_export *ex)
{
	return ex->impl;
}

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

static size_t slot_of(const struct pgo_table *t, int32_t pid, uint64_t a,
		      uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) *
		     0xbf58476d1ce4e5b9ull ^ (uint64_t)(uint32_t)pid;
	h ^= h >> 29;
	return (size_t)h & (t->nslots - 1);
}

static int table_add(struct pgo_table *t, int32_t pid, uint64_t a,
		     uint64_t b, uint64_t n)
{
	if ((t->n + 1) * 2 > t->nslots) {
		size_t nslots = t->nslots ? t->nslots * 2 : 1024;
		struct pgo_count *v = calloc(nslots, sizeof(*v));
		if (!v)
			return nomem();
		struct pgo_table bigger = {v, nslots, t->n};
		for (size_t i = 0; i < t->nslots; i++) {
			struct pgo_count *c = &t->v[i];
			if (!c->n)
				continue;
			size_t h = slot_of(&bigger, c->pid, c->a, c->b);
			while (v[h].n)
				h = (h + 1) & (nslots - 1);
			v[h] = *c;
		}
		free(t->v);
		*t = bigger;
	}
	size_t h = slot_of(t, pid, a, b);
	while (t->v[h].n) {
		struct pgo_count *c = &t->v[h];
		if (c->a == a && c->b == b && c->pid == pid) {
			c->n += n;
			return 0;
		}
		h = (h + 1) & (t->nslots - 1);
	}
	t->v[h] = (struct pgo_count){pid, a, b, n};
	t->n++;
	return 0;
}

/* Closes @o at its last instruction @last. */
static int close_range(struct hwt_export *ex, struct pgo_open *o,
		       uint64_t last)
{
	o->on = false;
	ex->stats.ranges++;
	return table_add(&impl(ex)->ranges, o->pid, o->start, last, 1);
}

/* Closes @o where no taken branch says which its last instruction was:
 * 4 bytes before its end in A64 and A32 code; elsewhere (x86, T32: the
 * length varies) its last byte, which gives AutoFDO the same
 * instructions and BOLT the same basic block. */
static int close_open(struct hwt_export *ex, struct pgo_open *o)
{
	if (!o->on)
		return 0;
	uint64_t last = o->end - 1;
	if (o->insns <= 1)
		last = o->start;
	else if ((o->isa == HWT_ISA_A64 || o->isa == HWT_ISA_A32) &&
		 o->end - o->start >= 4)
		last = o->end - 4;
	ex->stats.ranges_open++;
	return close_range(ex, o, last);
}

/* Branch record @e follows the record before it in its stack with no
 * range element between (the code was not found): the range from the
 * older record's target to @e's branch, as AutoFDO counts it. */
static int record_range(struct hwt_export *ex, struct pgo_open *o,
			int32_t pid, const struct hwt_elem *e)
{
	if (!(e->fields & HWT_FIELD_SAMPLED) || !o->rec_on ||
	    !(e->u.branch.flags & HWT_BRANCH_CONSECUTIVE) ||
	    o->rec_depth != e->u.branch.depth + 1u || o->rec_pid != pid ||
	    e->u.branch.from < o->rec_to ||
	    e->u.branch.from - o->rec_to > RECORD_RANGE_MAX)
		return 0;
	return close_range(ex, &(struct pgo_open){.pid = pid, .start = o->rec_to},
			   e->u.branch.from);
}

static int pgo_element(struct hwt_export *ex, struct export_thread *t,
		       const struct hwt_elem *e)
{
	struct pgo_export *p = impl(ex);
	size_t i = (size_t)t->id - 1;
	if (i >= p->open_cap) {
		size_t cap = p->open_cap ? p->open_cap * 2 : 16;
		while (cap <= i)
			cap *= 2;
		struct pgo_open *v = realloc(p->open, cap * sizeof(*v));
		if (!v)
			return nomem();
		memset(v + p->open_cap, 0, (cap - p->open_cap) * sizeof(*v));
		p->open = v;
		p->open_cap = cap;
	}
	struct pgo_open *o = &p->open[i];
	int32_t pid = e->fields & HWT_FIELD_PID ? e->pid : t->pid;
	int err;
	/* A branch whose source the trace does not give (the code was
	 * missing) is no edge of the profile: the flow just goes on
	 * somewhere, as after trace on. */
	bool no_from = e->type == HWT_ELEM_BRANCH &&
		       (e->fields & HWT_FIELD_NO_FROM);
	switch (no_from ? HWT_ELEM_TRACE_ON : e->type) {
	case HWT_ELEM_RANGE:
		if (o->on && p->join && o->end == e->u.range.start &&
		    o->pid == pid) {
			o->end = e->u.range.end;
			o->insns += e->u.range.insns;
			o->isa = e->u.range.isa;
			return 0;
		}
		if ((err = close_open(ex, o)))
			return err;
		*o = (struct pgo_open){.on = true, .pid = pid,
				       .start = e->u.range.start,
				       .end = e->u.range.end,
				       .insns = e->u.range.insns,
				       .isa = e->u.range.isa,
				       .rec_on = o->rec_on,
				       .rec_depth = o->rec_depth,
				       .rec_pid = o->rec_pid,
				       .rec_to = o->rec_to};
		return 0;
	case HWT_ELEM_BRANCH:
		if (o->on && e->u.branch.from - o->start < o->end - o->start)
			err = close_range(ex, o, e->u.branch.from);
		else if (!o->on && (err = record_range(ex, o, pid, e)))
			return err;
		else
			err = close_open(ex, o);
		if (err)
			return err;
		o->rec_on = e->fields & HWT_FIELD_SAMPLED;
		o->rec_depth = e->u.branch.depth;
		o->rec_pid = pid;
		o->rec_to = e->u.branch.to;
		ex->stats.branches++;
		return table_add(&p->branches, pid, e->u.branch.from,
				 e->u.branch.to, 1);
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
	case HWT_ELEM_GAP:
	case HWT_ELEM_ERROR:
		o->rec_on = false;
		return close_open(ex, o);
	default:
		return 0;
	}
}

static int pgo_enter(struct hwt_export *ex, struct export_thread *t,
		     const struct hwt_frame *f, struct export_open *top)
{
	(void)ex, (void)t, (void)f, (void)top;
	return 0;
}

static int pgo_exit(struct hwt_export *ex, struct export_thread *t,
		    const struct hwt_frame *f)
{
	(void)ex, (void)t, (void)f;
	return 0;
}

/* @s interned: valid as long as the export. NULL when out of memory. */
static const char *intern(struct pgo_export *p, const char *s)
{
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->names, s, strlen(s));
	return e ? e->key : NULL;
}

/* Where @addr of process @pid is: *bin the index of its binary (its
 * profile created when new), *end its place there. *bin is SIZE_MAX
 * for code no binary file holds. */
static int locate(struct hwt_export *ex, int32_t pid, uint64_t addr,
		  size_t *bin, struct pgo_end *end)
{
	struct pgo_export *p = impl(ex);
	struct hwt_symbol s;
	*bin = SIZE_MAX;
	memset(end, 0, sizeof(*end));
	int rc = ex->opts.sym ? hwt_symbolizer_lookup(ex->opts.sym,
						      pid < 0 ? HWT_PID_ANY : pid,
						      addr, &s)
			      : 0;
	if (rc < 0)
		return rc;
	/* A binary that was not found: its address relative to where its
	 * mappings put file offset 0, as simpleperf gives it then. */
	bool unread = rc > 0 && s.dso && !s.in_elf && s.map_base;
	if (rc == 0 || !s.dso || (!s.in_elf && !unread))
		return 0;
	if (unread)
		s.elf_vaddr = addr - s.map_base, s.elf_base = 0;
	end->addr = s.elf_vaddr;
	end->off = s.offset;
	end->inside = true;
	/* A symbol of no size (_init) would name the code after it (the
	 * PLT) as offsets BOLT finds no instruction at. A static function
	 * is "name/N", as BOLT numbers the local symbols of one name. */
	if (s.name && !s.size_guessed) {
		char local[4096];
		const char *name = s.name;
		if (s.local_nth) {
			snprintf(local, sizeof(local), "%s/%" PRIu32, s.name,
				 s.local_nth);
			name = local;
		}
		if (!(end->sym = intern(p, name)))
			return nomem();
	}
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->bins, s.dso,
						    strlen(s.dso));
	if (!e)
		return nomem();
	if (!e->v[0]) {
		if (hwt_export_grow(&p->b, &p->b_cap, p->nb,
				    sizeof(*p->b)))
			return nomem();
		struct pgo_binary *b = &p->b[p->nb];
		memset(b, 0, sizeof(*b));
		b->path = e->key;
		b->base = s.elf_base;
		/* hwt_export_build_id looks the binary up: s is spent. */
		b->build_id = intern(p, hwt_export_build_id(ex, e->key));
		if (!b->build_id)
			return nomem();
		e->v[0] = ++p->nb;
	}
	*bin = e->v[0] - 1;
	return 0;
}

static int add_range(struct pgo_binary *b, uint64_t start, uint64_t last,
		     uint64_t n)
{
	if (hwt_export_grow(&b->ranges, &b->ranges_cap, b->nranges,
			    sizeof(*b->ranges)))
		return nomem();
	b->ranges[b->nranges++] = (struct pgo_range){start, last, n};
	return 0;
}

static int add_branch(struct pgo_binary *b, const struct pgo_end *from,
		      const struct pgo_end *to, uint64_t n)
{
	if (hwt_export_grow(&b->branches, &b->branches_cap,
			    b->nbranches, sizeof(*b->branches)))
		return nomem();
	struct pgo_branch *r = &b->branches[b->nbranches++];
	r->from = *from;
	r->to = *to;
	r->n = n;
	return 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_range(const void *x, const void *y)
{
	const struct pgo_range *a = x, *b = y;
	int c = cmp_u64(a->start, b->start);
	return c ? c : cmp_u64(a->last, b->last);
}

static int cmp_branch(const void *x, const void *y)
{
	const struct pgo_branch *a = x, *b = y;
	int c = cmp_u64(a->from.addr, b->from.addr);
	return c ? c : cmp_u64(a->to.addr, b->to.addr);
}

/* Sorts @b's lines and adds up the counts of equal ones (two processes
 * ran the binary, or a branch left for two other binaries). */
static void merge_lines(struct pgo_binary *b)
{
	if (b->nranges) /* qsort must not be given NULL */
		qsort(b->ranges, b->nranges, sizeof(*b->ranges), cmp_range);
	size_t n = 0;
	for (size_t i = 0; i < b->nranges; i++) {
		if (n && !cmp_range(&b->ranges[n - 1], &b->ranges[i]))
			b->ranges[n - 1].n += b->ranges[i].n;
		else
			b->ranges[n++] = b->ranges[i];
	}
	b->nranges = n;
	if (b->nbranches)
		qsort(b->branches, b->nbranches, sizeof(*b->branches), cmp_branch);
	n = 0;
	for (size_t i = 0; i < b->nbranches; i++) {
		if (n && !cmp_branch(&b->branches[n - 1], &b->branches[i]))
			b->branches[n - 1].n += b->branches[i].n;
		else
			b->branches[n++] = b->branches[i];
	}
	b->nbranches = n;
}

/* Sorts the counts into the binaries. */
static int sort_into_binaries(struct hwt_export *ex)
{
	struct pgo_export *p = impl(ex);
	bool autofdo = ex->opts.format == HWT_EXPORT_AUTOFDO;
	int err;
	for (size_t i = 0; i < p->ranges.nslots; i++) {
		const struct pgo_count *c = &p->ranges.v[i];
		struct pgo_end at;
		size_t bin;
		if (!c->n)
			continue;
		if ((err = locate(ex, c->pid, c->a, &bin, &at)))
			return err;
		if (bin == SIZE_MAX) {
			ex->stats.outside += c->n;
			continue;
		}
		uint64_t start = at.addr, last = at.addr + (c->b - c->a);
		if (autofdo) /* create_llvm_prof adds the base back */
			start -= p->b[bin].base, last -= p->b[bin].base;
		if ((err = add_range(&p->b[bin], start, last, c->n)))
			return err;
	}
	for (size_t i = 0; i < p->branches.nslots; i++) {
		const struct pgo_count *c = &p->branches.v[i];
		struct pgo_end from, to;
		size_t fb, tb;
		if (!c->n)
			continue;
		if ((err = locate(ex, c->pid, c->a, &fb, &from)) ||
		    (err = locate(ex, c->pid, c->b, &tb, &to)))
			return err;
		if (fb == SIZE_MAX && tb == SIZE_MAX) {
			ex->stats.outside += c->n;
			continue;
		}
		if (autofdo) {
			/* The binary the branch leaves; a target in another
			 * binary is 0, as simpleperf writes it. */
			if (fb == SIZE_MAX) { /* from the kernel, JIT code */
				ex->stats.outside += c->n;
				continue;
			}
			/* Nothing of another binary's side is kept: branches
			 * to several of them are one line, whichever came
			 * first. */
			from.addr -= p->b[fb].base;
			if (tb == fb)
				to.addr -= p->b[fb].base;
			else
				memset(&to, 0, sizeof(to));
			if ((err = add_branch(&p->b[fb], &from, &to, c->n)))
				return err;
			continue;
		}
		/* BOLT: both binaries' files, the other side as unknown
		 * (an exit from one, an entry into the other). */
		struct pgo_end none = {0};
		if (fb != SIZE_MAX &&
		    (err = add_branch(&p->b[fb], &from, tb == fb ? &to : &none,
				      c->n)))
			return err;
		if (tb != SIZE_MAX && tb != fb &&
		    (err = add_branch(&p->b[tb], &none, &to, c->n)))
			return err;
	}
	return 0;
}

/* Ends a capture: its open ranges closed, its counts placed in their
 * binaries with its symbolizer, the tables emptied for the next one. */
static int pgo_end_capture(struct hwt_export *ex)
{
	struct pgo_export *p = impl(ex);
	int err;
	for (size_t i = 0; i < p->open_cap; i++)
		if ((err = close_open(ex, &p->open[i])))
			return err;
	if ((err = sort_into_binaries(ex)))
		return err;
	free(p->ranges.v);
	free(p->branches.v);
	memset(&p->ranges, 0, sizeof(p->ranges));
	memset(&p->branches, 0, sizeof(p->branches));
	return 0;
}

static int by_path(const void *x, const void *y)
{
	const struct pgo_binary *a = x, *b = y;
	return strcmp(a->path, b->path);
}

static int pgo_finish(struct hwt_export *ex, bool has_time)
{
	(void)has_time;
	struct pgo_export *p = impl(ex);
	int err = pgo_end_capture(ex);
	if (err)
		return err;
	for (size_t i = 0; i < p->nb; i++) {
		merge_lines(&p->b[i]);
		ex->stats.distinct_ranges += p->b[i].nranges;
		ex->stats.distinct_branches += p->b[i].nbranches;
		for (size_t j = 0; ex->opts.format == HWT_EXPORT_BOLT &&
				   j < p->b[i].nbranches; j++) {
			const struct pgo_branch *r = &p->b[i].branches[j];
			ex->stats.unnamed += (r->from.inside && !r->from.sym) +
					     (r->to.inside && !r->to.sym);
		}
	}
	ex->stats.dsos = p->nb;
	/* By path: which of two binaries of one name gets the ".2" then
	 * depends on the binaries alone, as in a merge of partials. The
	 * map of paths to indexes is not used past this point. */
	if (p->nb)
		qsort(p->b, p->nb, sizeof(*p->b), by_path);
	if (ex->opts.partial)
		return 0;
	err = hwt_pgo_write_files(ex->opts.format, ex->opts.out_prefix, p->b,
				  p->nb, &p->files, &p->nfiles);
	ex->stats.files = err ? 0 : p->nfiles;
	return err;
}

static void pgo_free(struct hwt_export *ex)
{
	struct pgo_export *p = impl(ex);
	free(p->ranges.v);
	free(p->branches.v);
	free(p->open);
	for (size_t i = 0; i < p->nb; i++) {
		free(p->b[i].ranges);
		free(p->b[i].branches);
	}
	free(p->b);
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i].path);
	free(p->files);
	hwt_strmap_free(&p->names);
	hwt_strmap_free(&p->bins);
	free(p);
	ex->impl = NULL;
}

const struct export_format hwt_export_pgo_format = {
	.element = pgo_element,
	.enter = pgo_enter,
	.exit = pgo_exit,
	.finish = pgo_finish,
	.end_capture = pgo_end_capture,
	.free = pgo_free,
};

int hwt_export_pgo_open(struct hwt_export *ex)
{
	/* Refuse an unwritable place now, not after the decode (a
	 * partial result writes no files of its own). */
	int err = ex->opts.partial ? 0
				   : hwt_pgo_check_prefix(ex->opts.out_prefix);
	if (err)
		return err;
	struct pgo_export *p = calloc(1, sizeof(*p));
	if (!p)
		return nomem();
	p->join = ex->opts.format != HWT_EXPORT_AUTOFDO;
	ex->impl = p;
	return 0;
}

const char *hwt_export_file(const struct hwt_export *ex, size_t i,
			    const char **binary)
{
	if (ex->fmt != &hwt_export_pgo_format || !ex->impl)
		return NULL;
	const struct pgo_export *p = ex->impl;
	if (i >= p->nfiles || !ex->stats.files)
		return NULL;
	if (binary)
		*binary = p->files[i].binary;
	return p->files[i].path;
}

const struct pgo_binary *hwt_pgo_profiles(const struct hwt_export *ex,
					  size_t *n)
{
	*n = 0;
	if (ex->fmt != &hwt_export_pgo_format || !ex->impl)
		return NULL;
	const struct pgo_export *p = ex->impl;
	*n = p->nb;
	return p->b;
}
